/**
 * The hub's HTTP API under /api/v1 (described by hub.openapi.yaml), as a Hono app: tested in-process with
 * `app.request(...)`, served by @hono/node-server (server.ts). The browser pages (src/pages) mount beside it.
 * Every request is authenticated first (an API token, else the session cookie, else nobody: src/auth); every
 * state-changing request that came by cookie passes the one CSRF check (auth/csrf.ts).
 */
import { Hono } from 'hono';
import { authRoutes } from '../auth/auth-routes.js';
import { csrfRefusal } from '../auth/csrf.js';
import { type AuthOptions, type HubAuth, hubAuth } from '../auth/hub-auth.js';
import { authenticate } from '../auth/request-auth.js';
import { DEFAULT_LIMITS, type IngestLimits } from '../ingest/limits.js';
import { JobQueue } from '../live/job-queue.js';
import { liveRoutes } from '../live/live-routes.js';
import { SavedTargets } from '../live/saved-targets.js';
import { SecretBox } from '../live/secret-box.js';
import { LIVE_SCRIPT, LIVE_SCRIPT_PATH } from '../pages/live-run.js';
import { pageRoutes } from '../pages/page-routes.js';
import type { HubStore } from '../store/hub-store.js';
import { ApiError, errorResponse } from './api-error.js';
import { compareRoutes } from './compare-routes.js';
import { keyRoutes } from './key-routes.js';
import { runRoutes } from './run-routes.js';
import { targetRoutes } from './target-routes.js';

export const API_BASE = '/api/v1';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface HubAppOptions {
  readonly store: HubStore;
  /** Accounts, sessions, tokens and the audit log; made from `authOptions` when not given. */
  readonly auth?: HubAuth;
  readonly authOptions?: AuthOptions;
  readonly limits?: IngestLimits;
  /** Where unexpected errors are written (never a token). */
  readonly log?: (line: string) => void;
  /** ERPCERT_HUB_SECRET: the key of saved credentials; without it, no password is saved. */
  readonly secret?: string;
  /** Live runs: the queue and saved targets (startHub shares them with its worker pool). */
  readonly live?: {
    readonly queue: JobQueue;
    readonly targets: SavedTargets;
    readonly queued?: () => void;
    readonly eventsPollMs?: number;
  };
}

/** The queue and saved targets of a store, with the credentials' key from `secret`. */
export function liveParts(store: HubStore, secret: string | undefined): { queue: JobQueue; targets: SavedTargets } {
  return {
    queue: new JobQueue(store.db, store.dialect),
    targets: new SavedTargets(store.db, secret ? new SecretBox(secret) : undefined),
  };
}

export function createHubApp(o: HubAppOptions): Hono {
  const log = o.log ?? ((line: string) => console.error(line));
  const auth = o.auth ?? hubAuth(o.store.db, o.authOptions);
  const api = new Hono();
  // a request by cookie that changes something carries the session's CSRF token (header X-CSRF-Token)
  api.use('*', async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method)) {
      const refused = csrfRefusal(c);
      if (refused) throw new ApiError(403, refused);
    }
    await next();
  });
  api.route('/', authRoutes(auth));
  api.route('/', runRoutes(o.store, o.limits ?? DEFAULT_LIMITS, auth.audit, auth.trustProxy));
  api.route('/', targetRoutes(o.store));
  api.route('/', compareRoutes(o.store));
  api.route('/', keyRoutes(o.store, auth.audit, auth.trustProxy));
  const live = o.live ?? liveParts(o.store, o.secret);
  api.route('/', liveRoutes({ store: o.store, audit: auth.audit, trustProxy: auth.trustProxy, ...live }));
  const app = new Hono();
  app.use('*', authenticate(auth));
  // the live section's script: external, so that the pages' CSP needs no inline script
  app.get(LIVE_SCRIPT_PATH, (c) => {
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'no-cache');
    return c.body(LIVE_SCRIPT);
  });
  app.route(API_BASE, api);
  app.route('/', pageRoutes({ store: o.store, auth, limits: o.limits, log, queue: live.queue }));
  app.notFound((c) => errorResponse(new ApiError(404, `no such resource: ${c.req.method} ${c.req.path}`), c, log));
  app.onError((err, c) => errorResponse(err, c, log));
  return app;
}
