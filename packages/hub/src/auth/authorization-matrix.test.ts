/**
 * Every route of the hub, from the router itself, against the authorization matrix (authorization-matrix.ts): a
 * route without a row fails, and each caller's answer to each route is sent and checked. Requests that would spend
 * a shared object (delete a target, revoke a token, sign a session out) get a fresh one each time.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseTargetGuard } from '@erpcert/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubApp } from '../api/hub-app.js';
import { JobQueue } from '../live/job-queue.js';
import { SavedTargets } from '../live/saved-targets.js';
import { SecretBox } from '../live/secret-box.js';
import { type AuthFixture, type Person, seedAuth, TEST_PASSWORD } from '../testing/auth-fixture.js';
import { CertificationMatrix } from '../testing/certification-matrix.js';
import { ERP_URL, type PageFixture, seedPageFixture } from '../testing/page-fixture.js';
import { conformanceFolderFiles, sampleConformance } from '../testing/sample-runs.js';
import { testKey } from '../testing/sign-files.js';
import { freshStore, type TestStore } from '../testing/test-databases.js';
import { testResolver } from '../testing/test-resolver.js';
import { zipFiles } from '../testing/zip-writer.js';
import {
  type AnswerClass,
  AUTHORIZATION_MATRIX,
  CALLERS,
  type Caller,
  CERTIFICATION_ROUTES,
  expectedClass,
} from './authorization-matrix.js';
import { oidcSettings } from './oidc/oidc-settings.js';
import { csrfTokenOf, SESSION_COOKIE } from './sessions.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']);
/** Routes that are not endpoints: a wildcard path is middleware (the live forms' body limit) or the catch-all 404. */
const isEndpoint = (path: string) => !path.endsWith('*');

/**
 * An OpenID Connect provider that only answers discovery (the start route needs no more: it redirects there), on
 * 127.0.0.1 port 0.
 */
async function discoveryOnly(): Promise<{ server: Server; issuer: string }> {
  let issuer = '';
  const server = createServer((req, res) => {
    if (req.url !== '/.well-known/openid-configuration') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, issuer };
}

interface Built {
  readonly path: string;
  readonly init: RequestInit;
  /** The request ends the caller's sessions: open them again afterwards. */
  readonly closesAll?: boolean;
}

describe('the authorization matrix', () => {
  let t: TestStore;
  let app: ReturnType<typeof createHubApp>;
  let fx: AuthFixture;
  let f: PageFixture;
  let targets: SavedTargets;
  let queue: JobQueue;
  let saved = 0;
  let endedJob = 0;
  let n = 0;
  let provider: Server | undefined;
  let certification: CertificationMatrix;
  /** The session of each person caller (fresh ones replace those a sign-out ended). */
  const sessions = new Map<Caller, string>();

  beforeAll(async () => {
    t = await freshStore('sqlite');
    fx = await seedAuth(t.store);
    f = await seedPageFixture(t.store);
    targets = new SavedTargets(
      t.store.db,
      new SecretBox('matrix-secret-0123456789abcdef'),
      undefined,
      parseTargetGuard(undefined, testResolver()),
    );
    queue = new JobQueue(t.store.db, t.store.dialect);
    const discovery = await discoveryOnly();
    provider = discovery.server;
    const oidc = {
      settings: oidcSettings({
        issuer: discovery.issuer,
        clientId: 'matrix',
        clientSecret: 'matrix-oidc-secret',
        redirectUri: 'http://127.0.0.1:8480/auth/oidc/callback',
      }),
    };
    app = createHubApp({ store: t.store, auth: fx.auth, live: { queue, targets }, oidc, log: () => {} });
    // the sample runs' target, saved: it can be rerun
    saved = (await targets.save({ url: ERP_URL }, fx.org)).id;
    endedJob = (await queue.enqueue(saved, { kind: 'conformance', profile: 'gate', only: [] })).id;
    await queue.requestCancel(endedJob);
    for (const c of CALLERS) if (c in fx.users) sessions.set(c, fx.users[c as Person].session);
    certification = await CertificationMatrix.seed(t.store, fx, f);
  });
  afterAll(async () => {
    await t?.dispose();
    provider?.closeAllConnections();
    await new Promise<void>((r) => (provider ? provider.close(() => r()) : r()));
  });

  const userOf = (c: Caller) => (c in fx.users ? fx.users[c as Person] : undefined);
  const freshSession = async (c: Caller) => {
    const u = userOf(c);
    return u ? (await fx.auth.sessions.open(u.id, 'password')).secret : undefined;
  };
  /** The caller's headers; `secret` overrides a person's session. */
  const headersOf = (c: Caller, secret = sessions.get(c)): Record<string, string> => {
    if (c.startsWith('token-')) return fx.headers(c as `token-${'publish' | 'read' | 'run'}`);
    if (!secret) return {};
    return { cookie: `${SESSION_COOKIE}=${secret}`, 'x-csrf-token': csrfTokenOf(secret) };
  };
  const csrfOf = (h: Record<string, string>) => h['x-csrf-token'] ?? '';
  const json = (method: string, h: Record<string, string>, body: unknown): RequestInit => ({
    method,
    headers: { ...h, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const form = (h: Record<string, string>, fields: Record<string, string | string[]>): RequestInit => {
    const body = new URLSearchParams();
    body.set('csrf', csrfOf(h));
    for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) body.append(k, x);
    return { method: 'POST', headers: { ...h, 'content-type': 'application/x-www-form-urlencoded' }, body };
  };
  const zip = () =>
    new Uint8Array(zipFiles(conformanceFolderFiles(sampleConformance({ runTag: 'MATRIX' })), 'folder/'));
  const fresh = {
    saved: async () => (await targets.save({ url: `https://m${++n}.example` }, fx.org)).id,
    job: async () => (await queue.enqueue(saved, { kind: 'conformance', profile: 'gate', only: [] })).id,
    member: async () => {
      const u = await fx.auth.accounts.createUser(`member${++n}@example.com`);
      await fx.auth.accounts.setMembership(u.id, fx.org, 'viewer');
      return u.id;
    },
    token: async () =>
      (
        await fx.auth.tokens.create({
          organisationId: fx.org,
          name: `t${++n}`,
          scopes: ['read'],
          days: 1,
          createdBy: null,
        })
      ).token.id,
    link: () => fx.auth.accounts.createSignInLink(fx.users.viewer.id),
  };

  /**
   * The request of `caller` (with headers `h`) to `route`, with the ids of objects of the owning organisation. A new
   * organisation gets another first admin than the hub admin, who stays a member of none.
   */
  async function build(route: string, c: Caller, h = headersOf(c)): Promise<Built> {
    const [method = '', pattern = ''] = route.split(' ');
    const certifying = await certification.request(route, h, { json, form });
    if (certifying) return certifying;
    const org = fx.org;
    const fill = (p: string, ids: Record<string, string | number> = {}) =>
      p
        .replace(':path{.+}', 'results.json')
        .replace(':rule', 'REST.VERSION.PATH')
        .replace(':org', String(org))
        .replace(/:([a-z]+)/g, (_m, k: string) => String(ids[k] ?? ''));
    const runId = f.first;
    switch (route) {
      case 'POST /api/v1/session':
        return { path: pattern, init: json('POST', h, { email: fx.users.viewer.email, password: TEST_PASSWORD }) };
      case 'DELETE /api/v1/session':
        return { path: pattern, init: { method, headers: headersOf(c, await freshSession(c)) } };
      case 'POST /api/v1/session/everywhere':
        return { path: pattern, init: { method, headers: headersOf(c) }, closesAll: true };
      case 'POST /api/v1/organisations':
        return {
          path: pattern,
          init: json(method, h, { slug: `made-${++n}`, name: 'Made', adminEmail: `first${n}@example.com` }),
        };
      case 'PATCH /api/v1/organisations/:org':
        // the owning organisation stays a certifying body: certification's rows rely on it
        return { path: fill(pattern), init: json(method, h, { certifyingBody: true }) };
      case 'POST /organisations':
        return {
          path: pattern,
          init: form(h, { slug: `page-made-${++n}`, name: 'Made', adminEmail: `first${n}@example.com` }),
        };
      case 'POST /organisations/:org/certifying-body':
        return { path: fill(pattern), init: form(h, { certifyingBody: 'yes' }) };
      case 'POST /api/v1/organisations/:org/members':
        return { path: fill(pattern), init: json(method, h, { email: `new${++n}@example.com`, role: 'viewer' }) };
      case 'PUT /api/v1/organisations/:org/members/:user':
        return { path: fill(pattern, { user: await fresh.member() }), init: json(method, h, { role: 'engineer' }) };
      case 'DELETE /api/v1/organisations/:org/members/:user':
        return { path: fill(pattern, { user: await fresh.member() }), init: { method, headers: h } };
      case 'POST /api/v1/organisations/:org/tokens':
        return { path: fill(pattern), init: json(method, h, { name: 'ci', scopes: ['publish'], days: 7 }) };
      case 'DELETE /api/v1/organisations/:org/tokens/:token':
        return { path: fill(pattern, { token: await fresh.token() }), init: { method, headers: h } };
      case 'POST /api/v1/runs':
        return {
          path: pattern,
          init: { method, headers: { ...h, 'content-type': 'application/zip' }, body: zip() },
        };
      case 'GET /api/v1/compare':
      case 'GET /compare':
        return { path: `${pattern}?a=${f.first}&b=${f.second}`, init: { headers: h } };
      case 'GET /api/v1/matrix':
      case 'GET /matrix':
        return { path: `${pattern}?target=${f.erpTarget}&last=5`, init: { headers: h } };
      case 'POST /api/v1/keys':
        return { path: pattern, init: json(method, h, { name: 'vendor', pem: testKey().pem }) };
      case 'POST /api/v1/saved-targets':
        return { path: pattern, init: json(method, h, { url: `https://new${++n}.example` }) };
      case 'PUT /api/v1/saved-targets/:id':
        return { path: fill(pattern, { id: saved }), init: json(method, h, { name: 'renamed' }) };
      case 'DELETE /api/v1/saved-targets/:id':
        return { path: fill(pattern, { id: await fresh.saved() }), init: { method, headers: h } };
      case 'POST /api/v1/saved-targets/:id/live-runs':
        return { path: fill(pattern, { id: saved }), init: json(method, h, { kind: 'conformance' }) };
      case 'POST /api/v1/live-runs/:id/cancel':
        return { path: fill(pattern, { id: await fresh.job() }), init: { method, headers: h } };
      case 'POST /api/v1/runs/:id/rerun':
        return { path: fill(pattern, { id: runId }), init: json(method, h, { fails: true }) };
      case 'POST /sign-in':
        return { path: pattern, init: form(h, { email: fx.users.viewer.email, password: TEST_PASSWORD }) };
      case 'GET /sign-in/link':
        return { path: `${pattern}?token=${await fresh.link()}`, init: { headers: h } };
      case 'POST /sign-in/link':
        return { path: pattern, init: form(h, { token: await fresh.link() }) };
      case 'POST /sign-out':
        return { path: pattern, init: form(headersOf(c, await freshSession(c)), {}) };
      case 'POST /sign-out-everywhere':
        return { path: pattern, init: form(h, {}), closesAll: true };
      case 'POST /account/password':
        return { path: pattern, init: form(h, { password: TEST_PASSWORD }) };
      case 'POST /organisations/:org/members':
        return { path: fill(pattern), init: form(h, { email: `page${++n}@example.com`, role: 'viewer' }) };
      case 'POST /organisations/:org/members/:user':
        return { path: fill(pattern, { user: await fresh.member() }), init: form(h, { role: 'engineer' }) };
      case 'POST /organisations/:org/members/:user/remove':
        return { path: fill(pattern, { user: await fresh.member() }), init: form(h, {}) };
      case 'POST /organisations/:org/tokens':
        return { path: fill(pattern), init: form(h, { name: 'page token', scopes: ['read'], days: '7' }) };
      case 'POST /organisations/:org/tokens/:token/revoke':
        return { path: fill(pattern, { token: await fresh.token() }), init: form(h, {}) };
      case 'POST /saved-targets':
        return { path: pattern, init: form(h, { url: `https://page${++n}.example` }) };
      case 'POST /saved-targets/:id':
        return { path: fill(pattern, { id: saved }), init: form(h, { url: ERP_URL, name: 'renamed' }) };
      case 'POST /saved-targets/:id/delete':
        return { path: fill(pattern, { id: await fresh.saved() }), init: form(h, {}) };
      case 'POST /saved-targets/:id/conform':
        return { path: fill(pattern, { id: saved }), init: form(h, { profile: 'gate' }) };
      case 'POST /saved-targets/:id/load':
        return { path: fill(pattern, { id: saved }), init: form(h, { scenario: 'invoices', durationSeconds: '5' }) };
      case 'POST /live-runs/:id/cancel':
        return { path: fill(pattern, { id: await fresh.job() }), init: form(h, {}) };
      case 'POST /runs/:id/rerun':
        return { path: fill(pattern, { id: runId }), init: form(h, { fails: '1' }) };
      case 'POST /upload': {
        const body = new FormData();
        body.set('csrf', csrfOf(h));
        body.set('zip', new Blob([zip()], { type: 'application/zip' }), 'run.zip');
        return { path: pattern, init: { method, headers: h, body } };
      }
    }
    if (method !== 'GET') throw new Error(`no request built for ${route}`);
    const ids = {
      id: pattern.includes('/live-runs/')
        ? endedJob
        : pattern.includes('/saved-targets/')
          ? saved
          : pattern.includes('/targets/')
            ? f.erpTarget
            : runId,
    };
    return { path: fill(pattern, ids), init: { headers: h } };
  }

  function classOf(res: Response): AnswerClass | string {
    const location = res.headers.get('location') ?? '';
    if (res.status === 401 || (res.status === 303 && location.startsWith('/sign-in?'))) return 'u';
    if (res.status === 403) return 'd';
    if (res.status === 404) return 'h';
    if (res.status === 400) return 'r';
    if (res.status >= 200 && res.status < 400) return 'o';
    return `status ${res.status}`;
  }

  it('has a row for every route the router serves, and no row for a route it does not', () => {
    const served = new Set(
      app.routes.filter((r) => METHODS.has(r.method) && isEndpoint(r.path)).map((r) => `${r.method} ${r.path}`),
    );
    expect(
      [...served].filter((r) => !(r in AUTHORIZATION_MATRIX)),
      'routes without a row',
    ).toEqual([]);
    expect(
      Object.keys(AUTHORIZATION_MATRIX).filter((r) => !served.has(r)),
      'rows without a route',
    ).toEqual([]);
    for (const row of Object.values(AUTHORIZATION_MATRIX))
      expect(row).toMatch(new RegExp(`^[odhur]{${CALLERS.length}}$`));
  });

  it('answers every caller on every route as the matrix says', async () => {
    const wrong: string[] = [];
    for (const route of Object.keys(AUTHORIZATION_MATRIX))
      for (const caller of CALLERS) {
        const b = await build(route, caller);
        const res = await app.request(b.path, b.init);
        const got = classOf(res);
        const want = expectedClass(route, caller);
        if (got !== want) wrong.push(`${route} as ${caller}: ${got}, the matrix says ${want} (${await res.text()})`);
        else await res.body?.cancel();
        if (b.closesAll) {
          const fresh = await freshSession(caller);
          if (fresh) sessions.set(caller, fresh);
        }
      }
    expect(wrong).toEqual([]);
  }, 120_000);

  it("answers a certifier of another certifying body as the outsider on certification's routes", async () => {
    // the outsider's organisation certifies too; its certifier may review only what was submitted to it
    const u = await fx.auth.accounts.createUser('rival-certifier@example.com');
    await fx.auth.accounts.setMembership(u.id, fx.rival, 'certifier');
    const secret = (await fx.auth.sessions.open(u.id, 'password')).secret;
    const h = { cookie: `${SESSION_COOKIE}=${secret}`, 'x-csrf-token': csrfTokenOf(secret) };
    const wrong: string[] = [];
    for (const route of CERTIFICATION_ROUTES) {
      const b = await build(route, 'outsider', h);
      const res = await app.request(b.path, b.init);
      const got = classOf(res);
      const want = expectedClass(route, 'outsider');
      if (got !== want) wrong.push(`${route}: ${got}, the outsider gets ${want} (${await res.text()})`);
      else await res.body?.cancel();
    }
    expect(wrong).toEqual([]);
    expect(CERTIFICATION_ROUTES.map((r) => expectedClass(r, 'outsider'))).toContain('h');
  }, 60_000);
});
