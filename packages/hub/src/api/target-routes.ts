/** Targets: the list with latest verdict counts and recent runs, a target's history, its load trends. */
import { Hono } from 'hono';
import type { HubStore, RunFilter } from '../store/hub-store.js';
import { ApiError, intParam } from './api-error.js';

const KINDS = new Set(['conformance', 'load']);

export function targetRoutes(store: HubStore): Hono {
  const app = new Hono();

  const targetOr404 = async (raw: string | undefined) => {
    const id = intParam(raw, 'the target id');
    const target = await store.target(id);
    if (!target) throw new ApiError(404, `there is no target ${id}`);
    return target;
  };

  app.get('/targets', async (c) => c.json({ targets: await store.targets() }));

  app.get('/targets/:id/runs', async (c) => {
    const target = await targetOr404(c.req.param('id'));
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
    const target = await targetOr404(c.req.param('id'));
    const { runs, figures } = await store.loadFigures(target.id);
    const scenarios = new Map<string, ReturnType<typeof scenario>>();
    function scenario(f: (typeof figures)[number]) {
      return {
        scenario: f.scenario,
        documented: f.documented,
        documentedRate:
          f.documented_rate_min === null && f.documented_rate_max === null
            ? null
            : { min: f.documented_rate_min, max: f.documented_rate_max },
        points: [] as unknown[],
      };
    }
    const byRun = new Map(runs.map((r) => [r.id, r]));
    for (const r of runs)
      for (const f of figures.filter((x) => Number(x.run_id) === r.id)) {
        const s = scenarios.get(f.scenario) ?? scenario(f);
        scenarios.set(f.scenario, s);
        const run = byRun.get(r.id);
        s.points.push({
          run: r.id,
          build: run?.build ?? null,
          label: run?.label ?? null,
          startedAt: run?.startedAt,
          engine: run?.profile,
          throughput: f.throughput,
          p50Ms: f.p50_ms,
          p90Ms: f.p90_ms,
          p99Ms: f.p99_ms,
          readSeconds: f.read_seconds,
          knee: f.knee,
          limitedBy: f.limiter,
          verdict: f.verdict,
        });
      }
    return c.json({
      target,
      runs: runs.length,
      scenarios: [...scenarios.values()].sort((a, b) => a.scenario.localeCompare(b.scenario)),
    });
  });

  return app;
}
