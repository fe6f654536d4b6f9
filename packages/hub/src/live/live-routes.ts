/**
 * Live runs in the API: saved targets (save, update, delete; the password answered only as "set"), starting a
 * conform or load run against one, a live run's state, cancel, rerun (one rule, one area, every FAIL), and its
 * progress as server-sent events (replayed from the database, then followed until the run ends).
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { ApiError, intParam } from '../api/api-error.js';
import { requireToken } from '../api/bearer-token.js';
import type { HubStore } from '../store/hub-store.js';
import { ENDED, type Job, type JobQueue } from './job-queue.js';
import { LiveActions, runSettings } from './live-actions.js';
import type { SavedTargetInput, SavedTargets } from './saved-targets.js';

export interface LiveRoutesOptions {
  readonly store: HubStore;
  readonly queue: JobQueue;
  readonly targets: SavedTargets;
  readonly token: string | undefined;
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

export function liveRoutes(o: LiveRoutesOptions): Hono {
  const { queue, targets } = o;
  const app = new Hono();
  const write = requireToken(o.token);

  const jobOr404 = async (raw: string | undefined): Promise<Job> => {
    const id = intParam(raw, 'the live run id');
    const j = await queue.get(id);
    if (!j) throw new ApiError(404, `there is no live run ${id}`);
    return j;
  };
  const answer = async (j: Job) => ({ ...j, judged: await queue.judged(j.id) });
  const actions = new LiveActions(o);

  app.get('/saved-targets', async (c) => c.json({ targets: await targets.list() }));
  app.post('/saved-targets', write, async (c) => {
    const t = await targets.save((await body(c)) as SavedTargetInput);
    c.header('Location', `/api/v1/saved-targets/${t.id}`);
    return c.json(t, 201);
  });
  app.get('/saved-targets/:id', async (c) =>
    c.json(await targets.getOrThrow(intParam(c.req.param('id'), 'the target id'))),
  );
  app.put('/saved-targets/:id', write, async (c) =>
    c.json(await targets.update(intParam(c.req.param('id'), 'the target id'), (await body(c)) as SavedTargetInput)),
  );
  app.delete('/saved-targets/:id', write, async (c) => {
    await targets.remove(intParam(c.req.param('id'), 'the target id'));
    return c.body(null, 204);
  });

  app.post('/saved-targets/:id/live-runs', write, async (c) => {
    const id = intParam(c.req.param('id'), 'the target id');
    const j = await answer(await actions.start(id, runSettings(await body(c))));
    c.header('Location', `/api/v1/live-runs/${j.id}`);
    return c.json(j, 202);
  });

  app.get('/live-runs', async (c) => {
    const t = c.req.query('target');
    const jobs = await queue.list({ targetId: t === undefined ? undefined : intParam(t, 'target') });
    return c.json({ liveRuns: await Promise.all(jobs.map(answer)) });
  });
  app.get('/live-runs/:id', async (c) => c.json(await answer(await jobOr404(c.req.param('id')))));
  app.post('/live-runs/:id/cancel', write, async (c) =>
    c.json(await answer(await actions.cancel(intParam(c.req.param('id'), 'the live run id'))), 202),
  );

  app.post('/runs/:id/rerun', write, async (c) => {
    const runId = intParam(c.req.param('id'), 'the run id');
    const why = await actions.whyNoRerun(runId);
    // the run's own refusals (404, a load run) before the body's
    if (why && why.status !== 409) throw new ApiError(why.status, why.message);
    const j = await answer(await actions.rerun(runId, await body(c)));
    c.header('Location', `/api/v1/live-runs/${j.id}`);
    return c.json(j, 202);
  });

  app.get('/live-runs/:id/events', async (c) => {
    const j = await jobOr404(c.req.param('id'));
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
