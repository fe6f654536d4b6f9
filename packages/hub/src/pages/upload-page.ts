/**
 * Upload a report folder, or its zip, from the browser (`/upload`): a multipart form read by the same `readParts`
 * (the folder input's files, one part each named by its path in the folder) or `readZip`, and `ingestFiles`, as
 * POST /api/v1/runs, into an organisation where the signed-in user may publish (engineer, admin).
 * A refused upload shows the ingest's 4xx message on the form again; a stored run redirects to its page (303).
 * The form carries the session's CSRF token and passes the pages' one write check (page-write.ts: CSRF token, then the publish role).
 */
import type { Membership } from '../auth/actor.js';
import { type Html, html } from './html.js';
import { csrfField, page } from './layout.js';

export interface UploadForm {
  readonly build?: string;
  readonly label?: string;
}

export function uploadPage(o: {
  /** The organisations the user may publish to. */
  readonly organisations: readonly Membership[];
  readonly form?: UploadForm;
  readonly error?: string;
}): Html {
  const f = o.form ?? {};
  const body = html`
${o.error ? html`<p class="alert" role="alert" id="upload-error">${o.error}</p>` : ''}
${
  o.organisations.length > 0
    ? ''
    : html`<p class="note">Your role publishes nothing: uploading needs the engineer or admin role in an organisation.</p>`
}
<p>Send a report folder made by <code>erpcert conform</code> or <code>erpcert load</code> (the folder holding <code>results.json</code>), or its zip: choose one of the two. The same run sent twice is stored once.</p>
<form class="stack" method="post" action="/upload" enctype="multipart/form-data">${csrfField()}
${
  o.organisations.length > 1
    ? html`<label>Organisation <select name="organisation">${o.organisations.map(
        (m) => html`<option value="${m.organisationId}">${m.organisationName}</option>`,
      )}</select></label>`
    : ''
}
<fieldset><legend>The run: a report folder, or its zip (one of the two)</legend>
<label>Report folder <input type="file" name="file" webkitdirectory multiple></label>
<label>Report folder (zip) <input type="file" name="zip" accept=".zip,application/zip"></label>
</fieldset>
<label>Build (a commit or version, optional) <input name="build" value="${f.build ?? ''}" maxlength="200"></label>
<label>Label (optional) <input name="label" value="${f.label ?? ''}" maxlength="200"></label>
<button type="submit"${o.organisations.length > 0 ? '' : html` disabled`}>Upload</button>
</form>`;
  return page({ title: 'Upload a run', nav: 'upload' }, body);
}
