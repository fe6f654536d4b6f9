/**
 * The authorization matrix (issue 26): for every route of the API and the pages, the answer each kind of caller
 * gets. Written out by hand, one row per route, as data; `authorization-matrix.test.ts` enumerates the routes from
 * the Hono router (`app.routes`), fails for a route without a row (or a row without a route), sends every request
 * and checks its answer class.
 *
 * The callers, in the order of each row's string: an admin, certifier, engineer and viewer of the organisation that
 * owns the objects; an admin of another organisation (`outsider`); API tokens of the owning organisation with the
 * scope publish, read, run; nobody; last, a hub admin who belongs to no organisation (`hub-admin`: it makes
 * organisations and certifying bodies, and being one gives it no role in any).
 *
 * The classes: `o` the request is served (2xx, or a redirect that is not to the sign-in page); `d` refused, 403
 * (the caller may read there, not do this); `h` 404, as if the object did not exist (another organisation's, or a
 * token that may not even read); `u` 401, or for a page the redirect to the sign-in page; `r` refused alike for
 * everyone (400: the request itself is wrong whoever sends it, as an OpenID Connect callback with no sign-in in
 * progress in that browser).
 *
 * The OpenID Connect routes exist when the hub is started with `--oidc-issuer` (the test mounts them).
 * Certification's routes are rows here too (their own block): `certification/access.ts` decides them, this table
 * says what each caller must get.
 */

export const CALLERS = [
  'admin',
  'certifier',
  'engineer',
  'viewer',
  'outsider',
  'token-publish',
  'token-read',
  'token-run',
  'anonymous',
  'hub-admin',
] as const;

export type Caller = (typeof CALLERS)[number];
export type AnswerClass = 'o' | 'd' | 'h' | 'u' | 'r';

// the patterns that recur (same order as CALLERS)
const EVERYONE = 'oooooooooo';
const REFUSED_ALIKE = 'rrrrrrrrrr';
const SIGNED_IN = 'oooooooouo';
const READ_OBJECT = 'oooohhohuh';
const PERSON_ONLY = 'oooooddduo';
const ORG_ADMIN = 'odddhhdhuh';
const PUBLISH = 'ododooddud';
const REGISTER_KEY = 'odddodddud';
const NEW_TARGET = 'odododddud';
const CHANGE_TARGET = 'ododhhdhuh';
const RUN = 'ododhhdouh';
/**
 * What only a hub admin does: make organisations, make one a certifying body, read the hub-wide audit log; no role
 * and no token may.
 */
const HUB_ADMIN = 'dddddddduo';

// ---- certification (issue 26): its routes, decided by certification/access.ts ----
// The owning organisation is a vendor and a certifying body: its runs and share links are the objects of the run
// and link routes; the submissions are a third organisation's, made to it (its certifier reviews them; its admin,
// engineer and viewer read them and may not decide them). The outsider's organisation is a certifying body too:
// for a run not submitted to it, it is another organisation. Deleting, relabelling, sharing (and revoking) and
// submitting a run are a person's acts (engineer, admin): no token scope holds them.
const MANAGE_RUN = 'ododhhdhuh';
const REVIEW = 'doddhhdhuh';

const CERTIFICATION_ROWS: Readonly<Record<string, string>> = {
  // the API
  'GET /api/v1/certifying-bodies': EVERYONE,
  'GET /api/v1/certified': EVERYONE,
  'POST /api/v1/runs/:id/submissions': MANAGE_RUN,
  'GET /api/v1/runs/:id/submissions': READ_OBJECT,
  'GET /api/v1/submissions': SIGNED_IN,
  'GET /api/v1/submissions/:id': READ_OBJECT,
  'POST /api/v1/submissions/:id/decision': REVIEW,
  'DELETE /api/v1/runs/:id': MANAGE_RUN,
  'PATCH /api/v1/runs/:id': MANAGE_RUN,
  'POST /api/v1/runs/:id/share-links': MANAGE_RUN,
  'GET /api/v1/runs/:id/share-links': READ_OBJECT,
  'DELETE /api/v1/share-links/:id': MANAGE_RUN,
  // the pages of the members
  'GET /runs/:id/certification': READ_OBJECT,
  'POST /runs/:id/certification/submit': MANAGE_RUN,
  'POST /runs/:id/certification/share': MANAGE_RUN,
  'POST /share-links/:id/revoke': MANAGE_RUN,
  'GET /certification': SIGNED_IN,
  'GET /submissions/:id/review': READ_OBJECT,
  'POST /submissions/:id/review': REVIEW,
  'GET /submissions/:id/run': READ_OBJECT,
  'GET /submissions/:id/run/rules/:rule': READ_OBJECT,
  'GET /submissions/:id/run/files/:path{.+}': READ_OBJECT,
  // no account needed: the certified implementations, a certified run's report, the badges, a share link
  'GET /certified/implementations': EVERYONE,
  'GET /certified/runs/:id': EVERYONE,
  'GET /certified/runs/:id/rules/:rule': EVERYONE,
  'GET /certified/runs/:id/files/:path{.+}': EVERYONE,
  'GET /badges/:org/:badge': EVERYONE,
  'GET /s/:token': EVERYONE,
  'GET /s/:token/rules/:rule': EVERYONE,
  'GET /s/:token/files/:path{.+}': EVERYONE,
};

/** `METHOD path` as the router lists it -> the classes of CALLERS, in order. */
export const AUTHORIZATION_MATRIX: Readonly<Record<string, string>> = {
  // the API: the session and what org admins manage
  'POST /api/v1/session': EVERYONE,
  'GET /api/v1/session': PERSON_ONLY,
  'DELETE /api/v1/session': PERSON_ONLY,
  'POST /api/v1/session/everywhere': PERSON_ONLY,
  'GET /api/v1/organisations': PERSON_ONLY,
  'POST /api/v1/organisations': HUB_ADMIN,
  'PATCH /api/v1/organisations/:org': HUB_ADMIN,
  'GET /api/v1/organisations/:org/members': ORG_ADMIN,
  'POST /api/v1/organisations/:org/members': ORG_ADMIN,
  'PUT /api/v1/organisations/:org/members/:user': ORG_ADMIN,
  'DELETE /api/v1/organisations/:org/members/:user': ORG_ADMIN,
  'GET /api/v1/organisations/:org/tokens': ORG_ADMIN,
  'POST /api/v1/organisations/:org/tokens': ORG_ADMIN,
  'DELETE /api/v1/organisations/:org/tokens/:token': ORG_ADMIN,
  'GET /api/v1/organisations/:org/audit': ORG_ADMIN,
  'GET /api/v1/audit': HUB_ADMIN,
  // the API: runs, targets, keys
  'POST /api/v1/runs': PUBLISH,
  'GET /api/v1/runs/:id': READ_OBJECT,
  'GET /api/v1/runs/:id/rules/:rule': READ_OBJECT,
  'GET /api/v1/runs/:id/files': READ_OBJECT,
  'GET /api/v1/runs/:id/files/:path{.+}': READ_OBJECT,
  'GET /api/v1/targets': SIGNED_IN,
  'GET /api/v1/targets/:id/runs': READ_OBJECT,
  'GET /api/v1/targets/:id/load-trends': READ_OBJECT,
  'GET /api/v1/compare': READ_OBJECT,
  'GET /api/v1/matrix': READ_OBJECT,
  'GET /api/v1/keys': SIGNED_IN,
  'POST /api/v1/keys': REGISTER_KEY,
  // the API: live runs
  'GET /api/v1/saved-targets': SIGNED_IN,
  'POST /api/v1/saved-targets': NEW_TARGET,
  'GET /api/v1/saved-targets/:id': READ_OBJECT,
  'PUT /api/v1/saved-targets/:id': CHANGE_TARGET,
  'DELETE /api/v1/saved-targets/:id': CHANGE_TARGET,
  'POST /api/v1/saved-targets/:id/live-runs': RUN,
  'GET /api/v1/live-runs': SIGNED_IN,
  'GET /api/v1/live-runs/:id': READ_OBJECT,
  'POST /api/v1/live-runs/:id/cancel': RUN,
  'GET /api/v1/live-runs/:id/events': READ_OBJECT,
  'POST /api/v1/runs/:id/rerun': RUN,
  // the pages
  'GET /assets/hub.css': EVERYONE,
  'GET /assets/live-run.js': EVERYONE,
  'GET /sign-in': EVERYONE,
  'GET /auth/oidc': EVERYONE,
  'GET /auth/oidc/start': EVERYONE,
  'GET /auth/oidc/callback': REFUSED_ALIKE,
  'POST /sign-in': EVERYONE,
  'GET /sign-in/link': EVERYONE,
  'POST /sign-in/link': EVERYONE,
  'POST /sign-out': PERSON_ONLY,
  'POST /sign-out-everywhere': PERSON_ONLY,
  'GET /account': PERSON_ONLY,
  'POST /account/password': PERSON_ONLY,
  'GET /organisations': PERSON_ONLY,
  'POST /organisations': HUB_ADMIN,
  'POST /organisations/:org/certifying-body': HUB_ADMIN,
  'GET /organisations/:org': ORG_ADMIN,
  'POST /organisations/:org/members': ORG_ADMIN,
  'POST /organisations/:org/members/:user': ORG_ADMIN,
  'POST /organisations/:org/members/:user/remove': ORG_ADMIN,
  'POST /organisations/:org/tokens': ORG_ADMIN,
  'POST /organisations/:org/tokens/:token/revoke': ORG_ADMIN,
  'GET /organisations/:org/audit': ORG_ADMIN,
  'GET /audit': HUB_ADMIN,
  'GET /': SIGNED_IN,
  'GET /targets/:id': READ_OBJECT,
  'GET /targets/:id/trends': READ_OBJECT,
  'GET /runs/:id': READ_OBJECT,
  'GET /runs/:id/rules/:rule': READ_OBJECT,
  'GET /live-runs/:id': READ_OBJECT,
  'POST /live-runs/:id/cancel': RUN,
  'POST /runs/:id/rerun': RUN,
  'GET /saved-targets': SIGNED_IN,
  'POST /saved-targets': NEW_TARGET,
  'GET /saved-targets/:id': READ_OBJECT,
  'POST /saved-targets/:id': CHANGE_TARGET,
  'POST /saved-targets/:id/delete': CHANGE_TARGET,
  'POST /saved-targets/:id/conform': RUN,
  'POST /saved-targets/:id/load': RUN,
  'GET /compare': READ_OBJECT,
  'GET /matrix': READ_OBJECT,
  'GET /upload': SIGNED_IN,
  'POST /upload': PUBLISH,
  // certification's routes, in their own block above
  ...CERTIFICATION_ROWS,
};

/** Certification's rows (a part of {@link AUTHORIZATION_MATRIX}). */
export const CERTIFICATION_ROUTES: readonly string[] = Object.keys(CERTIFICATION_ROWS);

/** The expected class of `caller` on `route`. */
export function expectedClass(route: string, caller: Caller): AnswerClass | undefined {
  const row = AUTHORIZATION_MATRIX[route];
  return row?.[CALLERS.indexOf(caller)] as AnswerClass | undefined;
}
