/**
 * The pages that write live runs, as plain HTML forms (POST/redirect/GET, no JavaScript needed): save, edit and
 * delete a saved target; start a conformance or load run from its page; cancel a live run; rerun one rule, one area
 * or every FAIL of a stored run. Each POST goes through the pages' one write check (page-write.ts: the session's
 * CSRF token, the role in the object's organisation), then through the same code as the API (saved-targets.ts,
 * live-actions.ts): no second validator, and the same audit entries. Another organisation's targets, live runs and
 * runs are 404. A refusal shows the form again with its message and what was typed (never a password).
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError, intParam } from '../api/api-error.js';
import type { AuditAction, AuditDetail } from '../auth/audit-log.js';
import type { HubAuth } from '../auth/hub-auth.js';
import { type Action, organisationsWhere } from '../auth/permissions.js';
import { actorOf, allow, clientAddress, readable } from '../auth/request-auth.js';
import type { JobQueue } from '../live/job-queue.js';
import { LiveActions, type LoadScenarioChoice } from '../live/live-actions.js';
import { type SavedTarget, type SavedTargets, TargetInputError } from '../live/saved-targets.js';
import { SecretBoxError } from '../live/secret-box.js';
import type { HubStore } from '../store/hub-store.js';
import { type Html, href } from './html.js';
import { LIVE_SCRIPT_PATH } from './live-run.js';
import { liveRunPage } from './live-run-page.js';
import { type PageForm, pageWrite, pageWriteTo } from './page-write.js';
import {
  type SavedTargetPageOptions,
  savedTargetPage,
  savedTargetsPage,
  targetInput,
  typedFields,
} from './saved-target-pages.js';

export interface LivePageOptions {
  readonly store: HubStore;
  readonly auth: HubAuth;
  readonly queue: JobQueue;
  readonly targets: SavedTargets;
  readonly queued?: () => void;
  /** The load scenarios a run may name (HubOptions.loadScenarios): the start form's choice. */
  readonly loadScenarios?: readonly LoadScenarioChoice[];
  /** The CSP of a page that runs the live script (the hub's own, nothing inline). */
  readonly liveCsp: string;
  /** The page of a refusal that has no form to show again. */
  readonly errorPage: (status: number, message: string, back?: readonly [string, string]) => Html;
}

/** A refusal the pages show on their form: its status and message; anything else is rethrown. */
function refusalOf(err: unknown): { status: ContentfulStatusCode; message: string } {
  if (err instanceof ApiError || err instanceof TargetInputError)
    return { status: err.status as ContentfulStatusCode, message: err.message };
  if (err instanceof SecretBoxError) return { status: 422, message: err.message };
  throw err;
}

const STARTS = ['profile', 'only', 'scenario', 'engine', 'durationSeconds'] as const;

/** A whole number typed in a form as a number; anything else as typed, for the validator to refuse with its words. */
const wholeNumber = (v: string | undefined): unknown => (v !== undefined && /^\d{1,9}$/.test(v) ? Number(v) : v);

/** The largest form these pages read (a target's settings, a list of rules): far more than any of them needs. */
export const MAX_FORM_BYTES = 64 * 1024;

/** Adds the live pages' routes to the pages' app (its error handler and security headers apply). */
export function addLivePageRoutes(app: Hono, o: LivePageOptions): void {
  const { queue, targets } = o;
  const small = bodyLimit({
    maxSize: MAX_FORM_BYTES,
    onError: (c) =>
      c.html(o.errorPage(413, `the form is larger than the hub reads (${MAX_FORM_BYTES} bytes)`).text, 413),
  });
  for (const path of ['/saved-targets', '/saved-targets/*', '/live-runs/*', '/runs/:id/rerun']) app.post(path, small);
  const actions = new LiveActions(o);
  /** A saved target the user may read, else 404 (missing, or another organisation's). */
  const savedOr404 = async (c: Context, raw: string | undefined) => {
    const id = intParam(raw, 'the target id');
    const t = await targets.get(id);
    if (!t) throw new ApiError(404, `there is no saved target ${id}`);
    allow(c, 'read', t.organisationId, `saved target ${id}`);
    return t;
  };
  const record = (c: Context, organisationId: number, action: AuditAction, subject: string, detail?: AuditDetail) =>
    o.auth.audit.record({
      actor: actorOf(c),
      organisationId,
      action,
      subject,
      detail,
      address: clientAddress(c, o.auth.trustProxy),
    });
  /** The organisations where the user may save targets (the new target form's choice). */
  const savable = (c: Context) => {
    const actor = actorOf(c);
    const ids = new Set(organisationsWhere(actor, 'save-target'));
    return actor.kind === 'user' ? actor.memberships.filter((m) => ids.has(m.organisationId)) : [];
  };

  const showTarget = async (
    c: Context,
    id: number,
    status: ContentfulStatusCode,
    extra: Partial<SavedTargetPageOptions>,
  ) => {
    const t = await targets.getOrThrow(id);
    const jobs = await queue.list([t.organisationId], { targetId: id, limit: 20 });
    return c.html(savedTargetPage(t, { jobs, scenarios: o.loadScenarios, ...extra }).text, status);
  };

  app.get('/saved-targets', async (c) =>
    c.html(savedTargetsPage(await targets.list(readable(c)), { organisations: savable(c) }).text),
  );

  app.post('/saved-targets', async (c) => {
    const { form, refusal, organisationId } = await pageWrite(c, { action: 'save-target' });
    const again = async (status: ContentfulStatusCode, error: string) =>
      c.html(
        savedTargetsPage(await targets.list(readable(c)), {
          values: typedFields(form),
          error,
          organisations: savable(c),
        }).text,
        status,
      );
    if (refusal || organisationId === undefined) return again(refusal?.status ?? 403, refusal?.message ?? 'refused');
    try {
      const t = await targets.save(targetInput(form, false), organisationId);
      await record(c, organisationId, 'save-target', `target ${t.id}`, { url: t.url, name: t.name });
      return c.redirect(href(['saved-targets', t.id]), 303);
    } catch (err) {
      const r = refusalOf(err);
      return again(r.status, r.message);
    }
  });

  app.get('/saved-targets/:id', async (c) => {
    const t = await savedOr404(c, c.req.param('id'));
    return showTarget(c, t.id, 200, {});
  });

  /**
   * A POST to a saved target's form: the write check (`action` in the target's organisation), the action, 303 to
   * where it answers, or the page again with the refusal.
   */
  const targetForm = (
    form: NonNullable<SavedTargetPageOptions['error']>['form'],
    action: Action,
    act: (c: Context, t: SavedTarget, f: PageForm) => Promise<string>,
  ) =>
    async function handler(c: Context) {
      const id = intParam(c.req.param('id'), 'the target id');
      const w = await pageWriteTo(c, {
        find: () => targets.get(id),
        organisationOf: (t) => t.organisationId,
        action,
        what: `saved target ${id}`,
      });
      const f = w.form;
      const typed = {
        ...(form === 'edit' ? { values: typedFields(f) } : {}),
        start: Object.fromEntries(STARTS.flatMap((k) => (f.text(k) ? [[k, f.text(k) as string]] : []))),
      };
      const refused = (status: ContentfulStatusCode, message: string) =>
        w.reads
          ? showTarget(c, id, status, { ...typed, error: { form, message } })
          : c.html(o.errorPage(status, message).text, status);
      if (w.refusal || !w.object) return refused(w.refusal?.status ?? 403, w.refusal?.message ?? 'refused');
      try {
        return c.redirect(await act(c, w.object, f), 303);
      } catch (err) {
        const r = refusalOf(err);
        return refused(r.status, r.message);
      }
    };

  app.post(
    '/saved-targets/:id',
    targetForm('edit', 'save-target', async (c, t, f) => {
      const input = targetInput(f, true);
      const updated = await targets.update(t.id, input);
      await record(c, t.organisationId, 'update-target', `target ${t.id}`, {
        url: updated.url,
        changed: Object.keys(input).sort(),
      });
      return href(['saved-targets', t.id]);
    }),
  );

  app.post(
    '/saved-targets/:id/delete',
    targetForm('delete', 'save-target', async (c, t) => {
      await targets.remove(t.id);
      await record(c, t.organisationId, 'delete-target', `target ${t.id}`, { url: t.url });
      return '/saved-targets';
    }),
  );

  app.post(
    '/saved-targets/:id/conform',
    targetForm('conform', 'run', async (c, t, f) => {
      const only = (f.text('only') ?? '').split(/[\s,]+/).filter((g) => g !== '');
      const job = await actions.start(
        t.id,
        actions.settings({ kind: 'conformance', profile: f.text('profile'), only }),
      );
      await record(c, t.organisationId, 'start-run', `live run ${job.id}`, { target: t.id, kind: job.kind });
      return href(['live-runs', job.id]);
    }),
  );

  app.post(
    '/saved-targets/:id/load',
    targetForm('load', 'run', async (c, t, f) => {
      const settings = actions.settings({
        kind: 'load',
        scenario: f.text('scenario'),
        engine: f.text('engine'),
        durationSeconds: wholeNumber(f.text('durationSeconds')),
      });
      const job = await actions.start(t.id, settings);
      await record(c, t.organisationId, 'start-run', `live run ${job.id}`, { target: t.id, kind: job.kind });
      return href(['live-runs', job.id]);
    }),
  );

  const showLiveRun = async (c: Context, id: number, status: ContentfulStatusCode, error?: string) => {
    const job = await queue.get(id);
    if (!job) throw new ApiError(404, `there is no live run ${id}`);
    allow(c, 'read', job.organisationId, `live run ${id}`);
    const view = { ...job, judged: await queue.judged(id) };
    const body = liveRunPage(view, await targets.get(job.targetId), { error });
    if (body.text.includes(LIVE_SCRIPT_PATH)) c.header('Content-Security-Policy', o.liveCsp);
    return c.html(body.text, status);
  };

  app.get('/live-runs/:id', async (c) => showLiveRun(c, intParam(c.req.param('id'), 'the live run id'), 200));

  app.post('/live-runs/:id/cancel', async (c) => {
    const id = intParam(c.req.param('id'), 'the live run id');
    const w = await pageWriteTo(c, {
      find: () => queue.get(id),
      organisationOf: (j) => j.organisationId,
      action: 'run',
      what: `live run ${id}`,
    });
    const refused = (status: ContentfulStatusCode, message: string) =>
      w.reads ? showLiveRun(c, id, status, message) : c.html(o.errorPage(status, message).text, status);
    if (w.refusal || !w.object) return refused(w.refusal?.status ?? 403, w.refusal?.message ?? 'refused');
    const job = w.object;
    try {
      await actions.cancel(id);
      await record(c, job.organisationId, 'cancel-run', `live run ${id}`);
      return c.redirect(href(['live-runs', id]), 303);
    } catch (err) {
      const r = refusalOf(err);
      return refused(r.status, r.message);
    }
  });

  app.post('/runs/:id/rerun', async (c) => {
    const runId = intParam(c.req.param('id'), 'the run id');
    const back = [`Back to run #${runId}`, href(['runs', runId])] as const;
    const w = await pageWriteTo(c, {
      find: () => o.store.run(runId),
      organisationOf: (r) => r.organisationId,
      action: 'run',
      what: `run ${runId}`,
    });
    const { form } = w;
    if (w.refusal || !w.object) {
      const status = w.refusal?.status ?? 403;
      return c.html(o.errorPage(status, w.refusal?.message ?? 'refused', back).text, status);
    }
    const run = w.object;
    const rule = form.text('rule');
    const area = form.text('area');
    const what = rule ? { rule } : area ? { area } : form.text('fails') ? { fails: true } : {};
    try {
      const job = await actions.rerun(runId, what);
      await record(c, run.organisationId, 'rerun', `live run ${job.id}`, {
        run: runId,
        only: job.settings.kind === 'conformance' ? job.settings.only : [],
      });
      return c.redirect(href(['live-runs', job.id]), 303);
    } catch (err) {
      const r = refusalOf(err);
      return c.html(o.errorPage(r.status, r.message, back).text, r.status);
    }
  });
}
