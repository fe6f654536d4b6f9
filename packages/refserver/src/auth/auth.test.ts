import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../app-types.js';
import { BASIC, call, testApp } from '../testing/test-client.js';

let clock = new Date('2025-03-10T12:00:00Z');
let app: App;
function start(options: Parameters<typeof testApp>[0] = {}) {
  clock = new Date('2025-03-10T12:00:00Z');
  app = testApp({ now: () => clock, sessionTtl: 60, tokenTtl: 120, ...options });
  return app;
}
afterEach(() => app.close());

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const get = (headers: Record<string, string>, url = '/api/1/CUVc') => call(app, 'GET', url, { auth: false, headers });
const cookieOf = (setCookie: string | string[] | undefined) => String(setCookie).split(';')[0]!;
const form = (pairs: Record<string, string>) => ({
  'content-type': 'application/x-www-form-urlencoded',
  body: new URLSearchParams(pairs).toString(),
});
async function token(pairs: Record<string, string>, headers: Record<string, string> = {}) {
  const { body, ...h } = form(pairs);
  const res = await call(app, 'POST', '/oauth-token', { auth: false, body, headers: { ...h, ...headers } });
  return { status: res.status, json: JSON.parse(res.text) as Record<string, string | number>, headers: res.headers };
}

describe('HTTP Basic and the HSESSION cookie (record-rest-api.md §5)', () => {
  it.each([
    ['no credentials', {}],
    ['a wrong password', { authorization: basic('erpcert', 'wrong') }],
    ['a wrong user', { authorization: basic('someone', 'erpcert') }],
    ['a malformed Basic value', { authorization: 'Basic !!!' }],
    ['an unknown scheme', { authorization: 'Digest x' }],
    ['an unknown cookie', { cookie: 'HSESSION=nope' }],
  ])('refuses %s with 401 and a Basic challenge', async (_name, headers) => {
    start();
    const res = await get(headers);
    expect(res.status).toBe(401);
    expect(res.headers['WWW-Authenticate']).toBe('Basic realm="erpcert"');
    expect(res.text).toContain('<error code="1006"');
    expect(res.headers['Set-Cookie']).toBeUndefined();
  });

  it('issues HSESSION on a Basic request and accepts the cookie alone afterwards', async () => {
    start();
    const first = await get({ authorization: BASIC });
    expect(first.status).toBe(200);
    const cookie = cookieOf(first.headers['Set-Cookie']);
    expect(cookie).toMatch(/^HSESSION=[\w-]{20,}$/);
    const second = await get({ cookie });
    expect(second.status).toBe(200);
    expect(second.headers['Set-Cookie']).toBeUndefined();
    const withBoth = await get({ cookie, authorization: BASIC });
    expect(withBoth.headers['Set-Cookie']).toBeUndefined();
  });

  it('honours custom credentials', async () => {
    start({ user: 'u1', password: 'p:w' });
    expect((await get({ authorization: basic('u1', 'p:w') })).status).toBe(200);
    expect((await get({ authorization: BASIC })).status).toBe(401);
  });

  it('expires an idle session after --session-ttl; each use extends it', async () => {
    start();
    const cookie = cookieOf((await get({ authorization: BASIC }, '/api/1/')).headers['Set-Cookie']);
    clock = new Date(clock.getTime() + 50_000);
    expect((await get({ cookie })).status).toBe(200);
    clock = new Date(clock.getTime() + 50_000);
    expect((await get({ cookie })).status).toBe(200);
    clock = new Date(clock.getTime() + 61_000);
    expect((await get({ cookie })).status).toBe(401);
  });

  it('refuses a wrong Authorization even with a live cookie', async () => {
    start();
    const cookie = cookieOf((await get({ authorization: BASIC })).headers['Set-Cookie']);
    expect((await get({ cookie, authorization: basic('erpcert', 'bad') })).status).toBe(401);
  });
});

describe('OAuth 2.0: the local authorization server', () => {
  it('client_credentials gives a bearer token accepted on /api/ until it expires', async () => {
    start();
    const t = await token({
      grant_type: 'client_credentials',
      client_id: 'erpcert-client',
      client_secret: 'erpcert-secret',
    });
    expect(t.status).toBe(200);
    expect(t.json).toMatchObject({ token_type: 'Bearer', expires_in: 120 });
    expect(t.headers['Cache-Control']).toBe('no-store');
    const auth = { authorization: `Bearer ${t.json.access_token}` };
    const res = await get(auth);
    expect(res.status).toBe(200);
    expect(res.headers['Set-Cookie']).toBeUndefined();
    clock = new Date(clock.getTime() + 121_000);
    expect((await get(auth)).status).toBe(401);
  });

  it('takes client credentials in a Basic header too', async () => {
    start();
    const t = await token(
      { grant_type: 'client_credentials' },
      { authorization: basic('erpcert-client', 'erpcert-secret') },
    );
    expect(t.status).toBe(200);
  });

  it('authorization code: auto-approved redirect with code and state, one exchange only', async () => {
    start();
    const redirect = 'http://127.0.0.1:9/callback?x=1';
    const auth = await call(
      app,
      'GET',
      `/oauth-authorize?response_type=code&client_id=erpcert-client&state=s%201&redirect_uri=${encodeURIComponent(redirect)}`,
      { auth: false },
    );
    expect(auth.status).toBe(302);
    const location = new URL(String(auth.headers.Location));
    expect(`${location.origin}${location.pathname}`).toBe('http://127.0.0.1:9/callback');
    expect(location.searchParams.get('x')).toBe('1');
    expect(location.searchParams.get('state')).toBe('s 1');
    const code = location.searchParams.get('code')!;
    const grant = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      client_id: 'erpcert-client',
      client_secret: 'erpcert-secret',
    };
    const t = await token(grant);
    expect(t.status).toBe(200);
    expect((await get({ authorization: `Bearer ${t.json.access_token}` })).status).toBe(200);
    expect((await token(grant)).json.error).toBe('invalid_grant');
  });

  it('checks a PKCE S256 verifier', async () => {
    start();
    const verifier = 'a-verifier-with-enough-entropy-0123456789';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const redirect = 'https://app.example/cb';
    const auth = await call(
      app,
      'GET',
      `/oauth-authorize?response_type=code&client_id=erpcert-client&redirect_uri=${encodeURIComponent(redirect)}&code_challenge=${challenge}&code_challenge_method=S256`,
      { auth: false },
    );
    const code = new URL(String(auth.headers.Location)).searchParams.get('code')!;
    const base = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      client_id: 'erpcert-client',
      client_secret: 'erpcert-secret',
    };
    expect((await token({ ...base, code_verifier: 'wrong' })).json.error).toBe('invalid_grant');
    const auth2 = await call(
      app,
      'GET',
      `/oauth-authorize?response_type=code&client_id=erpcert-client&redirect_uri=${encodeURIComponent(redirect)}&code_challenge=${challenge}&code_challenge_method=S256`,
      { auth: false },
    );
    const code2 = new URL(String(auth2.headers.Location)).searchParams.get('code')!;
    expect((await token({ ...base, code: code2, code_verifier: verifier })).status).toBe(200);
  });

  it.each([
    [
      'a wrong secret',
      { grant_type: 'client_credentials', client_id: 'erpcert-client', client_secret: 'x' },
      401,
      'invalid_client',
    ],
    [
      'an unknown grant',
      { grant_type: 'password', client_id: 'erpcert-client', client_secret: 'erpcert-secret' },
      400,
      'unsupported_grant_type',
    ],
    [
      'an unknown code',
      {
        grant_type: 'authorization_code',
        code: 'x',
        redirect_uri: 'http://a/',
        client_id: 'erpcert-client',
        client_secret: 'erpcert-secret',
      },
      400,
      'invalid_grant',
    ],
  ])('token endpoint refuses %s', async (_name, pairs, status, error) => {
    start();
    const t = await token(pairs);
    expect(t.status).toBe(status);
    expect(t.json.error).toBe(error);
  });

  it.each([
    ['an unknown client', 'response_type=code&client_id=x&redirect_uri=http%3A%2F%2Fa%2F', 400],
    ['a relative redirect', 'response_type=code&client_id=erpcert-client&redirect_uri=%2Fcb', 400],
    ['a javascript: redirect', 'response_type=code&client_id=erpcert-client&redirect_uri=javascript%3Aalert(1)', 400],
    ['another response type', 'response_type=token&client_id=erpcert-client&redirect_uri=http%3A%2F%2Fa%2F', 302],
  ])('authorize endpoint answers %s with %s', async (_name, query, status) => {
    start();
    const res = await call(app, 'GET', `/oauth-authorize?${query}`, { auth: false });
    expect(res.status).toBe(status);
    if (status === 302) expect(String(res.headers.Location)).toContain('error=unsupported_response_type');
  });

  it('a mounted handler can refuse bearer tokens (the portal accepts Basic and HSESSION only)', async () => {
    start();
    app.mount('/WebErpAPI.hal', (req, a) => {
      a.authenticate(req, { allowBearer: false });
      return { status: 200, headers: {}, body: Buffer.from('ok') };
    });
    const t = await token({
      grant_type: 'client_credentials',
      client_id: 'erpcert-client',
      client_secret: 'erpcert-secret',
    });
    const refused = await get({ authorization: `Bearer ${t.json.access_token}` }, '/WebErpAPI.hal?action=login');
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('bearer');
    expect((await get({ authorization: BASIC }, '/WebErpAPI.hal?action=login')).text).toBe('ok');
  });
});

describe('the client allow-list (record-rest-api.md §5)', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1', 200],
    ['127.0.0.1', '10.0.0.1', 403],
    ['10.0.0.0/8,192.168.1.5', '10.20.30.40', 200],
    ['10.0.0.0/8,192.168.1.5', '::ffff:192.168.1.5', 200],
    ['192.168.1.10-192.168.1.20', '192.168.1.15', 200],
    ['192.168.1.10-192.168.1.20', '192.168.1.21', 403],
    ['127.0.0.1', '::1', 200],
    ['::1', '127.0.0.1', 200],
  ])('--allow %s: client %s gets %s', async (allow, client, status) => {
    start({ allow });
    const res = await call(app, 'GET', '/api/1/CUVc', { remoteAddress: client });
    expect(res.status).toBe(status);
    if (status === 403) expect(res.text).toContain('allow-list');
  });

  it('refuses before authentication, on every path', async () => {
    start({ allow: '10.0.0.1' });
    expect((await call(app, 'GET', '/oauth-token', { auth: false, remoteAddress: '10.0.0.2' })).status).toBe(403);
  });
});

describe('OAuth refresh tokens (issue 21: a calendar needs one before it treats OAuth as configured)', () => {
  const CLIENT = { client_id: 'erpcert-client', client_secret: 'erpcert-secret' };

  it('answers a refresh_token with the access token; grant_type=refresh_token gives a new working access token', async () => {
    start();
    const first = await token({ grant_type: 'client_credentials', ...CLIENT });
    expect(first.status).toBe(200);
    expect(first.json.refresh_token).toMatch(/^[\w-]{20,}$/);
    expect(first.json.refresh_token).not.toBe(first.json.access_token);
    // the access token expires (tokenTtl 120 s); the refresh token still gets a new one
    clock = new Date(clock.getTime() + 200_000);
    expect((await get({ authorization: `Bearer ${first.json.access_token}` })).status).toBe(401);
    const again = await token({
      grant_type: 'refresh_token',
      refresh_token: String(first.json.refresh_token),
      ...CLIENT,
    });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ token_type: 'Bearer', refresh_token: first.json.refresh_token });
    expect(again.json.access_token).not.toBe(first.json.access_token);
    expect((await get({ authorization: `Bearer ${again.json.access_token}` })).status).toBe(200);
  });

  it.each([
    ['an unknown refresh token', 'no-such-token'],
    ['an access token in its place', undefined],
  ])('refuses %s with invalid_grant', async (_name, given) => {
    start();
    const first = await token({ grant_type: 'client_credentials', ...CLIENT });
    const refresh = given ?? String(first.json.access_token);
    const res = await token({ grant_type: 'refresh_token', refresh_token: refresh, ...CLIENT });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_grant');
  });
});
