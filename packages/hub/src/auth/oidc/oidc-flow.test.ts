/**
 * OpenID Connect sign-in against a real provider (oidc-provider on 127.0.0.1), driven by HTTP with a cookie jar:
 * the code flow end to end, the identity and the memberships its groups give, and every way a sign-in is refused
 * (a tampered state, a replayed callback or nonce, another browser's callback, a denied consent, no mapped group, a
 * provider that does not answer). The client secret is planted and looked for in every answer and log line.
 */
import type { Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieBrowser } from '../../testing/cookie-browser.js';
import { signInAt, startAt, throughProvider } from '../../testing/oidc-sign-in.js';
import {
  closeServer,
  listenFirst,
  startTestProvider,
  type TestProvider,
  type TestUser,
} from '../../testing/oidc-test-provider.js';
import type { OidcIdentity } from './oidc-identity.js';
import { oidcRoutes, TRANSACTION_COOKIE } from './oidc-routes.js';
import { CALLBACK_PATH, type OidcSettingsInput, oidcSettings, START_PATH } from './oidc-settings.js';

const SECRET = 'planted-oidc-secret-7f3a9c2e51';
const CLIENT_ID = 'erpcert-hub-test';
const USERS: Record<string, TestUser> = {
  alice: {
    email: 'alice@acme.example',
    name: 'Alice Engineer',
    groups: ['erpcert:acme:engineer', 'erpcert:beta:viewer', 'staff'],
  },
  carol: { email: 'carol@cert.example', name: 'Carol Certifier', groups: ['cn=auditors,ou=groups,dc=cert'] },
  root: { email: 'root@hub.example', name: 'Root', groups: ['erpcert:admin'] },
  mallory: { email: 'mallory@else.example', name: 'Mallory', groups: ['staff', 'erpcert:acme:owner'] },
};

interface Rig {
  readonly hub: string;
  readonly provider: TestProvider;
  readonly server: Server;
  readonly signedIn: { identity: OidcIdentity; returnTo: string }[];
}

const logs: string[] = [];
const browsers: CookieBrowser[] = [];
function browser(): CookieBrowser {
  const b = new CookieBrowser();
  browsers.push(b);
  return b;
}

/** A hub with only the OIDC routes (onSignedIn answers the identity as JSON) and a provider that knows it. */
async function rig(extra: Partial<OidcSettingsInput> = {}, claimsInIdToken = false): Promise<Rig> {
  const { server, url: hub } = await listenFirst();
  const redirectUri = `${hub}${CALLBACK_PATH}`;
  const provider = await startTestProvider({
    clientId: CLIENT_ID,
    clientSecret: SECRET,
    redirectUri,
    users: USERS,
    claimsInIdToken,
  });
  const signedIn: Rig['signedIn'] = [];
  const settings = oidcSettings({
    issuer: provider.issuer,
    clientId: CLIENT_ID,
    clientSecret: SECRET,
    redirectUri,
    scopes: 'openid email profile groups',
    ...extra,
  });
  const app = new Hono();
  app.route(
    '/',
    oidcRoutes({
      settings,
      log: (line) => logs.push(line),
      onSignedIn: (c, identity, { returnTo }) => {
        signedIn.push({ identity, returnTo });
        return c.json({ identity, returnTo });
      },
    }),
  );
  server.on('request', getRequestListener(app.fetch));
  return { hub, provider, server, signedIn };
}

async function stop(r: Rig | undefined): Promise<void> {
  if (!r) return;
  await closeServer(r.server);
  await r.provider.close();
}

describe('OpenID Connect sign-in against oidc-provider', () => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig();
  });
  afterAll(async () => {
    await stop(r);
  });

  it('signs a user in by the code flow with PKCE, state and nonce: the identity and the memberships its groups give', async () => {
    const b = browser();
    const start = await b.request(`${r.hub}${START_PATH}?return=${encodeURIComponent('/runs/7?verdict=FAIL')}`);
    expect(start.status).toBe(302);
    const auth = new URL(start.headers.get('location') ?? '');
    expect(auth.origin).toBe(r.provider.issuer);
    expect(auth.searchParams.get('response_type')).toBe('code');
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(auth.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(auth.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(auth.searchParams.get('redirect_uri')).toBe(`${r.hub}${CALLBACK_PATH}`);
    const cookie = start.headers.getSetCookie().find((c) => c.startsWith(`${TRANSACTION_COOKIE}=`)) ?? '';
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\/auth\/oidc/);
    // the transaction's secrets stay on the server: the cookie holds none of them
    for (const p of ['state', 'nonce', 'code_challenge']) expect(cookie).not.toContain(auth.searchParams.get(p));

    const callback = await throughProvider(b, auth, 'alice');
    expect(callback.searchParams.get('code')).toBeTruthy();
    const done = await b.request(callback.href);
    expect(done.status).toBe(200);
    const { identity, returnTo } = JSON.parse(done.body) as { identity: OidcIdentity; returnTo: string };
    expect(returnTo).toBe('/runs/7?verdict=FAIL');
    expect(identity).toEqual({
      issuer: r.provider.issuer,
      subject: 'alice',
      email: 'alice@acme.example',
      emailVerified: true,
      name: 'Alice Engineer',
      groups: ['erpcert:acme:engineer', 'erpcert:beta:viewer', 'staff'],
      memberships: [
        { organisation: 'acme', role: 'engineer' },
        { organisation: 'beta', role: 'viewer' },
      ],
      admin: false,
      // the default admin group (erpcert:admin) is set: this sign-in decides the hub admin flag
      adminGroupSet: true,
    });
    expect(b.cookie(TRANSACTION_COOKIE)).toBeUndefined();
  });

  it('refuses a callback whose state was tampered with, and that sign-in cannot be finished afterwards', async () => {
    const b = browser();
    const before = r.signedIn.length;
    const callback = await signInAt(b, r.hub, 'alice');
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    const refused = await b.request(tampered.href);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('its state differs');
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    const genuine = await b.request(callback.href);
    expect(genuine.status).toBe(400);
    expect(genuine.body).toContain('This sign-in is not in progress in this browser');
    expect(r.signedIn.length).toBe(before);
  });

  it('refuses a replayed callback: the transaction (state, nonce, verifier) is used once', async () => {
    const b = browser();
    const callback = await signInAt(b, r.hub, 'alice');
    expect((await b.request(callback.href)).status).toBe(200);
    const before = r.signedIn.length;
    b.setCookie(TRANSACTION_COOKIE, 'made-up-id', '/auth/oidc');
    const again = await b.request(callback.href);
    expect(again.status).toBe(400);
    expect(again.body).toContain('not in progress');
    expect(r.signedIn.length).toBe(before);
  });

  it("refuses another browser's callback (no transaction cookie: a login CSRF)", async () => {
    const callback = await signInAt(browser(), r.hub, 'alice');
    const victim = browser();
    const refused = await victim.request(callback.href);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('not in progress in this browser');
  });

  it('refuses an ID token that carries the nonce of an earlier sign-in (nonce replay)', async () => {
    const first = browser();
    const earlier = await startAt(first, r.hub);
    await first.request((await throughProvider(first, earlier, 'alice')).href);
    const b = browser();
    const before = r.signedIn.length;
    const auth = await startAt(b, r.hub);
    // the same state and PKCE challenge as this browser's sign-in, but the nonce of the earlier one
    auth.searchParams.set('nonce', earlier.searchParams.get('nonce') ?? '');
    const refused = await b.request((await throughProvider(b, auth, 'alice')).href);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatch(/failed its checks: .*nonce/);
    expect(r.signedIn.length).toBe(before);
  });

  it('refuses, with a page, a user none of whose groups maps to an organisation', async () => {
    const b = browser();
    const before = r.signedIn.length;
    const refused = await b.request((await signInAt(b, r.hub, 'mallory')).href);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('none of your groups gives access to an organisation on this hub');
    expect(refused.body).toContain('mallory@else.example');
    expect(refused.body).toContain('erpcert:&lt;organisation&gt;:&lt;role&gt;');
    expect(r.signedIn.length).toBe(before);
  });

  it('says the sign-in was cancelled when the user denies it at the provider', async () => {
    const b = browser();
    const callback = await throughProvider(b, await startAt(b, r.hub), 'alice', { deny: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const page = await b.request(callback.href);
    expect(page.status).toBe(403);
    expect(page.body).toContain('cancelled or not allowed at the identity provider');
  });

  it('answers its pages with the security headers and never a stack', async () => {
    const b = browser();
    const page = await b.request(`${r.hub}/auth/oidc?return=//evil.example/x`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(page.body).toContain('Sign in with OpenID Connect');
    expect(page.body).toContain(`href="${START_PATH}"`);
    const noCookie = await b.request(`${r.hub}${CALLBACK_PATH}?code=x&state=y`);
    expect(noCookie.status).toBe(400);
    expect(noCookie.body).not.toMatch(/\bat .*\.(ts|js):\d+/);
  });
});

describe('OpenID Connect sign-in, claims in the ID token, an explicit group map and the admin group', () => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig({ groupMap: { 'cn=auditors,ou=groups,dc=cert': 'certbody:certifier' }, groupPrefix: '' }, true);
  });
  afterAll(async () => {
    await stop(r);
  });

  it.each([
    ['carol', [{ organisation: 'certbody', role: 'certifier' }], false],
    ['root', [], true],
  ] as const)('%s', async (login, memberships, admin) => {
    const b = browser();
    const done = await b.request((await signInAt(b, r.hub, login)).href);
    expect(done.status).toBe(200);
    const { identity } = JSON.parse(done.body) as { identity: OidcIdentity };
    expect(identity.memberships).toEqual(memberships);
    expect(identity.admin).toBe(admin);
    expect(identity.email).toBe(USERS[login]?.email);
  });

  it('with the pattern off, erpcert:<org>:<role> groups give nothing', async () => {
    const b = browser();
    expect((await b.request((await signInAt(b, r.hub, 'alice')).href)).status).toBe(403);
  });
});

describe('OpenID Connect sign-in when onSignedIn fails', () => {
  it('answers a 500 page that says nothing of the inside; the stack goes to the log', async () => {
    const { server, url: hub } = await listenFirst();
    const redirectUri = `${hub}${CALLBACK_PATH}`;
    const provider = await startTestProvider({ clientId: CLIENT_ID, clientSecret: SECRET, redirectUri, users: USERS });
    const settings = oidcSettings({
      issuer: provider.issuer,
      clientId: CLIENT_ID,
      clientSecret: SECRET,
      redirectUri,
      scopes: 'openid email profile groups',
    });
    const seenLog: string[] = [];
    const onSignedIn = () => {
      throw new Error('the accounts table is gone');
    };
    const app = new Hono().route('/', oidcRoutes({ settings, log: (l) => seenLog.push(l), onSignedIn }));
    server.on('request', getRequestListener(app.fetch));
    try {
      const b = browser();
      const page = await b.request((await signInAt(b, hub, 'alice')).href);
      expect(page.status).toBe(500);
      expect(page.body).toContain('an internal error, written to its log');
      expect(page.body).not.toContain('accounts table');
      expect(seenLog.join('\n')).toMatch(/the accounts table is gone\n\s+at /);
      logs.push(...seenLog);
    } finally {
      await closeServer(server);
      await provider.close();
    }
  });
});

describe('OpenID Connect sign-in with the provider down', () => {
  it('answers a clear 502 page at /start, and works once the provider is up', async () => {
    const { server: gone, url: issuer } = await listenFirst();
    await closeServer(gone);
    const { server, url: hub } = await listenFirst();
    const settings = oidcSettings({
      issuer,
      clientId: CLIENT_ID,
      clientSecret: SECRET,
      redirectUri: `${hub}${CALLBACK_PATH}`,
    });
    const app = new Hono().route(
      '/',
      oidcRoutes({ settings, log: (l) => logs.push(l), onSignedIn: (c) => c.text('in') }),
    );
    server.on('request', getRequestListener(app.fetch));
    try {
      const page = await browser().request(`${hub}${START_PATH}`);
      expect(page.status).toBe(502);
      expect(page.body).toContain(`The identity provider at ${issuer} did not answer`);
      expect(page.body).toContain('ECONNREFUSED');
    } finally {
      await closeServer(server);
    }
  });

  it('answers a clear 502 page at the callback when the provider went away during the sign-in', async () => {
    const r = await rig({ scopes: 'openid email profile groups' });
    try {
      const b = browser();
      const callback = await signInAt(b, r.hub, 'alice');
      await r.provider.close();
      const page = await b.request(callback.href);
      expect(page.status).toBe(502);
      expect(page.body).toContain(`The identity provider at ${r.provider.issuer} did not answer`);
      expect(r.signedIn).toEqual([]);
    } finally {
      await closeServer(r.server);
    }
  });
});

describe('the client secret', () => {
  it('is in no answer the tests saw and in no log line', () => {
    const basic = Buffer.from(`${CLIENT_ID}:${SECRET}`).toString('base64');
    const answers = browsers.flatMap((b) => b.seen);
    // a check that could fail: the tests above did see answers and log lines
    expect(answers.length).toBeGreaterThan(40);
    expect(logs.length).toBeGreaterThan(5);
    for (const s of answers) {
      const all = `${s.body}\n${[...s.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}`;
      expect(all).not.toContain(SECRET);
      expect(all).not.toContain(basic);
    }
    for (const line of logs) expect(line).not.toContain(SECRET);
  });
});
