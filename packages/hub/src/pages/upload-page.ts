/**
 * Upload a report folder's zip from the browser (`/upload`): a multipart form with the hub token as a field (a form
 * cannot send an Authorization header), read by the same `readZip` and `ingestFiles` as POST /api/v1/runs. A refused
 * upload shows the ingest's 4xx message on the form again; a stored run redirects to its page (303).
 *
 * Cross-site requests (OWASP CSRF cheat sheet): the form needs the token, which another site does not have, and a
 * POST whose `Origin` or `Sec-Fetch-Site` says another site is refused before the body is read.
 */
import type { Context } from 'hono';
import { TOKEN_ENV } from '../constants.js';
import { type Html, html } from './html.js';
import { page } from './layout.js';

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
<label>Hub token <input type="password" name="token" autocomplete="off" required></label>
<button type="submit">Upload</button>
</form>`;
  return page({ title: 'Upload a run', nav: 'upload' }, body);
}

/** Why a POST comes from another site, or undefined when it is this hub's own form (or not a browser). */
export function crossSite(c: Context): string | undefined {
  const site = c.req.header('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return `the upload came from another site (${site})`;
  const origin = c.req.header('origin');
  if (origin && origin !== 'null') {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return 'the upload has an unreadable Origin';
    }
    if (host !== c.req.header('host')) return 'the upload came from another origin';
  } else if (origin === 'null') return 'the upload came from an opaque origin';
  return undefined;
}
