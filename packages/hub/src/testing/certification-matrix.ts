/**
 * The objects and requests of certification's rows of the authorization matrix (auth/authorization-matrix.ts),
 * for its test. The owning organisation (the auth fixture's `org`) is a vendor and a certifying body:
 * - its runs (the page fixture's) and their share links are the objects of the run and share-link routes; a signed
 *   run of its own is submitted to the rival organisation, which is a certifying body too (the outsider is its
 *   admin: a certifying body is another organisation for a run not submitted to it);
 * - a third organisation submits its signed runs to it: one certified (the public report and badge), one waiting
 *   (what its certifier reviews; an admin, engineer or viewer of the body reads it and may not decide it).
 * Requests that spend an object (delete a run, decide or make a submission) get a fresh one each time.
 */
import { Certification } from '../certification/certification-store.js';
import { reviewSignature } from '../certification/review-signature.js';
import { ShareLinks } from '../certification/share-links.js';
import { ingestFiles } from '../ingest/ingest.js';
import type { HubStore } from '../store/hub-store.js';
import type { RunSummary } from '../store/run-summary.js';
import type { AuthFixture } from './auth-fixture.js';
import type { PageFixture } from './page-fixture.js';
import { conformanceFolderFiles, sampleConformance } from './sample-runs.js';
import { signedFolderFiles, testKey } from './sign-files.js';

export interface MatrixRequest {
  readonly path: string;
  readonly init: RequestInit;
}

type Headers = Record<string, string>;

/** How the matrix test builds a JSON request and a form post (with the caller's CSRF token). */
export interface RequestBuilders {
  json(method: string, h: Headers, body: unknown): RequestInit;
  form(h: Headers, fields: Record<string, string | string[]>): RequestInit;
}

const RULE = 'REST.VERSION.PATH';
const BY = 'matrix';
const NOT_CHECKED = { status: 'unsigned', key: null, detail: null } as const;

export class CertificationMatrix {
  private n = 0;

  private constructor(
    private readonly store: HubStore,
    private readonly fx: AuthFixture,
    private readonly f: PageFixture,
    private readonly certification: Certification,
    private readonly shares: ShareLinks,
    /** The owning organisation's signed run, submitted to the rival body. */
    private readonly ownSigned: RunSummary,
    /** The third organisation's run certified by the owning organisation, and its submission. */
    private readonly certified: { readonly run: RunSummary; readonly submission: number; readonly badge: string },
    /** The third organisation's run that waits for the owning organisation's certifier. */
    private readonly toReview: RunSummary,
    /** A share link of the owning organisation's first run. */
    private readonly shareToken: string,
  ) {}

  static async seed(store: HubStore, fx: AuthFixture, f: PageFixture): Promise<CertificationMatrix> {
    const certification = new Certification(store.db);
    const shares = new ShareLinks(store.db);
    await certification.setCertifyingBody(fx.org, true);
    await certification.setCertifyingBody(fx.rival, true);
    const third = (await fx.auth.accounts.createOrganisation('third', 'Third vendor')).id;
    const signedRun = async (organisationId: number, tag: string) => {
      const key = testKey();
      await store.registerKey(key.pem, `${tag} key`, organisationId);
      const doc = sampleConformance({ url: `https://${tag.toLowerCase()}.example`, embedded: false, runTag: tag });
      return (await ingestFiles(store, signedFolderFiles(doc, key), { build: tag, organisationId })).run;
    };
    const ownSigned = await signedRun(fx.org, 'OWN');
    const certifiedRun = await signedRun(third, 'CERTIFIED');
    const submission = await certification.submit(certifiedRun, String(fx.org), BY);
    await certification.decide(submission.id, 'certified', BY, BY, await reviewSignature(store, certifiedRun));
    const toReview = await signedRun(third, 'REVIEW');
    const { secret } = await shares.create({ runId: f.first, organisationId: fx.org, days: 30, createdBy: BY });
    const badge = `/badges/third/${certifiedRun.targetId}.svg`;
    return new CertificationMatrix(
      store,
      fx,
      f,
      certification,
      shares,
      ownSigned,
      { run: certifiedRun, submission: submission.id, badge },
      toReview,
      secret,
    );
  }

  /** A run of the owning organisation, to delete. */
  private async freshRun(): Promise<number> {
    const doc = sampleConformance({ runTag: `DELETE${++this.n}` });
    return (await ingestFiles(this.store, conformanceFolderFiles(doc), { organisationId: this.fx.org })).run.id;
  }

  private async freshLink(): Promise<number> {
    const made = await this.shares.create({ runId: this.f.first, organisationId: this.fx.org, days: 1, createdBy: BY });
    return made.link.id;
  }

  /** The waiting submission of the third organisation's run to the owning organisation (made again once decided). */
  private async waiting(): Promise<number> {
    const [open] = (await this.certification.submissions({ to: [this.fx.org], runId: this.toReview.id })).filter(
      (s) => s.state === 'submitted',
    );
    return open?.id ?? (await this.certification.submit(this.toReview, String(this.fx.org), BY)).id;
  }

  /** The owning organisation's signed run with no submission waiting at the rival body (a success submits one). */
  private async submittable(): Promise<number> {
    const waiting = await this.certification.submissions({ by: [this.fx.org], runId: this.ownSigned.id });
    for (const s of waiting.filter((x) => x.state === 'submitted'))
      await this.certification.decide(s.id, 'rejected', BY, BY, NOT_CHECKED);
    return this.ownSigned.id;
  }

  /** The request for a certification route, or undefined when `route` is not one of certification's. */
  async request(route: string, h: Headers, b: RequestBuilders): Promise<MatrixRequest | undefined> {
    const [method = '', pattern = ''] = route.split(' ');
    const fill = (id: number | string) =>
      pattern
        .replace(':path{.+}', 'results.json')
        .replace(':rule', RULE)
        .replace(/:(id|token)/, String(id));
    const get = (id: number | string) => ({ path: fill(id), init: { headers: h } });
    switch (route) {
      case 'POST /api/v1/runs/:id/submissions':
        return { path: fill(await this.submittable()), init: b.json(method, h, { certifier: 'rival' }) };
      case 'POST /runs/:id/certification/submit':
        return { path: fill(await this.submittable()), init: b.form(h, { certifier: 'rival' }) };
      case 'POST /api/v1/submissions/:id/decision':
        return { path: fill(await this.waiting()), init: b.json(method, h, { decision: 'rejected', note: BY }) };
      case 'POST /submissions/:id/review':
        return { path: fill(await this.waiting()), init: b.form(h, { decision: 'rejected', note: BY }) };
      case 'DELETE /api/v1/runs/:id':
        return { path: fill(await this.freshRun()), init: { method, headers: h } };
      case 'PATCH /api/v1/runs/:id':
        return { path: fill(this.f.first), init: b.json(method, h, { label: BY }) };
      case 'POST /api/v1/runs/:id/share-links':
        return { path: fill(this.f.first), init: b.json(method, h, { days: 2 }) };
      case 'POST /runs/:id/certification/share':
        return { path: fill(this.f.first), init: b.form(h, { days: '2' }) };
      case 'DELETE /api/v1/share-links/:id':
        return { path: fill(await this.freshLink()), init: { method, headers: h } };
      case 'POST /share-links/:id/revoke':
        return { path: fill(await this.freshLink()), init: b.form(h, {}) };
      case 'GET /badges/:org/:badge':
        return { path: this.certified.badge, init: { headers: h } };
    }
    if (method !== 'GET') return undefined;
    if (/^(\/api\/v1)?\/submissions\/:id/.test(pattern)) return get(this.certified.submission);
    if (pattern.startsWith('/certified/runs/:id')) return get(this.certified.run.id);
    if (pattern.startsWith('/s/:token')) return get(this.shareToken);
    if (/^(\/api\/v1)?\/runs\/:id\/(submissions|share-links|certification)$/.test(pattern)) return get(this.f.first);
    if (['/api/v1/certifying-bodies', '/api/v1/certified', '/api/v1/submissions'].includes(pattern)) return get('');
    if (['/certification', '/certified/implementations'].includes(pattern)) return get('');
    return undefined;
  }
}
