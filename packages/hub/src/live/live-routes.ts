/**
 * Live runs in the API: saved targets (save, update, delete; the password answered only as "set"), starting a
 * conform or load run against one, a live run's state, cancel, rerun (one rule, one area, every FAIL), and its
 * progress as server-sent events (replayed from the database, then followed until the run ends).
 */
import { type Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { ApiError, intParam } from '../api/api-error.js';
import type { AuditAction, AuditDetail, AuditLog } from '../auth/audit-log.js';
import type { Action } from '../auth/permissions.js';
import { actorOf, allow, clientAddress, organisationFor, readable } from '../auth/request-auth.js';
import type { HubStore } from '../store/hub-store.js';
import { ENDED, type Job, type JobQueue, type RunSettings } from './job-queue.js';
import type { SavedTargetInput, SavedTargets } from './saved-targets.js';

export const PROFILES = ['gate', 'full', 'strict'];
export const ENGINES = ['autocannon', 'k6'];
export const MAX_LOAD_SECONDS = 600;
const GLOB = /^[A-Za-z0-9_.*-]{1,120}$/;

export interface LiveRoutesOptions {
  readonly store: HubStore;
  readonly queue: JobQueue;
  readonly targets: SavedTargets;
  readonly audit: AuditLog;
  readonly trustProxy: boolean;
  /** Called after a run is queued (the local pool looks for work at once). */
  readonly queued?: () => void;
  /** How often the events stream looks for new events. */
  readonly eventsPollMs?: number;
}

async function body(c: { req: { json(): Promise<unknown> } }): Promise<Record<string, unknown>> {
  let b: unknown;
  try {
    b = await c.req.json();
  } catch {
    throw new ApiError(400, 'the body must be a JSON object');
  }
  if (typeof b !== 'object' || b === null || Array.isArray(b))
    throw new ApiError(400, 'the body must be a JSON object');
  return b as Record<string, unknown>;
}

/** A start request's settings, checked. */
export function runSettings(b: Record<string, unknown>): RunSettings {
  if (b.kind === 'conformance') {
    const profile = b.profile ?? 'gate';
    if (typeof profile !== 'string' || !PROFILES.includes(profile))
      throw new ApiError(400, `profile must be one of ${PROFILES.join(', ')}`);
    const only = b.only ?? [];
    if (!Array.isArray(only) || only.length > 500 || !only.every((g) => typeof g === 'string' && GLOB.test(g)))
      throw new ApiError(400, 'only must be a list of rule ids or globs (letters, digits, . _ - *), at most 500');
    return { kind: 'conformance', profile, only: only as string[] };
  }
  if (b.kind === 'load') {
    if (typeof b.scenario !== 'string' || !/^[a-z0-9-]{1,80}$/.test(b.scenario))
      throw new ApiError(400, 'scenario is required: the name of a load scenario (erpcert load --list)');
    const engine = b.engine ?? 'autocannon';
    if (typeof engine !== 'string' || !ENGINES.includes(engine))
      throw new ApiError(400, `engine must be one of ${ENGINES.join(', ')}`);
    const d = b.durationSeconds ?? 30;
    if (!Number.isInteger(d) || (d as number) < 1 || (d as number) > MAX_LOAD_SECONDS)
      throw new ApiError(400, `durationSeconds must be a whole number from 1 to ${MAX_LOAD_SECONDS}`);
    return { kind: 'load', scenario: b.scenario, engine: engine as 'autocannon' | 'k6', durationSeconds: d as number };
  }
  throw new ApiError(400, 'kind must be conformance or load');
}

export function liveRoutes(o: LiveRoutesOptions): Hono {
  const { queue, targets, store } = o;
  const app = new Hono();

  /** A live run the actor may do `action` on, or 404 (missing, another organisation's) / 403. */
  const jobOr404 = async (raw: string | undefined, c: Context, action: Action = 'read'): Promise<Job> => {
    const id = intParam(raw, 'the live run id');
    const j = await queue.get(id);
    if (!j) throw new ApiError(404, `there is no live run ${id}`);
    allow(c, action, j.organisationId, `live run ${id}`);
    return j;
  };
  const savedOr404 = async (raw: string | undefined, c: Context, action: Action = 'read') => {
    const id = intParam(raw, 'the target id');
    const t = await targets.get(id);
    if (!t) throw new ApiError(404, `there is no saved target ${id}`);
    allow(c, action, t.organisationId, `saved target ${id}`);
    return t;
  };
  const record = (c: Context, organisationId: number, action: AuditAction, subject: string, detail?: AuditDetail) =>
    o.audit.record({
      actor: actorOf(c),
      organisationId,
      action,
      subject,
      detail,
      address: clientAddress(c, o.trustProxy),
    });
  const answer = async (j: Job) => ({ ...j, judged: await queue.judged(j.id) });
  const start = async (targetId: number, settings: RunSettings, parentRunId: number | null) => {
    await targets.getOrThrow(targetId);
    const j = await queue.enqueue(targetId, settings, parentRunId);
    o.queued?.();
    return answer(j);
  };

  app.get('/saved-targets', async (c) => c.json({ targets: await targets.list(readable(c)) }));
  app.post('/saved-targets', async (c) => {
    const organisationId = organisationFor(c, 'save-target', c.req.query('organisation'));
    const t = await targets.save((await body(c)) as SavedTargetInput, organisationId);
    await record(c, organisationId, 'save-target', `target ${t.id}`, { url: t.url, name: t.name });
    c.header('Location', `/api/v1/saved-targets/${t.id}`);
    return c.json(t, 201);
  });
  app.get('/saved-targets/:id', async (c) => c.json(await savedOr404(c.req.param('id'), c)));
  app.put('/saved-targets/:id', async (c) => {
    const t = await savedOr404(c.req.param('id'), c, 'save-target');
    const input = (await body(c)) as SavedTargetInput;
    const updated = await targets.update(t.id, input);
    await record(c, t.organisationId, 'update-target', `target ${t.id}`, {
      url: updated.url,
      changed: Object.keys(input).sort(),
    });
    return c.json(updated);
  });
  app.delete('/saved-targets/:id', async (c) => {
    const t = await savedOr404(c.req.param('id'), c, 'save-target');
    await targets.remove(t.id);
    await record(c, t.organisationId, 'delete-target', `target ${t.id}`, { url: t.url });
    return c.body(null, 204);
  });

  app.post('/saved-targets/:id/live-runs', async (c) => {
    const t = await savedOr404(c.req.param('id'), c, 'run');
    const j = await start(t.id, runSettings(await body(c)), null);
    await record(c, t.organisationId, 'start-run', `live run ${j.id}`, { target: t.id, kind: j.kind });
    c.header('Location', `/api/v1/live-runs/${j.id}`);
    return c.json(j, 202);
  });

  app.get('/live-runs', async (c) => {
    const t = c.req.query('target');
    const jobs = await queue.list(readable(c), { targetId: t === undefined ? undefined : intParam(t, 'target') });
    return c.json({ liveRuns: await Promise.all(jobs.map(answer)) });
  });
  app.get('/live-runs/:id', async (c) => c.json(await answer(await jobOr404(c.req.param('id'), c))));
  app.post('/live-runs/:id/cancel', async (c) => {
    const j = await jobOr404(c.req.param('id'), c, 'run');
    const r = await queue.requestCancel(j.id);
    if (r === 'ended') throw new ApiError(409, `live run ${j.id} has ended (${j.state}): there is nothing to cancel`);
    await record(c, j.organisationId, 'cancel-run', `live run ${j.id}`);
    return c.json(await answer((await queue.get(j.id)) ?? j), 202);
  });

  app.post('/runs/:id/rerun', async (c) => {
    const runId = intParam(c.req.param('id'), 'the run id');
    const run = await store.run(runId);
    if (!run) throw new ApiError(404, `there is no run ${runId}`);
    allow(c, 'run', run.organisationId, `run ${runId}`);
    if (run.kind !== 'conformance')
      throw new ApiError(400, `run ${runId} is a load run: only conformance rules are rerun`);
    const b = await body(c);
    const row = await store.db.selectFrom('runs').select('target_id').where('id', '=', runId).executeTakeFirstOrThrow();
    const targetId = Number(row.target_id);
    if (!(await targets.get(targetId)))
      throw new ApiError(
        409,
        `run ${runId}'s target is not saved in the hub: save it (POST /api/v1/saved-targets) to rerun`,
      );
    const from = await store.db.selectFrom('jobs').select('settings').where('run_id', '=', runId).executeTakeFirst();
    const profile = from ? (JSON.parse(from.settings) as RunSettings & { profile?: string }).profile : run.profile;
    let only: string[];
    if (typeof b.rule === 'string' && GLOB.test(b.rule) && !b.rule.includes('*')) only = [b.rule];
    else if (typeof b.area === 'string' && /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)?$/.test(b.area)) only = [`${b.area}.*`];
    else if (b.fails === true) {
      const rows = await store.db
        .selectFrom('rule_verdicts')
        .select('rule_id')
        .where('run_id', '=', runId)
        .where('verdict', '=', 'FAIL')
        .orderBy('rule_id')
        .execute();
      only = rows.map((r) => r.rule_id);
      if (only.length === 0) throw new ApiError(409, `run ${runId} has no FAIL to rerun`);
    } else
      throw new ApiError(400, 'say what to rerun: { "rule": "REST.X.Y" }, { "area": "REST.X" } or { "fails": true }');
    const j = await start(
      targetId,
      { kind: 'conformance', profile: PROFILES.includes(profile ?? '') ? (profile as string) : 'gate', only },
      runId,
    );
    await record(c, run.organisationId, 'rerun', `live run ${j.id}`, { run: runId, only });
    c.header('Location', `/api/v1/live-runs/${j.id}`);
    return c.json(j, 202);
  });

  app.get('/live-runs/:id/events', async (c) => {
    const j = await jobOr404(c.req.param('id'), c);
    const last = Number(c.req.header('last-event-id') ?? '0');
    let after = Number.isInteger(last) && last > 0 ? last : 0;
    return streamSSE(c, async (s) => {
      for (;;) {
        for (const e of await queue.events(j.id, after)) {
          await s.writeSSE({ id: String(e.seq), event: e.event.type, data: JSON.stringify({ ...e.event, at: e.at }) });
          after = e.seq;
        }
        const now = await queue.get(j.id);
        if (!now || ENDED.has(now.state)) {
          // events written just before the end
          for (const e of await queue.events(j.id, after))
            await s.writeSSE({
              id: String(e.seq),
              event: e.event.type,
              data: JSON.stringify({ ...e.event, at: e.at }),
            });
          await s.writeSSE({
            event: 'end',
            data: JSON.stringify({ state: now?.state, runId: now?.runId, message: now?.message }),
          });
          return;
        }
        if (s.aborted) return;
        await s.sleep(o.eventsPollMs ?? 500);
      }
    });
  });

  return app;
}
