/**
 * Who may write from the pages: the ONE check every page form goes through (the upload, saved targets, starting,
 * cancelling and rerunning live runs). A POST whose `Origin` or `Sec-Fetch-Site` names another site is refused
 * before its body is read; the form must carry the signed-in session's CSRF token (the hidden field of
 * `csrfField` of layout.ts, checked by auth/csrf.ts `csrfRefusal`, OWASP's synchronizer token); and the signed-in user's
 * role in the organisation the form writes to must allow the action (auth/permissions.ts `can`, through `allow`).
 */
import type { Context } from 'hono';
import { ApiError } from '../api/api-error.js';
import { CSRF_FIELD, crossSite, csrfRefusal } from '../auth/csrf.js';
import { hubAdminOf } from '../auth/hub-admin.js';
import { type Action, can } from '../auth/permissions.js';
import { actorOf, allow, organisationFor } from '../auth/request-auth.js';

/** A page form's fields, read once; `text` trims and answers undefined for an empty field. */
export interface PageForm {
  readonly data: FormData;
  text(name: string): string | undefined;
}

/** A refused page write: its status and what to tell the person. */
export interface PageRefusal {
  readonly status: 400 | 401 | 403 | 404 | 415;
  readonly message: string;
}

export type PageWrite = {
  readonly form: PageForm;
  readonly refusal?: PageRefusal;
  /** The organisation the write was allowed in (the `need`'s, or the form's `organisation` field's). */
  readonly organisationId?: number;
};

/**
 * What the write needs: `action` in `organisationId` (an object's organisation: a saved target, a live run, a run);
 * without `organisationId`, in the organisation the form names (field `organisation`), or the one organisation where
 * the user may do it. `what` names the object in a 404 (another organisation's objects do not exist). Or a hub
 * admin's write (`hubAdmin`): the signed-in user must be a hub admin (auth/hub-admin.ts `hubAdminOf`).
 */
export type PageNeed =
  | { readonly action: Action; readonly organisationId?: number; readonly what?: string }
  /** A hub admin's write (organisations, certifying bodies): no organisation, no role in one will do. */
  | { readonly hubAdmin: true };

const FORM_TYPES = new Set(['multipart/form-data', 'application/x-www-form-urlencoded']);

const refusalStatus = (s: number): PageRefusal['status'] =>
  s === 400 || s === 401 || s === 403 || s === 404 || s === 415 ? s : 403;

/**
 * Reads a page form and checks that it is this hub's own, whoever sends it and whatever it writes to: another site
 * is refused before the body is read; then the form must be readable and carry the session's CSRF token.
 */
export async function pageForm(c: Context): Promise<{ readonly form: PageForm; readonly refusal?: PageRefusal }> {
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
  const token = data.get(CSRF_FIELD);
  const forged = csrfRefusal(c, typeof token === 'string' ? token : '');
  return forged ? { form, refusal: { status: 403, message: forged } } : { form };
}

/** Whether the caller's role allows `need`: the organisation it is allowed in, or the refusal. */
function allowed(c: Context, need: PageNeed, form: PageForm): { organisationId?: number; refusal?: PageRefusal } {
  try {
    if ('hubAdmin' in need) {
      hubAdminOf(c);
      return {};
    }
    const organisationId = need.organisationId ?? organisationFor(c, need.action, form.text('organisation'));
    allow(c, need.action, organisationId, need.what);
    return { organisationId };
  } catch (err) {
    if (err instanceof ApiError) return { refusal: { status: refusalStatus(err.status), message: err.message } };
    throw err;
  }
}

/**
 * A form that makes something new (an upload, a saved target): {@link pageForm}, then the user's role must allow
 * `need` (in the form's organisation, or the user's only one where it may). A refusal after the form was read still
 * answers the form, so that the page can show it again with what was typed (never a password).
 */
export async function pageWrite(c: Context, need: PageNeed): Promise<PageWrite> {
  const read = await pageForm(c);
  if (read.refusal) return read;
  return { form: read.form, ...allowed(c, need, read.form) };
}

/** A form that writes to an existing object, after {@link pageWriteTo}. */
export type ObjectWrite<T> =
  | { readonly form: PageForm; readonly object: T; readonly reads: boolean; readonly refusal?: PageRefusal }
  | { readonly form: PageForm; readonly object?: undefined; readonly reads: false; readonly refusal: PageRefusal };

/**
 * A form that writes to an existing object (a saved target, a live run, a run): {@link pageForm} first (a forged form
 * is refused 403 whatever it names); then the object must exist and be visible to the caller, who may read in its
 * organisation or do `action` there (else 404, as if it did not exist; nobody: 401); then the role must allow
 * `action`. `reads` says whether the caller may be shown the object's page with the refusal.
 */
export async function pageWriteTo<T>(
  c: Context,
  o: {
    readonly find: () => Promise<T | undefined>;
    readonly organisationOf: (object: T) => number;
    readonly action: Action;
    readonly what: string;
  },
): Promise<ObjectWrite<T>> {
  const { form, refusal: forged } = await pageForm(c);
  const object = await o.find();
  const actor = actorOf(c);
  const org = object === undefined ? undefined : o.organisationOf(object);
  const reads = org !== undefined && can(actor, 'read', org);
  const visible = org !== undefined && (reads || can(actor, o.action, org));
  if (forged)
    return object !== undefined && visible
      ? { form, object, reads, refusal: forged }
      : { form, reads: false, refusal: forged };
  // nobody: 401, as everywhere
  if (actor.kind === 'anonymous') allow(c, o.action, org ?? 0, o.what);
  if (object === undefined || org === undefined || !visible) throw new ApiError(404, `there is no ${o.what}`);
  return { form, object, reads, ...allowed(c, { action: o.action, organisationId: org, what: o.what }, form) };
}
