/**
 * Sign-in, cookies, sign-out, the throttle and CSRF over HTTP (in-process `app.request`), with an injected clock;
 * and the audit log: who signed in or failed, with planted secrets (passwords, tokens, links, sessions) that must
 * reach neither the log nor its API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubApp } from '../api/hub-app.js';
import { type AuthFixture, seedAuth, TEST_PASSWORD, TEST_SCRYPT } from '../testing/auth-fixture.js';
import { freshStore, type TestStore } from '../testing/test-databases.js';
import { hubAuth } from './hub-auth.js';
import { SESSION_COOKIE } from './sessions.js';

const SIGN_IN_ROUTES = new Set(['POST /api/v1/session', 'POST /sign-in', 'POST /sign-in/link']);
const PLANTED_PASSWORD = 'PLANTED-password-9c1e-never-logged';

describe('sessions, the throttle and CSRF over HTTP', () => {
  let t: TestStore;
  let fx: AuthFixture;
  let clock = new Date('2026-11-27T09:00:00.000Z');
  let app: ReturnType<typeof createHubApp>;
  let proxied: ReturnType<typeof createHubApp>;
  const answers: string[] = [];

  beforeAll(async () => {
    t = await freshStore('sqlite');
    const auth = hubAuth(t.store.db, { now: () => clock, scrypt: TEST_SCRYPT });
    fx = await seedAuth(t.store, auth);
    app = createHubApp({ store: t.store, auth, log: () => {} });
    proxied = createHubApp({
      store: t.store,
      auth: hubAuth(t.store.db, { now: () => clock, scrypt: TEST_SCRYPT, trustProxy: true }),
      log: () => {},
    });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const signIn = async (email: string, password: string, headers: Record<string, string> = {}, on = app) => {
    const res = await on.request('/api/v1/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email, password }),
    });
    answers.push(await res.clone().text());
    return res;
  };

  it('signs in with a session cookie: HttpOnly, SameSite=Lax, Path=/; Secure with the __Host- name behind TLS', async () => {
    const res = await signIn(fx.users.viewer.email, TEST_PASSWORD);
    expect(res.status).toBe(201);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=ehs_[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Lax$`));
    const body = (await res.json()) as {
      user: { email: string };
      organisations: { role: string }[];
      csrfToken: string;
    };
    expect(body.user.email).toBe(fx.users.viewer.email);
    expect(body.organisations.map((o) => o.role)).toEqual(['viewer']);
    const me = await app.request('/api/v1/session', { headers: { cookie: cookie.split(';')[0] as string } });
    expect(((await me.json()) as { csrfToken: string }).csrfToken).toBe(body.csrfToken);

    // X-Forwarded-Proto counts only from a trusted proxy
    const spoofed = await signIn(fx.users.viewer.email, TEST_PASSWORD, { 'x-forwarded-proto': 'https' });
    expect(spoofed.headers.get('set-cookie')).not.toMatch(/Secure/);
    const behind = await signIn(fx.users.viewer.email, TEST_PASSWORD, { 'x-forwarded-proto': 'https' }, proxied);
    expect(behind.headers.get('set-cookie')).toMatch(
      /^__Host-erpcert_session=ehs_[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  it('answers a wrong email and a wrong password alike; slows repeated failures down (429 with Retry-After)', async () => {
    const wrongEmail = await signIn('nobody@example.com', TEST_PASSWORD);
    const wrongPassword = await signIn(fx.users.engineer.email, PLANTED_PASSWORD);
    expect([wrongEmail.status, wrongPassword.status]).toEqual([401, 401]);
    expect(await wrongEmail.json()).toEqual(await wrongPassword.json());
    await signIn(fx.users.engineer.email, `${PLANTED_PASSWORD}2`);
    await signIn(fx.users.engineer.email, `${PLANTED_PASSWORD}3`);
    // three failures: even the right password waits a second now
    const slowed = await signIn(fx.users.engineer.email, TEST_PASSWORD);
    expect(slowed.status).toBe(429);
    expect(slowed.headers.get('retry-after')).toBe('1');
    clock = new Date(clock.getTime() + 1000);
    expect((await signIn(fx.users.engineer.email, TEST_PASSWORD)).status).toBe(201);
  });

  it('signs out one session, and everywhere', async () => {
    const cookieOf = async () =>
      ((await signIn(fx.users.certifier.email, TEST_PASSWORD)).headers.get('set-cookie') ?? '').split(';')[0] as string;
    const csrfOf = async (cookie: string) =>
      ((await (await app.request('/api/v1/session', { headers: { cookie } })).json()) as { csrfToken: string })
        .csrfToken;
    const one = await cookieOf();
    const two = await cookieOf();
    const out = await app.request('/api/v1/session', {
      method: 'DELETE',
      headers: { cookie: one, 'x-csrf-token': await csrfOf(one) },
    });
    expect(out.status).toBe(204);
    expect((await app.request('/api/v1/session', { headers: { cookie: one } })).status).toBe(401);
    expect((await app.request('/api/v1/session', { headers: { cookie: two } })).status).toBe(200);
    const three = await cookieOf();
    const everywhere = await app.request('/api/v1/session/everywhere', {
      method: 'POST',
      headers: { cookie: three, 'x-csrf-token': await csrfOf(three) },
    });
    expect(everywhere.status).toBe(204);
    for (const c of [two, three])
      expect((await app.request('/api/v1/session', { headers: { cookie: c } })).status).toBe(401);
  });

  it('refuses every state-changing request by cookie without the CSRF token, with a wrong one, or from another site', async () => {
    const admin = fx.users.admin;
    const cookie = `${SESSION_COOKIE}=${admin.session}`;
    const unsafe = app.routes
      .filter((r) => ['POST', 'PUT', 'DELETE', 'PATCH'].includes(r.method))
      // a wildcard path is middleware (the live forms' body limit), not an endpoint
      .filter((r) => !r.path.endsWith('*'))
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => !SIGN_IN_ROUTES.has(r));
    expect(unsafe.length).toBeGreaterThan(25);
    const refusedBy = async (route: string, headers: Record<string, string>, csrfField?: string) => {
      const [method = 'POST', pattern = ''] = route.split(' ');
      const path = pattern.replace(/:[a-z]+(\{[^}]*\})?/g, '1');
      const api = path.startsWith('/api/');
      let body: string | FormData | URLSearchParams;
      let type: Record<string, string> = {};
      if (api) {
        body = '{}';
        type = { 'content-type': 'application/json' };
      } else if (path === '/upload') {
        const f = new FormData();
        if (csrfField !== undefined) f.set('csrf', csrfField);
        body = f;
      } else {
        body = new URLSearchParams(csrfField === undefined ? {} : { csrf: csrfField });
        type = { 'content-type': 'application/x-www-form-urlencoded' };
      }
      const res = await app.request(path, { method, headers: { cookie, ...type, ...headers }, body });
      return [route, res.status, (await res.text()).match(/CSRF|another site|another origin/)?.[0]];
    };
    for (const route of unsafe) {
      expect(await refusedBy(route, {})).toEqual([route, 403, 'CSRF']);
      expect(await refusedBy(route, { 'x-csrf-token': fx.users.viewer.csrf }, fx.users.viewer.csrf)).toEqual([
        route,
        403,
        'CSRF',
      ]);
      expect(
        await refusedBy(route, { 'x-csrf-token': admin.csrf, 'sec-fetch-site': 'cross-site' }, admin.csrf),
      ).toEqual([route, 403, 'another site']);
      expect(
        await refusedBy(
          route,
          { 'x-csrf-token': admin.csrf, origin: 'https://evil.example', host: 'hub.example' },
          admin.csrf,
        ),
      ).toEqual([route, 403, 'another origin']);
    }
    // the same session with its token is let through (a harmless request)
    const ok = await app.request('/api/v1/organisations/1/tokens', {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'planted', scopes: ['read'] }),
    });
    expect(ok.status).toBe(201);
    answers.push(await ok.text());
    // a bearer token is not a cookie: no CSRF token needed
    const bearer = await app.request('/api/v1/saved-targets/1/live-runs', {
      method: 'POST',
      headers: { ...fx.headers('token-run'), 'content-type': 'application/json' },
      body: '{"kind":"conformance"}',
    });
    expect(bearer.status).toBe(404);
    expect(await bearer.text()).not.toMatch(/CSRF/);
  });

  it('keeps sign-ins and failures in the audit log for the org admin, and no secret anywhere in it', async () => {
    const added = await app.request('/api/v1/organisations/1/members', {
      method: 'POST',
      headers: { ...fx.headers('admin'), 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'newcomer@example.com', role: 'engineer' }),
    });
    const link = ((await added.json()) as { signInLink: string }).signInLink;
    expect(link).toMatch(/^\/sign-in\/link\?token=ehl_/);
    const res = await app.request('/api/v1/organisations/1/audit?limit=500', { headers: fx.headers('admin') });
    expect(res.status).toBe(200);
    const { entries } = (await res.json()) as { entries: { actor: string; action: string; subject: string | null }[] };
    const has = (action: string, actor: RegExp) => entries.some((e) => e.action === action && actor.test(e.actor));
    expect(has('sign-in', /^user:\d+ viewer@example\.com$/)).toBe(true);
    expect(has('sign-in-failed', /^anonymous \(as engineer@example\.com\)$/)).toBe(true);
    expect(has('sign-in-refused', /engineer@example\.com/)).toBe(true);
    expect(has('sign-out-everywhere', /certifier@example\.com/)).toBe(true);
    expect(has('create-token', /admin@example\.com/)).toBe(true);
    expect(has('add-member', /admin@example\.com/)).toBe(true);
    // the rival's admin does not see this log
    expect((await app.request('/api/v1/organisations/1/audit', { headers: fx.headers('outsider') })).status).toBe(404);

    const secrets = [
      PLANTED_PASSWORD,
      TEST_PASSWORD,
      decodeURIComponent(link.split('token=')[1] as string),
      ...Object.values(fx.tokens),
      ...Object.values(fx.users).map((u) => u.session),
      ...answers.flatMap((a) => a.match(/eh[st]_[A-Za-z0-9_-]{43}/g) ?? []),
    ];
    const raw = `${await fx.auth.audit.raw()}${JSON.stringify(entries)}`;
    for (const s of secrets) expect(raw.includes(s), `a secret in the audit log: ${s.slice(0, 6)}…`).toBe(false);
    expect(secrets.length).toBeGreaterThan(10);
  });
});
