/**
 * The hub's HTTP API under /api/v1 (described by specs/hub.openapi.yaml), as a Hono app: tested in-process with
 * `app.request(...)`, served by @hono/node-server (server.ts). The browser pages (src/pages) mount beside it.
 */
import { Hono } from 'hono';
import { mountCertification } from '../certification/mount.js';
import { type CertificationServices, certificationServices } from '../certification/services.js';
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

export interface HubAppOptions {
  readonly store: HubStore;
  /** The token that may publish (ERPCERT_HUB_TOKEN); without one, writing is refused. */
  readonly token?: string;
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
  /** Certification (issue 26): submissions, frozen runs, the public page and badges, share links. */
  readonly certification?: CertificationServices;
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
  const api = new Hono();
  api.route('/', runRoutes(o.store, o.token, o.limits ?? DEFAULT_LIMITS));
  api.route('/', targetRoutes(o.store));
  api.route('/', compareRoutes(o.store));
  api.route('/', keyRoutes(o.store, o.token));
  const live = o.live ?? liveParts(o.store, o.secret);
  api.route('/', liveRoutes({ store: o.store, token: o.token, ...live }));
  const app = new Hono();
  // the live section's script: external, so that the pages' CSP needs no inline script
  app.get(LIVE_SCRIPT_PATH, (c) => {
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'no-cache');
    return c.body(LIVE_SCRIPT);
  });
  // certification: its API and pages, before the pages' last route (the catch-all 404)
  mountCertification(app, o.certification ?? certificationServices(o.store), { log });
  app.route(API_BASE, api);
  app.route('/', pageRoutes({ store: o.store, token: o.token, limits: o.limits, log, queue: live.queue }));
  app.notFound((c) => errorResponse(new ApiError(404, `no such resource: ${c.req.method} ${c.req.path}`), c, log));
  app.onError((err, c) => errorResponse(err, c, log));
  return app;
}
