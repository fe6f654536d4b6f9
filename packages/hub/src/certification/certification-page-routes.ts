/**
 * The certification pages and the read-only views (mounted before the hub's other pages, whose last route is the
 * catch-all 404):
 * - signed in: a run's certification page and its forms, the inbox, a submission's review and decision;
 * - no account: the certified implementations, a certified run's report (read-only), the badges, and a share
 *   link's run with its rule pages and files, nothing else; an expired or revoked link is a 410 page.
 * Every page gets the hub pages' Content-Security-Policy (no script); a share link's pages send no referrer (the
 * token is in their URL), are not cached and not indexed. Who may use each route is its row in access.ts.
 */
import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError } from '../api/api-error.js';
import { RunDocuments } from '../api/run-documents.js';
import { TYPES } from '../api/run-routes.js';
import { ruleEvidence } from '../api/run-views.js';
import { csrfTokenFor } from '../auth/csrf.js';
import { can, organisationsWhere } from '../auth/permissions.js';
import { actorOf } from '../auth/request-auth.js';
import { IngestError } from '../ingest/ingest-error.js';
import { type Html, href, html } from '../pages/html.js';
import { page } from '../pages/layout.js';
import { PAGE_CSP } from '../pages/page-routes.js';
import { readOnlyLinks, rulePage, runPage } from '../pages/run-pages.js';
import { StoreInputError } from '../store/hub-store.js';
import type { RunSummary } from '../store/run-summary.js';
import { absentBadge, certifiedBadge } from './badge-svg.js';
import { certifiedPage, goneSharePage, inboxPage, reviewPage, runCertificationPage } from './certification-pages.js';
import { type CertifiedRun, noteOf } from './certification-store.js';
import { reviewSignature } from './review-signature.js';
import { asApiError, route, sharePath } from './routes-common.js';
import type { CertificationServices } from './services.js';
import { shareDaysOf } from './share-links.js';

const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** A share link's pages: its token is in the URL. */
const SHARE_HEADERS: Readonly<Record<string, string>> = {
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex, nofollow',
};

const FILE_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:";

function errorPage(status: number, message: string): Html {
  const title = status === 404 ? 'Not found' : status >= 500 ? 'Something went wrong' : 'Refused';
  return page({ title, bare: true }, html`<p class="alert" role="alert">${message}</p>`);
}

export function certificationPages(s: CertificationServices, o: { readonly log?: (line: string) => void } = {}): Hono {
  const log = o.log ?? ((line: string) => console.error(line));
  const { store, certification, shares } = s;
  const docs = new RunDocuments(store);
  const app = new Hono();

  /** Every page: a refusal or a failure as an HTML page with its status; the pages' headers. */
  const wrap = async (c: Context, run: () => Promise<Response>): Promise<Response> => {
    let res: Response;
    try {
      res = await run();
    } catch (err) {
      const e = asApiError(err);
      if (e instanceof ApiError || e instanceof IngestError)
        res = c.html(errorPage(e.status, e.message).text, e.status as ContentfulStatusCode);
      else if (e instanceof StoreInputError) res = c.html(errorPage(400, e.message).text, 400);
      else {
        // a share link's token is a secret: the log names the route, not the path
        log(`hub: ${c.req.method} ${c.req.routePath} failed: ${(e as Error)?.stack ?? String(e)}`);
        res = c.html(errorPage(500, 'The hub failed to make this page (its log says why).').text, 500);
      }
    }
    const isSvg = res.headers.get('content-type')?.startsWith('image/svg+xml');
    const isFile = res.headers.get('content-security-policy') === FILE_CSP;
    if (!isSvg && !isFile) for (const [k, v] of Object.entries(PAGE_HEADERS)) res.headers.set(k, v);
    if (c.req.path.startsWith('/s/')) for (const [k, v] of Object.entries(SHARE_HEADERS)) res.headers.set(k, v);
    return res;
  };
  const pageRoute = (
    method: 'GET' | 'POST',
    path: string,
    handler: Parameters<typeof route>[4],
    o: { readonly form?: boolean } = {},
  ) => route(app, s, method, path, handler, { ...o, wrap });

  const runView = async (c: Context, runId: number, error?: string, newLink?: string, status = 200) => {
    const run = await store.run(runId);
    if (!run) throw new ApiError(404, `there is no run ${runId}`);
    const actor = actorOf(c);
    const view = {
      run,
      certified: await certification.certificationOf(run.id),
      submissions: await certification.submissions({ by: [run.organisationId], runId: run.id }),
      bodies: await certification.certifyingBodies(),
      links: await shares.list(run.id),
      canWrite: can(actor, 'manage-runs', run.organisationId),
      csrf: csrfTokenFor(c),
      now: s.now().toISOString(),
      ...(error ? { error } : {}),
      ...(newLink ? { newLink } : {}),
    };
    return c.html(runCertificationPage(view).text, status as ContentfulStatusCode);
  };

  /** A form's refusal shown on its page (the form again, with the message and its status). */
  const onRunPage = async (c: Context, runId: number, act: () => Promise<Response>) => {
    try {
      return await act();
    } catch (err) {
      const e = asApiError(err);
      if (e instanceof ApiError && (e.status === 400 || e.status === 409))
        return runView(c, runId, e.message, undefined, e.status);
      throw e;
    }
  };

  pageRoute('GET', '/runs/:id/certification', async (c, g) => runView(c, (g.run as RunSummary).id));

  pageRoute(
    'POST',
    '/runs/:id/certification/submit',
    async (c, g, form) => {
      const run = g.run as RunSummary;
      return onRunPage(c, run.id, async () => {
        const certifier = form?.get('certifier');
        if (typeof certifier !== 'string' || certifier === '') throw new ApiError(400, 'choose a certifying body');
        const submission = await certification.submit(run, certifier, s.label(actorOf(c)));
        await s.audit(c, run.organisationId, 'submit', `run ${run.id}`, {
          submission: submission.id,
          certifier: submission.certifier.slug,
        });
        return c.redirect(href(['runs', run.id, 'certification']), 303);
      });
    },
    { form: true },
  );

  pageRoute(
    'POST',
    '/runs/:id/certification/share',
    async (c, g, form) => {
      const run = g.run as RunSummary;
      return onRunPage(c, run.id, async () => {
        const days = shareDaysOf(form?.get('days'));
        const { secret } = await s.share(c, run, days);
        // shown once, on this answer (not a redirect: the token is not kept)
        c.header('Cache-Control', 'no-store');
        return runView(c, run.id, undefined, new URL(sharePath(secret), c.req.url).toString(), 201);
      });
    },
    { form: true },
  );

  pageRoute(
    'POST',
    '/share-links/:id/revoke',
    async (c, g) => {
      const link = g.link;
      if (!link) throw new ApiError(404, 'there is no share link');
      await shares.revoke(link.id);
      await s.audit(c, link.organisationId, 'share', `run ${link.runId}`, { link: link.id, revoked: true });
      return c.redirect(href(['runs', link.runId, 'certification']), 303);
    },
    { form: true },
  );

  pageRoute('GET', '/certification', async (c) => {
    const actor = actorOf(c);
    const toReview = await certification.submissions({ to: organisationsWhere(actor, 'review') });
    const ours = await certification.submissions({ by: organisationsWhere(actor, 'read') });
    return c.html(inboxPage({ toReview, ours }).text);
  });

  const review = async (c: Context, submissionId: number, error?: string, status = 200) => {
    const submission = await certification.submission(submissionId);
    const run = submission && (await store.run(submission.runId));
    if (!submission || !run) throw new ApiError(404, `there is no submission ${submissionId}`);
    const view = {
      submission,
      run,
      check: await reviewSignature(store, run),
      canDecide: can(actorOf(c), 'review', submission.certifier.id),
      csrf: csrfTokenFor(c),
      ...(error ? { error } : {}),
    };
    return c.html(reviewPage(view).text, status as ContentfulStatusCode);
  };

  pageRoute('GET', '/submissions/:id/review', async (c, g) => review(c, g.submission?.id ?? 0));

  pageRoute(
    'POST',
    '/submissions/:id/review',
    async (c, g, form) => {
      const { submission, run } = g;
      if (!submission || !run) throw new ApiError(404, 'there is no submission');
      try {
        const decision = form?.get('decision');
        if (decision !== 'certified' && decision !== 'rejected') throw new ApiError(400, 'choose Certify or Reject');
        const note = noteOf(form?.get('note'), true) as string;
        const check = await reviewSignature(store, run);
        await certification.decide(submission.id, decision, note, s.label(actorOf(c)), check);
        for (const [org, other] of [
          [submission.certifier.id, { organisation: submission.organisation.slug }],
          [run.organisationId, { certifier: submission.certifier.slug }],
        ] as const)
          await s.audit(c, org, 'certify', `run ${run.id}`, { submission: submission.id, decision, ...other });
        return c.redirect(href(['submissions', submission.id, 'review']), 303);
      } catch (err) {
        const e = asApiError(err);
        if (e instanceof ApiError && (e.status === 400 || e.status === 409))
          return review(c, submission.id, e.message, e.status);
        throw e;
      }
    },
    { form: true },
  );

  /** The submitted run as its reviewers see it: read-only, linking only inside the submission. */
  const submittedLinks = (id: number, run: RunSummary) =>
    readOnlyLinks(
      ['submissions', id, 'run'],
      html`<p class="note" id="read-only">Run #${run.id} as submitted for certification (submission #${id}): read-only. <a href="${href(['submissions', id, 'review'])}">Back to the review</a>.</p>`,
    );

  pageRoute('GET', '/submissions/:id/run', async (c, g) => {
    const { submission, run } = g;
    if (!submission || !run) throw new ApiError(404, 'there is no submission');
    const target = await viewTarget(run);
    const files = await store.files(run.id);
    return c.html((await runPage(docs, run, target, files, filter(c), submittedLinks(submission.id, run))).text);
  });

  pageRoute('GET', '/submissions/:id/run/rules/:rule', async (c, g) => {
    const { submission, run } = g;
    if (!submission || !run) throw new ApiError(404, 'there is no submission');
    const ev = await rule(run, c.req.param('rule') ?? '');
    return c.html(rulePage(ev, await viewTarget(run), submittedLinks(submission.id, run)).text);
  });

  pageRoute('GET', '/submissions/:id/run/files/:path{.+}', async (c, g) => {
    const { submission, run } = g;
    if (!submission || !run) throw new ApiError(404, 'there is no submission');
    return file(c, run);
  });

  // ---- no account needed ----

  pageRoute('GET', '/certified/implementations', async (c) => {
    c.header('Cache-Control', 'public, max-age=60');
    return c.html(certifiedPage(await certification.certified()).text);
  });

  pageRoute('GET', '/badges/:org/:badge', async (c) => {
    const m = /^(\d{1,12})\.svg$/.exec(c.req.param('badge') ?? '');
    const [latest] = m
      ? await certification.certified({ organisationSlug: c.req.param('org'), targetId: Number(m[1]) })
      : [];
    c.header('Content-Type', 'image/svg+xml; charset=utf-8');
    // a badge changes when a newer run is certified: cached briefly, revalidated after
    c.header('Cache-Control', 'public, max-age=300, must-revalidate');
    c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(latest ? certifiedBadge(latest) : absentBadge(), latest ? 200 : 404);
  });

  /** A certified run, or 404: the public report opens only certified runs. */
  const certifiedRun = async (raw: string | undefined) => {
    const id = Number(raw);
    const cert = Number.isInteger(id) && id > 0 ? await certification.certificationOf(id) : undefined;
    const run = cert && (await store.run(cert.runId));
    if (!cert || !run) throw new ApiError(404, `no certified run ${raw}`);
    return { cert, run };
  };

  const certifiedLinks = (run: RunSummary, cert: { certifier: { name: string }; certifiedAt: string }) =>
    readOnlyLinks(
      ['certified', 'runs', run.id],
      html`<p class="note" id="read-only">Certified by ${cert.certifier.name} on ${cert.certifiedAt.slice(0, 10)}. A read-only report: this run is frozen. <a href="/certified/implementations">All certified implementations</a>.</p>`,
    );

  /** A share link's run, or the 410/404 page. */
  const sharedRun = async (c: Context) => {
    const lookup = await shares.open(c.req.param('token') ?? '');
    if (lookup.state !== 'open') return { gone: lookup.state, run: undefined, link: undefined } as const;
    const run = await store.run(lookup.link.runId);
    if (!run) return { gone: 'unknown', run: undefined, link: undefined } as const;
    return { gone: undefined, run, link: lookup.link } as const;
  };

  const gone = (c: Context, state: 'expired' | 'revoked' | 'unknown') =>
    c.html(goneSharePage(state).text, state === 'unknown' ? 404 : 410);

  const shareLinks = (token: string, run: RunSummary, expiresAt: string) =>
    readOnlyLinks(
      ['s', token],
      html`<p class="note" id="read-only">A read-only view of run #${run.id}, shared until ${expiresAt.slice(0, 16).replace('T', ' ')} UTC.</p>`,
    );

  /**
   * The target a read-only view names: for a certified run, the implementation as it was certified (its
   * `frozen_runs` row), whatever the target is called now; else the target as it is.
   */
  const viewTarget = async (run: RunSummary, cert?: CertifiedRun) => {
    const target = await store.target(run.targetId);
    const frozen = cert ?? (await certification.certificationOf(run.id));
    return target && frozen ? { ...target, name: frozen.name } : target;
  };

  const filter = (c: Context) => ({
    verdict: c.req.query('verdict') || undefined,
    area: c.req.query('area') || undefined,
    q: c.req.query('q') || undefined,
  });

  const rule = async (run: RunSummary, ruleId: string) => {
    const d = await docs.document(run);
    if (d.kind === 'load') throw new ApiError(404, `run ${run.id} is a load run: it has scenarios, not rules`);
    return ruleEvidence(d.doc, run, ruleId);
  };

  const file = async (c: Context, run: RunSummary) => {
    const path = c.req.param('path') ?? '';
    const bytes = await store.readFile(run.id, path);
    if (!bytes) throw new ApiError(404, `run ${run.id} holds no file ${path}`);
    const ext = path.includes('.') ? (path.split('.').pop() ?? '').toLowerCase() : '';
    c.header('Content-Security-Policy', FILE_CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Content-Type', TYPES[ext] ?? 'application/octet-stream');
    return c.body(new Uint8Array(bytes));
  };

  pageRoute('GET', '/certified/runs/:id', async (c) => {
    const { cert, run } = await certifiedRun(c.req.param('id'));
    const target = await viewTarget(run, cert);
    const files = await store.files(run.id);
    return c.html((await runPage(docs, run, target, files, filter(c), certifiedLinks(run, cert))).text);
  });

  pageRoute('GET', '/certified/runs/:id/rules/:rule', async (c) => {
    const { cert, run } = await certifiedRun(c.req.param('id'));
    const ev = await rule(run, c.req.param('rule') ?? '');
    return c.html(rulePage(ev, await viewTarget(run, cert), certifiedLinks(run, cert)).text);
  });

  pageRoute('GET', '/certified/runs/:id/files/:path{.+}', async (c) => {
    const { run } = await certifiedRun(c.req.param('id'));
    return file(c, run);
  });

  pageRoute('GET', '/s/:token', async (c) => {
    const shared = await sharedRun(c);
    if (shared.gone !== undefined) return gone(c, shared.gone);
    const { run, link } = shared;
    const target = await viewTarget(run);
    const files = await store.files(run.id);
    const links = shareLinks(c.req.param('token') ?? '', run, link.expiresAt);
    return c.html((await runPage(docs, run, target, files, filter(c), links)).text);
  });

  pageRoute('GET', '/s/:token/rules/:rule', async (c) => {
    const shared = await sharedRun(c);
    if (shared.gone !== undefined) return gone(c, shared.gone);
    const { run, link } = shared;
    const ev = await rule(run, c.req.param('rule') ?? '');
    const links = shareLinks(c.req.param('token') ?? '', run, link.expiresAt);
    return c.html(rulePage(ev, await viewTarget(run), links).text);
  });

  pageRoute('GET', '/s/:token/files/:path{.+}', async (c) => {
    const shared = await sharedRun(c);
    if (shared.gone !== undefined) return gone(c, shared.gone);
    return file(c, shared.run);
  });

  return app;
}
