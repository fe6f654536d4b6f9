/**
 * The OpenID Connect admin group against a real provider (oidc-provider on 127.0.0.1) and the whole hub
 * (createHubApp, its default sign-in seam): a sign-in with the group makes the user a hub admin, who may then make an
 * organisation; a sign-in without it takes the flag away again, at once for the sessions the user already has; both
 * changes are in the audit log.
 */
import type { Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubApp } from '../../api/hub-app.js';
import { type AuthFixture, seedAuth } from '../../testing/auth-fixture.js';
import { CookieBrowser } from '../../testing/cookie-browser.js';
import { signInAt } from '../../testing/oidc-sign-in.js';
import { closeServer, listenFirst, startTestProvider, type TestProvider } from '../../testing/oidc-test-provider.js';
import { freshStore, type TestStore } from '../../testing/test-databases.js';
import { SESSION_COOKIE } from '../sessions.js';
import { CALLBACK_PATH, oidcSettings } from './oidc-settings.js';

const CLIENT_ID = 'erpcert-hub-admin-test';
const SECRET = 'planted-oidc-admin-secret-5d1b';
/** The provider reads the groups at each sign-in: the test changes them in between. */
const op = { email: 'op@hub.example', name: 'Operator', groups: ['erpcert:admin', 'erpcert:default:viewer'] };

describe('the OpenID Connect admin group makes and unmakes hub admins', () => {
  let t: TestStore;
  let fx: AuthFixture;
  let server: Server;
  let hub: string;
  let provider: TestProvider;

  beforeAll(async () => {
    t = await freshStore('sqlite');
    fx = await seedAuth(t.store);
    ({ server, url: hub } = await listenFirst());
    provider = await startTestProvider({
      clientId: CLIENT_ID,
      clientSecret: SECRET,
      redirectUri: `${hub}${CALLBACK_PATH}`,
      users: { op },
    });
    const settings = oidcSettings({
      issuer: provider.issuer,
      clientId: CLIENT_ID,
      clientSecret: SECRET,
      redirectUri: `${hub}${CALLBACK_PATH}`,
      scopes: 'openid email profile groups',
    });
    const app = createHubApp({ store: t.store, auth: fx.auth, oidc: { settings }, log: () => {} });
    server.on('request', getRequestListener(app.fetch));
  });
  afterAll(async () => {
    if (server) await closeServer(server);
    await provider?.close();
    await t?.dispose();
  });

  /** A new browser signed in as `op` through the provider: its session cookie. */
  const signIn = async () => {
    const b = new CookieBrowser();
    const done = await b.request((await signInAt(b, hub, 'op', '/organisations')).href);
    expect([done.status, done.headers.get('location')]).toEqual([303, '/organisations']);
    return `${SESSION_COOKIE}=${b.cookie(SESSION_COOKIE)}`;
  };
  const session = async (cookie: string) =>
    (await (await fetch(`${hub}/api/v1/session`, { headers: { cookie } })).json()) as {
      user: { hubAdmin: boolean };
      csrfToken: string;
    };
  const makeOrganisation = async (cookie: string, slug: string) => {
    const { csrfToken } = await session(cookie);
    const res = await fetch(`${hub}/api/v1/organisations`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ slug, name: slug, adminEmail: 'first@vendor.example' }),
    });
    await res.body?.cancel();
    return res.status;
  };
  const hubAdminEntries = async () =>
    (await t.store.db.selectFrom('audit_log').select(['action', 'actor', 'subject']).execute())
      .filter((e) => e.action.endsWith('-hub-admin'))
      .map((e) => [e.action, e.actor, e.subject]);

  it('gives the flag with the group, and takes it away at a sign-in without it', async () => {
    const first = await signIn();
    expect((await session(first)).user.hubAdmin).toBe(true);
    expect(await makeOrganisation(first, 'vendor-one')).toBe(201);
    const user = await fx.auth.accounts.userByEmail(op.email);
    expect(user?.hubAdmin).toBe(true);

    op.groups = ['erpcert:default:viewer'];
    const second = await signIn();
    expect((await session(second)).user.hubAdmin).toBe(false);
    // the session from before the change has lost it too: the flag is read at each request
    expect((await session(first)).user.hubAdmin).toBe(false);
    expect(await makeOrganisation(first, 'vendor-two')).toBe(403);
    expect(await fx.auth.accounts.organisationBySlug('vendor-two')).toBeUndefined();
    expect((await fx.auth.accounts.userByEmail(op.email))?.hubAdmin).toBe(false);

    const who = `user:${user?.id} op@hub.example`;
    expect(await hubAdminEntries()).toEqual([
      ['grant-hub-admin', `oidc ${provider.issuer}`, who],
      ['revoke-hub-admin', `oidc ${provider.issuer}`, who],
    ]);
  });
});
