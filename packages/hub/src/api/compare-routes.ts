/**
 * Comparing runs: two runs by `report diff`'s semantics (@erpcert/runs, the same code as the CLI), and the matrix
 * of rules (grouped by area) x the last N conformance runs of a target, or x the targets at one erpcert version.
 */
import { Hono } from 'hono';
import { readable } from '../auth/request-auth.js';
import type { HubStore } from '../store/hub-store.js';
import type { RunSummary } from '../store/run-summary.js';
import { ApiError, intParam } from './api-error.js';
import { RunDocuments } from './run-documents.js';
import { compareRuns, ruleMatrix } from './run-views.js';
import { readableTarget } from './target-routes.js';

const MAX_COLUMNS = 100;

export function compareRoutes(store: HubStore): Hono {
  const docs = new RunDocuments(store);
  const app = new Hono();

  app.get('/compare', async (c) =>
    c.json(
      await compareRuns(
        docs,
        intParam(c.req.query('a'), 'a (the older run)'),
        intParam(c.req.query('b'), 'b (the newer run)'),
        c,
      ),
    ),
  );

  app.get('/matrix', async (c) => {
    const version = c.req.query('version');
    const targetParam = c.req.query('target');
    let columns: RunSummary[];
    if (version !== undefined && targetParam === undefined)
      columns = await store.latestRunsAtVersion(version, readable(c));
    else if (targetParam !== undefined && version === undefined) {
      const targetId = (await readableTarget(store, targetParam, c)).id;
      const last = intParam(c.req.query('last'), 'last', 20);
      if (last > MAX_COLUMNS) throw new ApiError(400, `last must be at most ${MAX_COLUMNS}`);
      columns = await store.targetRuns(targetId, { kind: 'conformance', limit: last });
    } else throw new ApiError(400, 'give either target (with last) or version');
    return c.json(await ruleMatrix(store, columns));
  });

  return app;
}
