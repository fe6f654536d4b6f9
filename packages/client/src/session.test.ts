import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type ErpClient } from './client.js';
import type { Clock } from './clock.js';
import { ConfigError, HttpStatusError } from './errors.js';
import {
  httpResponse,
  jsonResponse,
  type RawServer,
  type RecordedRequest,
  startRawServer,
  xmlResponse,
} from './testing/raw-server.js';

const OK = xmlResponse('<data register="IVVc" sequence="1" systemversion="1"/>');
const BASIC = `Basic ${Buffer.from('alice:pw-secret').toString('base64')}`;
const UNAUTHORIZED = httpResponse({ status: 401, reason: 'Unauthorized', headers: { 'WWW-Authenticate': 'Basic' } });

let server: RawServer | undefined;
let client: ErpClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
});

/** A server that opens session s<N> on each Basic request and accepts the cookies in `live`. */
async function sessionServer(live: Set<string>, opts: { noCookies?: boolean } = {}) {
  let n = 0;
  server = await startRawServer((req) => {
    if (req.headers.authorization === BASIC) {
      if (opts.noCookies) return OK;
      const id = `session-${++n}-xyz`;
      live.add(id);
      return xmlResponse('<data register="IVVc" sequence="1" systemversion="1"/>', {
        'Set-Cookie': `HSESSION=${id}; Path=/`,
      });
    }
    const cookie = /HSESSION=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    return cookie && live.has(cookie) ? OK : UNAUTHORIZED;
  });
  client = createClient({ baseUrl: server.url, auth: { user: 'alice', password: 'pw-secret' }, useSession: true });
  return { client, requests: server.requests };
}

const how = (r: RecordedRequest) =>
  r.headers.authorization ? 'basic' : r.headers.cookie ? `cookie ${r.headers.cookie}` : 'none';

describe('HSESSION session', () => {
  it('logs in once with Basic, then sends only the cookie', async () => {
    const { client: c, requests } = await sessionServer(new Set());
    await c.rest.list('IVVc');
    await c.rest.list('IVVc');
    await c.portal.call('action_getrecordlinks', {});
    expect(requests.map(how)).toEqual(['basic', 'cookie HSESSION=session-1-xyz', 'cookie HSESSION=session-1-xyz']);
    expect(c.sessionId).toBe('session-1-xyz');
  });

  it('lets concurrent first calls wait for the one that opens the session', async () => {
    const { client: c, requests } = await sessionServer(new Set());
    await Promise.all([c.rest.list('IVVc'), c.rest.list('IVVc'), c.rest.list('IVVc')]);
    expect(requests.map(how)).toEqual(['basic', 'cookie HSESSION=session-1-xyz', 'cookie HSESSION=session-1-xyz']);
  });

  it('logs in again once when the session is refused', async () => {
    const live = new Set<string>();
    const { client: c, requests } = await sessionServer(live);
    await c.rest.list('IVVc');
    live.clear(); // the server forgot the session
    const env = await c.rest.list('IVVc');
    expect(env.records).toEqual([]);
    expect(requests.map(how)).toEqual(['basic', 'cookie HSESSION=session-1-xyz', 'basic']);
    expect(c.sessionId).toBe('session-2-xyz');
  });

  it('does not loop when the fresh login is refused too', async () => {
    let first = true;
    server = await startRawServer((req) => {
      if (first && req.headers.authorization) {
        first = false;
        return xmlResponse('<data/>', { 'Set-Cookie': 'HSESSION=s-0001; Path=/' });
      }
      return UNAUTHORIZED;
    });
    client = createClient({ baseUrl: server.url, auth: { user: 'alice', password: 'pw-secret' }, useSession: true });
    await client.rest.list('IVVc');
    const err = await client.rest.list('IVVc').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect((err as HttpStatusError).status).toBe(401);
    expect(server.requests.map(how)).toEqual(['basic', 'cookie HSESSION=s-0001', 'basic']);
  });

  it('falls back to Basic on every call when the server opens no session', async () => {
    const { client: c, requests } = await sessionServer(new Set(), { noCookies: true });
    await c.rest.list('IVVc');
    await Promise.all([c.rest.list('IVVc'), c.rest.list('IVVc')]);
    expect(requests.map(how)).toEqual(['basic', 'basic', 'basic']);
  });

  it('portal login() opens a fresh session with Basic even when one is open', async () => {
    const { client: c, requests } = await sessionServer(new Set());
    await c.rest.list('IVVc');
    // the server answers the login with OK, which is no login result: the client then says so
    await c.portal.login().catch(() => undefined);
    expect(requests.map(how)).toEqual(['basic', 'basic']);
    expect(c.sessionId).toBe('session-2-xyz');
  });
});

describe('per-call auth override', () => {
  it.each([
    { auth: 'none' as const, want: 'none' },
    { auth: { cookie: 'given-cookie' }, want: 'cookie HSESSION=given-cookie' },
    { auth: { user: 'bob', password: 'other-pw' }, want: 'basic' },
  ])('sends $want and leaves the session alone', async ({ auth, want }) => {
    const { client: c, requests } = await sessionServer(new Set(['given-cookie']));
    await c.rest.list('IVVc', {}, { auth }).catch(() => undefined);
    expect(requests.map(how)).toEqual([want]);
    expect(c.sessionId).toBeUndefined();
  });
});

describe('bearer and OAuth 2.0 (REST only)', () => {
  it('sends a fixed bearer token on REST and refuses the portal without sending', async () => {
    server = await startRawServer(() => OK);
    client = createClient({ baseUrl: server.url, auth: { bearer: 'fixed-token-1' } });
    await client.rest.list('IVVc');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer fixed-token-1');
    await expect(client.portal.login()).rejects.toBeInstanceOf(ConfigError);
    expect(server.requests).toHaveLength(1);
  });

  it('fetches a client-credentials token once, caches it, renews it after expiry and after a 401', async () => {
    let issued = 0;
    let live = '';
    server = await startRawServer((req) => {
      if (req.target === '/auth/oauth-token') {
        live = `token-${++issued}-abc`;
        return jsonResponse({ access_token: live, token_type: 'Bearer', expires_in: 90 });
      }
      return req.headers.authorization === `Bearer ${live}` ? OK : UNAUTHORIZED;
    });
    let now = 0;
    const clock: Clock = { now: () => now, sleep: async () => {} };
    client = createClient({
      baseUrl: server.url,
      clock,
      auth: {
        oauth: { authUrl: `${server.url}/auth/`, clientId: 'my client', clientSecret: 's3cret:x', scope: 'api' },
      },
    });
    await client.rest.list('IVVc');
    await client.rest.list('IVVc');
    const token = server.requests[0]!;
    expect(token.method).toBe('POST');
    expect(token.body.toString()).toBe('grant_type=client_credentials&scope=api');
    // RFC 6749 §2.3.1: id and secret form-encoded before base64
    expect(token.headers.authorization).toBe(`Basic ${Buffer.from('my+client:s3cret%3Ax').toString('base64')}`);
    expect(issued).toBe(1);
    now = 61_000; // expires_in 90 s, renewed 30 s early
    await client.rest.list('IVVc');
    expect(issued).toBe(2);
    live = 'revoked';
    await client.rest.list('IVVc');
    expect(issued).toBe(3);
    expect(server.requests.map((r) => r.target)).toEqual([
      '/auth/oauth-token',
      '/api/1/IVVc',
      '/api/1/IVVc',
      '/auth/oauth-token',
      '/api/1/IVVc',
      '/api/1/IVVc',
      '/auth/oauth-token',
      '/api/1/IVVc',
    ]);
  });

  it('refuses useSession without Basic credentials', () => {
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:1', auth: { bearer: 't' }, useSession: true })).toThrow(
      ConfigError,
    );
  });
});
