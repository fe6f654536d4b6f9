/**
 * Cross-site request forgery (OWASP CSRF Prevention Cheat Sheet), checked in this one helper for every
 * state-changing request authenticated by the session cookie: the request must come from the hub's own origin
 * (Sec-Fetch-Site, else Origin, when the browser sends them) and carry the session's synchronizer token (a form
 * field `csrf`, or the `X-CSRF-Token` header for scripts). The token is derived from the session's secret, so it is
 * bound to the session and changes with it. Requests with a bearer token are not cookie-authenticated and need no
 * CSRF token; the sign-in form (no session yet) gets the origin check.
 */
import type { Context } from 'hono';
import { ApiError } from '../api/api-error.js';
import { sameSecret } from './secret-token.js';
import { csrfTokenOf } from './sessions.js';

export const CSRF_FIELD = 'csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** Why a POST comes from another site, or undefined when it is this hub's own page (or not a browser). */
export function crossSite(c: Context): string | undefined {
  const site = c.req.header('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return `the request came from another site (${site})`;
  const origin = c.req.header('origin');
  if (origin === 'null') return 'the request came from an opaque origin';
  if (origin) {
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      return 'the request has an unreadable Origin';
    }
    if (host !== c.req.header('host')) return 'the request came from another origin';
  }
  return undefined;
}

/**
 * Why a state-changing request is refused as a possible forgery, or undefined when it may go on. `formToken` is the
 * form's `csrf` field when the caller read the form; otherwise the header is used.
 */
export function csrfRefusal(c: Context, formToken?: string | undefined): string | undefined {
  const cross = crossSite(c);
  if (cross) return cross;
  const secret = c.get('sessionSecret');
  if (!secret) return undefined;
  const given = formToken ?? c.req.header(CSRF_HEADER) ?? '';
  if (given === '' || !sameSecret(given, csrfTokenOf(secret)))
    return 'the form is stale or not from this hub (no valid CSRF token): reload the page and try again';
  return undefined;
}

/** The token a page's forms carry, for the signed-in session (undefined: nobody signed in). */
export function csrfTokenFor(c: Context): string | undefined {
  const secret = c.get('sessionSecret');
  return secret ? csrfTokenOf(secret) : undefined;
}

/**
 * A page form's fields, after the CSRF check (the one check for every page form: upload, sign-out, members,
 * tokens, and the live-run forms of i25-pages); a refusal is a 403 naming why, before anything is done.
 */
export async function checkedForm(c: Context): Promise<FormData> {
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch (err) {
    throw new ApiError(400, `the form cannot be read: ${(err as Error).message}`);
  }
  const token = form.get(CSRF_FIELD);
  const refused = csrfRefusal(c, typeof token === 'string' ? token : '');
  if (refused) throw new ApiError(403, refused);
  return form;
}
