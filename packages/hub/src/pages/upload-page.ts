/**
 * Upload a report folder's zip from the browser (`/upload`): a multipart form with the hub token as a field (a form
 * cannot send an Authorization header), read by the same `readZip` and `ingestFiles` as POST /api/v1/runs. A refused
 * upload shows the ingest's 4xx message on the form again; a stored run redirects to its page (303).
 *
 * Who may upload is decided by the pages' one write check (page-write.ts): the hub token as a field, and no POST
 * from another site.
 */
import { TOKEN_ENV } from '../constants.js';
import { type Html, html } from './html.js';
import { page } from './layout.js';
import { tokenField } from './page-write.js';

export interface UploadForm {
  readonly build?: string;
  readonly label?: string;
}

export function uploadPage(o: {
  readonly enabled: boolean;
  readonly form?: UploadForm;
  readonly error?: string;
}): Html {
  const f = o.form ?? {};
  const body = html`
${o.error ? html`<p class="alert" role="alert" id="upload-error">${o.error}</p>` : ''}
${
  o.enabled
    ? ''
    : html`<p class="note">Uploading is disabled: the hub was started without ${TOKEN_ENV}. Every page can still be read.</p>`
}
<p>Zip a report folder made by <code>erpcert conform</code> or <code>erpcert load</code> (the folder holding <code>results.json</code>) and send it here. The same run sent twice is stored once.</p>
<form class="stack" method="post" action="/upload" enctype="multipart/form-data">
<label>Report folder (zip) <input type="file" name="zip" accept=".zip,application/zip" required></label>
<label>Build (a commit or version, optional) <input name="build" value="${f.build ?? ''}" maxlength="200"></label>
<label>Label (optional) <input name="label" value="${f.label ?? ''}" maxlength="200"></label>
${tokenField()}
<button type="submit">Upload</button>
</form>`;
  return page({ title: 'Upload a run', nav: 'upload' }, body);
}
