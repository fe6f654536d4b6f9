/** Targets: the list with latest verdict counts and recent runs, a target's history, its load trends. */
import { type Context, Hono } from 'hono';
import { allow, readable } from '../auth/request-auth.js';
import type { HubStore, RunFilter } from '../store/hub-store.js';
import { ApiError, intParam } from './api-error.js';
import { loadTrends } from './run-views.js';

const KINDS = new Set(['conformance', 'load']);

/** A target the request's actor may read, or a 404 (missing, or another organisation's). */
export async function readableTarget(store: HubStore, raw: string | undefined, c: Context) {
  const id = intParam(raw, 'the target id');
  const target = await store.target(id);
  if (!target) throw new ApiError(404, `there is no target ${id}`);
  allow(c, 'read', target.organisationId, `target ${id}`);
  return target;
}

export function targetRoutes(store: HubStore): Hono {
  const app = new Hono();

  app.get('/targets', async (c) => c.json({ targets: await store.targets(readable(c)) }));

  app.get('/targets/:id/runs', async (c) => {
    const target = await readableTarget(store, c.req.param('id'), c);
    const kind = c.req.query('kind');
    if (kind !== undefined && !KINDS.has(kind))
      throw new ApiError(400, `kind must be conformance or load, not ${JSON.stringify(kind)}`);
    const limit = intParam(c.req.query('limit'), 'limit', 50);
    if (limit > 500) throw new ApiError(400, 'limit must be at most 500');
    const before = c.req.query('before');
    const filter: RunFilter = {
      kind: kind as RunFilter['kind'],
      profile: c.req.query('profile') || undefined,
      build: c.req.query('build') || undefined,
      label: c.req.query('label') || undefined,
      limit,
      before: before === undefined ? undefined : intParam(before, 'before'),
    };
    return c.json({ target, runs: await store.targetRuns(target.id, filter) });
  });

  app.get('/targets/:id/load-trends', async (c) => {
    const target = await readableTarget(store, c.req.param('id'), c);
    return c.json({ target, ...(await loadTrends(store, target.id)) });
  });

  return app;
}
