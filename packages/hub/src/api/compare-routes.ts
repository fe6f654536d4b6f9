/**
 * Comparing runs: two runs by `report diff`'s semantics (@erpcert/runs, the same code as the CLI), and the matrix
 * of rules (grouped by area) x the last N conformance runs of a target, or x the targets at one erpcert version.
 */
import { diffConformance, diffLoad, ReportFolderError, reportRunFromDocument } from '@erpcert/runs';
import { Hono } from 'hono';
import type { HubStore } from '../store/hub-store.js';
import type { RunSummary } from '../store/run-summary.js';
import { ApiError, intParam } from './api-error.js';
import { RunDocuments } from './run-documents.js';

const MAX_COLUMNS = 100;

export function compareRoutes(store: HubStore): Hono {
  const docs = new RunDocuments(store);
  const app = new Hono();

  app.get('/compare', async (c) => {
    const a = await docs.run(intParam(c.req.query('a'), 'a (the older run)'));
    const b = await docs.run(intParam(c.req.query('b'), 'b (the newer run)'));
    if (a.kind !== b.kind)
      throw new ApiError(
        400,
        `run ${a.id} is a ${a.kind} run and run ${b.id} a ${b.kind} run: compare two of one kind`,
      );
    try {
      const ra = reportRunFromDocument((await docs.document(a)).doc, `run ${a.id}`);
      const rb = reportRunFromDocument((await docs.document(b)).doc, `run ${b.id}`);
      const diff =
        ra.kind === 'load' && rb.kind === 'load'
          ? diffLoad(ra.doc, rb.doc)
          : ra.kind === 'conformance' && rb.kind === 'conformance'
            ? diffConformance(ra, rb)
            : undefined;
      if (!diff) throw new ApiError(400, 'the two runs are of different kinds');
      return c.json({ a, b, diff });
    } catch (err) {
      if (err instanceof ReportFolderError) throw new ApiError(422, err.message);
      throw err;
    }
  });

  app.get('/matrix', async (c) => {
    const version = c.req.query('version');
    const targetParam = c.req.query('target');
    let columns: RunSummary[];
    if (version !== undefined && targetParam === undefined) columns = await store.latestRunsAtVersion(version);
    else if (targetParam !== undefined && version === undefined) {
      const targetId = intParam(targetParam, 'target');
      if (!(await store.target(targetId))) throw new ApiError(404, `there is no target ${targetId}`);
      const last = intParam(c.req.query('last'), 'last', 20);
      if (last > MAX_COLUMNS) throw new ApiError(400, `last must be at most ${MAX_COLUMNS}`);
      columns = await store.targetRuns(targetId, { kind: 'conformance', limit: last });
    } else throw new ApiError(400, 'give either target (with last) or version');
    const verdicts = await store.verdictsOf(columns.map((r) => r.id));
    const index = new Map(columns.map((r, i) => [r.id, i]));
    const rules = new Map<string, { area: string; verdicts: (string | null)[] }>();
    for (const v of verdicts) {
      const row = rules.get(v.rule) ?? { area: v.area, verdicts: columns.map(() => null) };
      rules.set(v.rule, row);
      row.verdicts[index.get(v.runId) ?? 0] = v.verdict;
    }
    const areas = new Map<string, { id: string; verdicts: (string | null)[] }[]>();
    for (const [id, row] of [...rules].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
      const list = areas.get(row.area) ?? [];
      areas.set(row.area, list);
      list.push({ id, verdicts: row.verdicts });
    }
    const targets = new Map<number, Awaited<ReturnType<HubStore['target']>>>();
    for (const r of columns) if (!targets.has(r.targetId)) targets.set(r.targetId, await store.target(r.targetId));
    return c.json({
      columns: columns.map((run) => ({ run, target: targets.get(run.targetId) ?? null })),
      areas: [...areas].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([area, list]) => ({ area, rules: list })),
    });
  });

  return app;
}
