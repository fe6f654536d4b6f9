/**
 * The pages that write live runs, as plain HTML forms (POST/redirect/GET, no JavaScript needed): save, edit and
 * delete a saved target; start a conformance or load run from its page; cancel a live run; rerun one rule, one area
 * or every FAIL of a stored run. Each POST goes through the pages' one write check (page-write.ts), then through the
 * same code as the API (saved-targets.ts, live-actions.ts): no second validator. A refusal shows the form again with
 * its message and what was typed (never a password or the token).
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError, intParam } from '../api/api-error.js';
import type { JobQueue } from '../live/job-queue.js';
import { LiveActions, runSettings } from '../live/live-actions.js';
import { type SavedTargets, TargetInputError } from '../live/saved-targets.js';
import { SecretBoxError } from '../live/secret-box.js';
import type { HubStore } from '../store/hub-store.js';
import { type Html, href } from './html.js';
import { LIVE_SCRIPT_PATH } from './live-run.js';
import { liveRunPage } from './live-run-page.js';
import { type PageForm, pageWrite } from './page-write.js';
import {
  type SavedTargetPageOptions,
  savedTargetPage,
  savedTargetsPage,
  targetInput,
  typedFields,
} from './saved-target-pages.js';

export interface LivePageOptions {
  readonly store: HubStore;
  readonly token: string | undefined;
  readonly queue: JobQueue;
  readonly targets: SavedTargets;
  readonly queued?: () => void;
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
  const savedOr404 = (raw: string | undefined) => targets.getOrThrow(intParam(raw, 'the target id'));

  const showTarget = async (
    c: Context,
    id: number,
    status: ContentfulStatusCode,
    extra: Partial<SavedTargetPageOptions>,
  ) => {
    const t = await targets.getOrThrow(id);
    const jobs = await queue.list({ targetId: id, limit: 20 });
    return c.html(savedTargetPage(t, { jobs, ...extra }).text, status);
  };

  app.get('/saved-targets', async (c) => c.html(savedTargetsPage(await targets.list()).text));

  app.post('/saved-targets', async (c) => {
    const { form, refusal } = await pageWrite(c, o.token);
    const again = async (status: ContentfulStatusCode, error: string) =>
      c.html(savedTargetsPage(await targets.list(), { values: typedFields(form), error }).text, status);
    if (refusal) return again(refusal.status, refusal.message);
    try {
      const t = await targets.save(targetInput(form, false));
      return c.redirect(href(['saved-targets', t.id]), 303);
    } catch (err) {
      const r = refusalOf(err);
      return again(r.status, r.message);
    }
  });

  app.get('/saved-targets/:id', async (c) => {
    const t = await savedOr404(c.req.param('id'));
    return showTarget(c, t.id, 200, {});
  });

  /** A POST to a saved target's form: the write check, the action, 303 to `next`, or the page again with the refusal. */
  const targetForm = (
    form: NonNullable<SavedTargetPageOptions['error']>['form'],
    act: (id: number, f: PageForm) => Promise<string>,
  ) =>
    async function handler(c: Context) {
      const t = await savedOr404(c.req.param('id'));
      const { form: f, refusal } = await pageWrite(c, o.token);
      const typed = {
        ...(form === 'edit' ? { values: typedFields(f) } : {}),
        start: Object.fromEntries(STARTS.flatMap((k) => (f.text(k) ? [[k, f.text(k) as string]] : []))),
      };
      if (refusal) return showTarget(c, t.id, refusal.status, { ...typed, error: { form, message: refusal.message } });
      try {
        return c.redirect(await act(t.id, f), 303);
      } catch (err) {
        const r = refusalOf(err);
        return showTarget(c, t.id, r.status, { ...typed, error: { form, message: r.message } });
      }
    };

  app.post(
    '/saved-targets/:id',
    targetForm('edit', async (id, f) => {
      await targets.update(id, targetInput(f, true));
      return href(['saved-targets', id]);
    }),
  );

  app.post(
    '/saved-targets/:id/delete',
    targetForm('delete', async (id) => {
      await targets.remove(id);
      return '/saved-targets';
    }),
  );

  app.post(
    '/saved-targets/:id/conform',
    targetForm('conform', async (id, f) => {
      const only = (f.text('only') ?? '').split(/[\s,]+/).filter((g) => g !== '');
      const job = await actions.start(id, runSettings({ kind: 'conformance', profile: f.text('profile'), only }));
      return href(['live-runs', job.id]);
    }),
  );

  app.post(
    '/saved-targets/:id/load',
    targetForm('load', async (id, f) => {
      const settings = runSettings({
        kind: 'load',
        scenario: f.text('scenario'),
        engine: f.text('engine'),
        durationSeconds: wholeNumber(f.text('durationSeconds')),
      });
      const job = await actions.start(id, settings);
      return href(['live-runs', job.id]);
    }),
  );

  const showLiveRun = async (c: Context, id: number, status: ContentfulStatusCode, error?: string) => {
    const job = await queue.get(id);
    if (!job) throw new ApiError(404, `there is no live run ${id}`);
    const view = { ...job, judged: await queue.judged(id) };
    const body = liveRunPage(view, await targets.get(job.targetId), { error });
    if (body.text.includes(LIVE_SCRIPT_PATH)) c.header('Content-Security-Policy', o.liveCsp);
    return c.html(body.text, status);
  };

  app.get('/live-runs/:id', async (c) => showLiveRun(c, intParam(c.req.param('id'), 'the live run id'), 200));

  app.post('/live-runs/:id/cancel', async (c) => {
    const id = intParam(c.req.param('id'), 'the live run id');
    const { refusal } = await pageWrite(c, o.token);
    if (refusal) return showLiveRun(c, id, refusal.status, refusal.message);
    try {
      await actions.cancel(id);
      return c.redirect(href(['live-runs', id]), 303);
    } catch (err) {
      const r = refusalOf(err);
      return showLiveRun(c, id, r.status, r.message);
    }
  });

  app.post('/runs/:id/rerun', async (c) => {
    const runId = intParam(c.req.param('id'), 'the run id');
    const back = [`Back to run #${runId}`, href(['runs', runId])] as const;
    const { form, refusal } = await pageWrite(c, o.token);
    if (refusal) return c.html(o.errorPage(refusal.status, refusal.message, back).text, refusal.status);
    const rule = form.text('rule');
    const area = form.text('area');
    const what = rule ? { rule } : area ? { area } : form.text('fails') ? { fails: true } : {};
    try {
      const job = await actions.rerun(runId, what);
      return c.redirect(href(['live-runs', job.id]), 303);
    } catch (err) {
      const r = refusalOf(err);
      return c.html(o.errorPage(r.status, r.message, back).text, r.status);
    }
  });
}
