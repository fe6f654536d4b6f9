/**
 * The hub's pages in the browser, server-rendered and usable without JavaScript, mounted beside /api/v1 by
 * `createHubApp`. Every page answers with a Content-Security-Policy that allows no script and no inline style
 * (the stylesheet is served from /assets/hub.css), `nosniff`, no framing and no referrer to other sites; a refusal or a missing
 * page is an HTML page with its status.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError, intParam } from '../api/api-error.js';
import { RunDocuments } from '../api/run-documents.js';
import { compareRuns, loadTrends, type RuleMatrix, ruleEvidence, ruleMatrix } from '../api/run-views.js';
import { readableTarget } from '../api/target-routes.js';
import type { HubAuth } from '../auth/hub-auth.js';
import { organisationsWhere } from '../auth/permissions.js';
import { actorOf, clientAddress, readable } from '../auth/request-auth.js';
import { csrfTokenOf } from '../auth/sessions.js';
import { ingestFiles } from '../ingest/ingest.js';
import { IngestError } from '../ingest/ingest-error.js';
import { DEFAULT_LIMITS, formatBytes, type IngestLimits } from '../ingest/limits.js';
import { readParts } from '../ingest/read-parts.js';
import { readZip } from '../ingest/read-zip.js';
import type { JobQueue } from '../live/job-queue.js';
import { LiveActions, type LoadScenarioChoice } from '../live/live-actions.js';
import { type SavedTargets, TargetInputError } from '../live/saved-targets.js';
import { type HubStore, StoreInputError } from '../store/hub-store.js';
import type { RunSummary } from '../store/run-summary.js';
import { accountRoutes } from './account-routes.js';
import { comparePage, matrixPage } from './compare-pages.js';
import { type Html, href, html } from './html.js';
import { HUB_CSS } from './hub-css.js';
import { page, STYLESHEET } from './layout.js';
import { addLivePageRoutes } from './live-page-routes.js';
import { withViewer } from './page-context.js';
import { pageWrite } from './page-write.js';
import { HUB_LINKS, type Rerun, rulePage, runPage } from './run-pages.js';
import { historyPage, targetsPage } from './targets-pages.js';
import { trendsPage } from './trends-page.js';
import { type UploadForm, uploadPage } from './upload-page.js';

export interface PageOptions {
  readonly store: HubStore;
  readonly auth: HubAuth;
  readonly limits?: IngestLimits;
  readonly log?: (line: string) => void;
  /** Live runs: the queue and the saved targets, for the saved targets' and live runs' pages. */
  readonly live?: {
    readonly queue: JobQueue;
    readonly targets: SavedTargets;
    readonly queued?: () => void;
    readonly loadScenarios?: readonly LoadScenarioChoice[];
  };
  /** Whether OpenID Connect sign-in is configured: the sign-in page then links to it. */
  readonly oidc?: boolean;
}

/** The pages' Content-Security-Policy: nothing inline, nothing from elsewhere, no framing. */
export const PAGE_CSP =
  "default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** A live run's page runs one script, the hub's own (LIVE_SCRIPT_PATH): still nothing inline. */
export const LIVE_PAGE_CSP = PAGE_CSP.replace("script-src 'none'", "script-src 'self'");

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on the upload form's POST
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const MIB = 1024 * 1024;
const MAX_MATRIX_RUNS = 100;

/** A page for a refusal or a missing page. */
function errorPage(
  status: number,
  message: string,
  back: readonly [string, string] = ['Back to the targets', '/'],
): Html {
  const title = status === 404 ? 'Not found' : status >= 500 ? 'Something went wrong' : 'Refused';
  return page({ title }, html`<p class="alert" role="alert">${message}</p><p><a href="${back[1]}">${back[0]}</a></p>`);
}

const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

/** The pages nobody needs to be signed in for: signing in, and the stylesheet and script. */
const PUBLIC_PAGE = /^\/(sign-in(\/link)?|assets\/[a-z0-9.-]+)$/;

export function pageRoutes(o: PageOptions): Hono {
  const { store } = o;
  const log = o.log ?? ((line: string) => console.error(line));
  const limits = o.limits ?? DEFAULT_LIMITS;
  const docs = new RunDocuments(store);
  const actions = o.live ? new LiveActions({ store, ...o.live }) : undefined;
  /** Whether a run can be rerun from its page: undefined when it can, else why not. */
  const rerunOf = async (runId: number): Promise<Rerun> => {
    if (!actions) return { why: 'this hub runs no live runs' };
    const why = await actions.whyNoRerun(runId);
    return why ? { why: why.message.replace(/^run \d+'s target/, 'its target') } : {};
  };
  const app = new Hono();

  app.use('*', async (c, next) => {
    const actor = actorOf(c);
    const secret = c.get('sessionSecret');
    const viewer =
      actor.kind === 'user' && secret
        ? { email: actor.email, memberships: actor.memberships, hubAdmin: actor.hubAdmin, csrf: csrfTokenOf(secret) }
        : undefined;
    // every page but signing in and the assets needs someone: nobody is sent to the sign-in page (onError)
    if (actor.kind === 'anonymous' && !isApi(c.req.path) && !PUBLIC_PAGE.test(c.req.path))
      throw new ApiError(401, 'sign in first');
    await withViewer(viewer, () => next());
    if (isApi(c.req.path)) return;
    for (const [k, v] of Object.entries(SECURITY_HEADERS))
      if (!(k === 'Content-Security-Policy' && c.res.headers.get(k) === LIVE_PAGE_CSP)) c.res.headers.set(k, v);
  });

  app.onError((err, c) => {
    // nobody signed in: the sign-in page, and back here afterwards
    if (err instanceof ApiError && err.status === 401 && c.req.method === 'GET')
      return c.redirect(href(['sign-in'], { next: c.req.path + (new URL(c.req.url).search || '') }), 303);
    if (err instanceof ApiError || err instanceof IngestError)
      return c.html(errorPage(err.status, err.message).text, err.status as ContentfulStatusCode);
    if (err instanceof TargetInputError)
      return c.html(errorPage(err.status, err.message).text, err.status as ContentfulStatusCode);
    if (err instanceof StoreInputError) return c.html(errorPage(400, err.message).text, 400);
    log(`hub: ${c.req.method} ${c.req.path} failed: ${(err as Error)?.stack ?? String(err)}`);
    return c.html(errorPage(500, 'The hub failed to make this page (its log says why).').text, 500);
  });

  app.get(STYLESHEET, (c) => {
    c.header('Content-Type', 'text/css; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(HUB_CSS);
  });

  app.route('/', accountRoutes(o.auth, { oidc: o.oidc === true }));

  app.get('/', async (c) => c.html((await targetsPage(store, readable(c))).text));

  app.get('/targets/:id', async (c) => {
    const target = await readableTarget(store, c.req.param('id'), c);
    const kind = c.req.query('kind');
    return c.html(
      (
        await historyPage(
          store,
          target,
          {
            kind: kind === 'conformance' || kind === 'load' ? kind : undefined,
            profile: c.req.query('profile') || undefined,
            build: c.req.query('build') || undefined,
            label: c.req.query('label') || undefined,
          },
          Boolean(await o.live?.targets.get(target.id)),
        )
      ).text,
    );
  });

  app.get('/targets/:id/trends', async (c) => {
    const target = await readableTarget(store, c.req.param('id'), c);
    return c.html(trendsPage(target, await loadTrends(store, target.id)).text);
  });

  app.get('/runs/:id', async (c) => {
    const run = await docs.run(intParam(c.req.param('id'), 'the run id'), c);
    const [target, files] = await Promise.all([store.target(run.targetId), store.files(run.id)]);
    const filter = {
      verdict: c.req.query('verdict') || undefined,
      area: c.req.query('area') || undefined,
      q: c.req.query('q') || undefined,
    };
    return c.html((await runPage(docs, run, target, files, filter, HUB_LINKS, await rerunOf(run.id))).text);
  });

  app.get('/runs/:id/rules/:rule', async (c) => {
    const run = await docs.run(intParam(c.req.param('id'), 'the run id'), c);
    const d = await docs.document(run);
    if (d.kind === 'load') throw new ApiError(404, `run ${run.id} is a load run: it has scenarios, not rules`);
    const ev = ruleEvidence(d.doc, run, c.req.param('rule'));
    return c.html(rulePage(ev, await store.target(run.targetId), HUB_LINKS, await rerunOf(run.id)).text);
  });

  app.get('/compare', async (c) => {
    const a = c.req.query('a') ?? '';
    const b = c.req.query('b') ?? '';
    if (!a || !b) return c.html(comparePage(undefined, a, b).text);
    try {
      const cmp = await compareRuns(docs, intParam(a, 'the older run (A)'), intParam(b, 'the newer run (B)'), c);
      return c.html(comparePage(cmp, a, b).text);
    } catch (err) {
      if (err instanceof ApiError)
        return c.html(comparePage(undefined, a, b, err.message).text, err.status as ContentfulStatusCode);
      throw err;
    }
  });

  app.get('/matrix', async (c) => {
    const targets = await store.targetChoices(readable(c));
    const choice = { target: c.req.query('target'), last: c.req.query('last'), version: c.req.query('version') };
    let m: RuleMatrix | undefined;
    let title = 'Rule matrix';
    try {
      let columns: RunSummary[] | undefined;
      if (choice.version) {
        columns = await store.latestRunsAtVersion(choice.version, readable(c));
        title = `Rule matrix of every target at erpcert ${choice.version}`;
      } else if (choice.target) {
        const target = await readableTarget(store, choice.target, c);
        const last = intParam(choice.last, 'last', 20);
        if (last > MAX_MATRIX_RUNS) throw new ApiError(400, `last must be at most ${MAX_MATRIX_RUNS}`);
        columns = await store.targetRuns(target.id, { kind: 'conformance', limit: last });
        title = `Rule matrix of ${target.name}`;
      }
      if (columns) m = await ruleMatrix(store, columns);
    } catch (err) {
      if (err instanceof ApiError)
        return c.html(
          matrixPage(targets, choice, undefined, title, err.message).text,
          err.status as ContentfulStatusCode,
        );
      throw err;
    }
    return c.html(matrixPage(targets, choice, m, title).text);
  });

  if (o.live) addLivePageRoutes(app, { store, auth: o.auth, ...o.live, liveCsp: LIVE_PAGE_CSP, errorPage });

  /** The organisations the signed-in user may publish to. */
  const publishable = (c: import('hono').Context) => {
    const actor = actorOf(c);
    const ids = new Set(organisationsWhere(actor, 'publish'));
    return actor.kind === 'user' ? actor.memberships.filter((m) => ids.has(m.organisationId)) : [];
  };

  app.get('/upload', (c) => {
    readable(c);
    return c.html(uploadPage({ organisations: publishable(c) }).text);
  });

  app.post(
    '/upload',
    bodyLimit({
      maxSize: limits.maxRunBytes + MIB,
      onError: (c) =>
        c.html(
          uploadPage({
            organisations: publishable(c),
            error: `the upload is larger than the hub accepts (${formatBytes(limits.maxRunBytes)})`,
          }).text,
          413,
        ),
    }),
    async (c) => {
      const refuse = (status: ContentfulStatusCode, error: string, form?: UploadForm) =>
        c.html(uploadPage({ organisations: publishable(c), form, error }).text, status);
      const { form, refusal, organisationId } = await pageWrite(c, { action: 'publish' });
      const kept: UploadForm = { build: form.text('build'), label: form.text('label') };
      if (refusal || organisationId === undefined)
        return refuse(refusal?.status ?? 403, refusal?.message ?? 'refused', kept);
      // a file input left empty posts one part without a filename
      const zip = form.data.get('zip');
      const chosenZip = zip instanceof File && zip.name !== '' ? zip : undefined;
      const folder = form.data.getAll('file').filter((p) => (typeof p === 'string' ? p !== '' : p.name !== ''));
      if (chosenZip && folder.length > 0) return refuse(400, 'choose the report folder or its zip, not both', kept);
      if (!chosenZip && folder.length === 0)
        return refuse(400, 'choose the report folder, or the zip of a report folder', kept);
      try {
        const files = chosenZip
          ? await readZip(Buffer.from(await chosenZip.arrayBuffer()), limits)
          : await readParts(folder, limits);
        const { run, created } = await ingestFiles(store, files, { ...kept, organisationId });
        if (created)
          await o.auth.audit.record({
            actor: actorOf(c),
            organisationId,
            action: 'publish',
            subject: `run ${run.id}`,
            detail: { kind: run.kind, build: run.build, label: run.label, digest: run.digest, via: 'upload page' },
            address: clientAddress(c, o.auth.trustProxy),
          });
        return c.redirect(href(['runs', run.id]), 303);
      } catch (err) {
        if (err instanceof IngestError || err instanceof ApiError)
          return refuse(err.status as ContentfulStatusCode, err.message, kept);
        throw err;
      }
    },
  );

  // the last route: any other page is an HTML 404 (the API keeps its JSON 404)
  app.get('*', async (c, next) => {
    if (isApi(c.req.path)) return next();
    return c.html(errorPage(404, `There is no page ${c.req.path}.`).text, 404);
  });

  return app;
}
