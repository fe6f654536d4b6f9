/**
 * Who may use each certification route, as data: {@link CERTIFICATION_ACCESS} names, for every route of
 * certification-api.ts and certification-pages.ts, what the request needs, and {@link guard} decides it through
 * auth/request-auth.ts `allow` (Actor, can): no account 401, another organisation 404, a role or token that may read
 * but not do it 403. A route registered without a row throws when the routes are built (and the test lists the
 * routes from the router). State-changing requests of a signed-in browser pass the one CSRF helper (auth/csrf.ts).
 */
import type { Context } from 'hono';
import { ApiError, intParam } from '../api/api-error.js';
import { csrfRefusal } from '../auth/csrf.js';
import type { Action } from '../auth/permissions.js';
import { can } from '../auth/permissions.js';
import { actorOf, allow } from '../auth/request-auth.js';
import type { HubStore } from '../store/hub-store.js';
import type { RunSummary } from '../store/run-summary.js';
import type { Certification, Submission } from './certification-store.js';
import type { ShareLink, ShareLinks } from './share-links.js';

export type Access =
  /** Anyone, no account needed (the public page, the badges, the certifying bodies). */
  | { readonly kind: 'public' }
  /** The holder of a share link's token, no account needed: that one run only. */
  | { readonly kind: 'share-token' }
  /** Anyone signed in; what it lists is filtered by `can` (its organisations, the bodies it certifies for). */
  | { readonly kind: 'signed-in' }
  /** `action` in the organisation of the run `:id`. */
  | { readonly kind: 'run'; readonly action: Action }
  /** The submission `:id`: read by the members of either side; `review`: the certifiers of its body. */
  | { readonly kind: 'submission'; readonly action: 'review' | 'read' }
  /** `action` in the organisation of the share link `:id`. */
  | { readonly kind: 'share-link'; readonly action: Action };

/** Delete, relabel, share, submit: a person's acts (engineer, admin), never a token's (auth/permissions.ts). */
const RUN_MANAGE: Access = { kind: 'run', action: 'manage-runs' };
const RUN_READ: Access = { kind: 'run', action: 'read' };

/** Every certification route: `METHOD path` (as registered) -> who may use it. */
export const CERTIFICATION_ACCESS: Readonly<Record<string, Access>> = {
  // API, under /api/v1
  'GET /certifying-bodies': { kind: 'public' },
  'GET /certified': { kind: 'public' },
  'POST /runs/:id/submissions': RUN_MANAGE,
  'GET /runs/:id/submissions': RUN_READ,
  'GET /submissions': { kind: 'signed-in' },
  'GET /submissions/:id': { kind: 'submission', action: 'read' },
  'POST /submissions/:id/decision': { kind: 'submission', action: 'review' },
  'DELETE /runs/:id': RUN_MANAGE,
  'PATCH /runs/:id': RUN_MANAGE,
  'POST /runs/:id/share-links': RUN_MANAGE,
  'GET /runs/:id/share-links': RUN_READ,
  'DELETE /share-links/:id': { kind: 'share-link', action: 'manage-runs' },
  // pages
  'GET /runs/:id/certification': RUN_READ,
  'POST /runs/:id/certification/submit': RUN_MANAGE,
  'POST /runs/:id/certification/share': RUN_MANAGE,
  'POST /share-links/:id/revoke': { kind: 'share-link', action: 'manage-runs' },
  'GET /submissions/:id/review': { kind: 'submission', action: 'read' },
  'GET /submissions/:id/run': { kind: 'submission', action: 'read' },
  'GET /submissions/:id/run/rules/:rule': { kind: 'submission', action: 'read' },
  'GET /submissions/:id/run/files/:path{.+}': { kind: 'submission', action: 'read' },
  'POST /submissions/:id/review': { kind: 'submission', action: 'review' },
  'GET /certification': { kind: 'signed-in' },
  'GET /certified/implementations': { kind: 'public' },
  'GET /certified/runs/:id': { kind: 'public' },
  'GET /certified/runs/:id/rules/:rule': { kind: 'public' },
  'GET /certified/runs/:id/files/:path{.+}': { kind: 'public' },
  'GET /badges/:org/:badge': { kind: 'public' },
  'GET /s/:token': { kind: 'share-token' },
  'GET /s/:token/rules/:rule': { kind: 'share-token' },
  'GET /s/:token/files/:path{.+}': { kind: 'share-token' },
};

export function accessOf(method: string, path: string): Access {
  const a = CERTIFICATION_ACCESS[`${method} ${path}`];
  if (!a) throw new Error(`no access row for ${method} ${path} in CERTIFICATION_ACCESS`);
  return a;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What a guard found: the run, submission or link the route is about. */
export interface Guarded {
  readonly run?: RunSummary;
  readonly submission?: Submission;
  readonly link?: ShareLink;
}

export interface GuardDeps {
  readonly store: HubStore;
  readonly certification: Certification;
  readonly shares: ShareLinks;
}

/**
 * Decides a request by its route's access row; returns what it is about. `formCsrf`: the form's token, for a page's
 * POST (an API call sends the X-CSRF-Token header).
 */
export async function guard(c: Context, d: GuardDeps, access: Access, formCsrf?: string): Promise<Guarded> {
  if (WRITES.has(c.req.method) && access.kind !== 'public' && access.kind !== 'share-token') {
    const refused = csrfRefusal(c, formCsrf);
    if (refused) throw new ApiError(403, refused);
  }
  switch (access.kind) {
    case 'public':
    case 'share-token':
      return {};
    case 'signed-in':
      if (actorOf(c).kind === 'anonymous') throw new ApiError(401, 'sign in first (or send an API token)');
      return {};
    case 'run': {
      const id = intParam(c.req.param('id'), 'the run id');
      const run = await d.store.run(id);
      if (!run) {
        if (actorOf(c).kind === 'anonymous') throw new ApiError(401, 'sign in first (or send an API token)');
        throw new ApiError(404, `there is no run ${id}`);
      }
      allow(c, access.action, run.organisationId, `run ${id}`);
      return { run };
    }
    case 'share-link': {
      const id = intParam(c.req.param('id'), 'the share link id');
      const link = await d.shares.get(id);
      if (!link) {
        if (actorOf(c).kind === 'anonymous') throw new ApiError(401, 'sign in first (or send an API token)');
        throw new ApiError(404, `there is no share link ${id}`);
      }
      allow(c, access.action, link.organisationId, `share link ${id}`);
      return { link };
    }
    case 'submission': {
      const actor = actorOf(c);
      if (actor.kind === 'anonymous') throw new ApiError(401, 'sign in first (or send an API token)');
      const id = intParam(c.req.param('id'), 'the submission id');
      const submission = await d.certification.submission(id);
      const reads =
        submission !== undefined &&
        (can(actor, 'read', submission.organisation.id) || can(actor, 'read', submission.certifier.id));
      if (!submission || !reads) throw new ApiError(404, `there is no submission ${id}`);
      if (access.action === 'review') allow(c, 'review', submission.certifier.id, `submission ${id}`);
      const run = await d.store.run(submission.runId);
      return { submission, run };
    }
  }
}
