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
    const last = intParam(c.req.query('last'), 'last', 20);
    if (last > MAX_COLUMNS) throw new ApiError(400, `last must be at most ${MAX_COLUMNS}`);
    // version alone: every readable target's newest run at it; a target (or, without either, the newest readable
    // run's target): its last runs, at the version when one is given
    if (version !== undefined && targetParam === undefined)
      return c.json(await ruleMatrix(store, await store.latestRunsAtVersion(version, readable(c))));
    const targetId =
      targetParam === undefined
        ? await store.newestConformanceTarget(readable(c))
        : (await readableTarget(store, targetParam, c)).id;
    if (targetId === undefined) return c.json(await ruleMatrix(store, []));
    const columns: RunSummary[] = await store.targetRuns(targetId, { kind: 'conformance', version, limit: last });
    return c.json(await ruleMatrix(store, columns));
  });

  return app;
}
