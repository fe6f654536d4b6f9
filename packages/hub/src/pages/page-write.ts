/**
 * Who may write from the pages: the ONE check every page form goes through (the upload, saved targets, starting,
 * cancelling and rerunning live runs). A browser form cannot send an Authorization header, so each form carries the
 * hub token as a field ({@link tokenField}); and a POST whose `Origin` or `Sec-Fetch-Site` names another site is
 * refused before its body is read (OWASP CSRF cheat sheet). Issue 26 replaces the token field by sessions and CSRF
 * tokens: this file is the one place that changes.
 */
import type { Context } from 'hono';
import { isHubToken } from '../api/bearer-token.js';
import { TOKEN_ENV } from '../constants.js';
import { type Html, html } from './html.js';

/** The form field that carries the hub token. */
export const TOKEN_FIELD = 'token';

/** The token input every writing form shows (never filled in by the hub). */
export function tokenField(): Html {
  return html`<label>Hub token <input type="password" name="${TOKEN_FIELD}" autocomplete="off" required></label>`;
}

/** Why a POST comes from another site, or undefined when it is this hub's own form (or not a browser). */
export function crossSite(c: Context): string | undefined {
  const site = c.req.header('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return `the request came from another site (${site})`;
  const origin = c.req.header('origin');
  if (origin && origin !== 'null') {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return 'the request has an unreadable Origin';
    }
    if (host !== c.req.header('host')) return 'the request came from another origin';
  } else if (origin === 'null') return 'the request came from an opaque origin';
  return undefined;
}

/** A page form's fields, read once; `text` trims and answers undefined for an empty field. */
export interface PageForm {
  readonly data: FormData;
  text(name: string): string | undefined;
}

/** A refused page write: its status and what to tell the person. */
export interface PageRefusal {
  readonly status: 400 | 401 | 403 | 415;
  readonly message: string;
}

export type PageWrite = { readonly form: PageForm; readonly refusal?: PageRefusal };

const FORM_TYPES = new Set(['multipart/form-data', 'application/x-www-form-urlencoded']);

/**
 * Reads a page form and decides whether it may write: another site is refused before the body is read; then the
 * form must be readable and carry the hub's token. A refusal after the form was read still answers the form, so
 * that the page can show it again with what was typed (never the token or a password).
 */
export async function pageWrite(c: Context, token: string | undefined): Promise<PageWrite> {
  const empty: PageForm = { data: new FormData(), text: () => undefined };
  const cross = crossSite(c);
  if (cross) return { form: empty, refusal: { status: 403, message: `${cross}: use the hub's own page` } };
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!FORM_TYPES.has(type)) return { form: empty, refusal: { status: 415, message: "send the page's form" } };
  let data: FormData;
  try {
    data = await c.req.raw.formData();
  } catch (err) {
    return { form: empty, refusal: { status: 400, message: `the form cannot be read: ${(err as Error).message}` } };
  }
  const form: PageForm = {
    data,
    text(name) {
      const v = data.get(name);
      return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
    },
  };
  if (!token)
    return { form, refusal: { status: 403, message: `writing is disabled: the hub was started without ${TOKEN_ENV}` } };
  const given = data.get(TOKEN_FIELD);
  if (!isHubToken(token, typeof given === 'string' ? given : ''))
    return { form, refusal: { status: 401, message: "the token is not the hub's" } };
  return { form };
}
