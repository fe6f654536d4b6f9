/**
 * Live runs in the API: saved targets (save, update, delete; the password answered only as "set"), starting a
 * conform or load run against one, a live run's state, cancel, rerun (one rule, one area, every FAIL), and its
 * progress as server-sent events (replayed from the database, then followed until the run ends).
 */
import { type Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { ApiError, intParam } from '../api/api-error.js';
import { jsonBody } from '../api/json-body.js';
import type { AuditAction, AuditDetail, AuditLog } from '../auth/audit-log.js';
import type { Action } from '../auth/permissions.js';
import { actorOf, allow, clientAddress, organisationFor, readable } from '../auth/request-auth.js';
import type { HubStore } from '../store/hub-store.js';
import { ENDED, type Job, type JobQueue } from './job-queue.js';
import { LiveActions, type LoadScenarioChoice } from './live-actions.js';
import type { SavedTargetInput, SavedTargets } from './saved-targets.js';

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
  /** The load scenarios a run may name (HubOptions.loadScenarios). */
  readonly loadScenarios?: readonly LoadScenarioChoice[];
}

export function liveRoutes(o: LiveRoutesOptions): Hono {
  const { queue, targets } = o;
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
  const actions = new LiveActions(o);

  app.get('/saved-targets', async (c) => c.json({ targets: await targets.list(readable(c)) }));
  app.post('/saved-targets', async (c) => {
    const organisationId = organisationFor(c, 'save-target', c.req.query('organisation'));
    const t = await targets.save((await jsonBody(c)) as SavedTargetInput, organisationId);
    await record(c, organisationId, 'save-target', `target ${t.id}`, { url: t.url, name: t.name });
    c.header('Location', `/api/v1/saved-targets/${t.id}`);
    return c.json(t, 201);
  });
  app.get('/saved-targets/:id', async (c) => c.json(await savedOr404(c.req.param('id'), c)));
  app.put('/saved-targets/:id', async (c) => {
    const t = await savedOr404(c.req.param('id'), c, 'save-target');
    const input = (await jsonBody(c)) as SavedTargetInput;
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
    const j = await answer(await actions.start(t.id, actions.settings(await jsonBody(c))));
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
    const cancelled = await actions.cancel(j.id);
    await record(c, j.organisationId, 'cancel-run', `live run ${j.id}`);
    return c.json(await answer(cancelled), 202);
  });

  app.post('/runs/:id/rerun', async (c) => {
    const runId = intParam(c.req.param('id'), 'the run id');
    const run = await o.store.run(runId);
    if (!run) throw new ApiError(404, `there is no run ${runId}`);
    allow(c, 'run', run.organisationId, `run ${runId}`);
    const why = await actions.whyNoRerun(runId);
    // the run's own refusals (404, a load run) before the body's
    if (why && why.status !== 409) throw new ApiError(why.status, why.message);
    const j = await answer(await actions.rerun(runId, await jsonBody(c)));
    await record(c, run.organisationId, 'rerun', `live run ${j.id}`, {
      run: runId,
      only: j.settings.kind === 'conformance' ? j.settings.only : [],
    });
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
