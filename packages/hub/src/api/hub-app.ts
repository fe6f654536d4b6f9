/**
 * The hub's HTTP API under /api/v1 (described by specs/hub.openapi.yaml), as a Hono app: tested in-process with
 * `app.request(...)`, served by @hono/node-server (server.ts). The browser pages (src/pages) mount beside it.
 */
import { Hono } from 'hono';
import { DEFAULT_LIMITS, type IngestLimits } from '../ingest/limits.js';
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
}

export function createHubApp(o: HubAppOptions): Hono {
  const log = o.log ?? ((line: string) => console.error(line));
  const api = new Hono();
  api.route('/', runRoutes(o.store, o.token, o.limits ?? DEFAULT_LIMITS));
  api.route('/', targetRoutes(o.store));
  api.route('/', compareRoutes(o.store));
  api.route('/', keyRoutes(o.store, o.token));
  const app = new Hono();
  app.route(API_BASE, api);
  app.route('/', pageRoutes({ store: o.store, token: o.token, limits: o.limits, log }));
  app.notFound((c) => errorResponse(new ApiError(404, `no such resource: ${c.req.method} ${c.req.path}`), c, log));
  app.onError((err, c) => errorResponse(err, c, log));
  return app;
}
