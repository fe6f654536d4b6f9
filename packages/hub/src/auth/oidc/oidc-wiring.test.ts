/** createHubApp mounts the OIDC routes only when it is given settings, before the pages' catch-all 404. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubApp } from '../../api/hub-app.js';
import type { HubStore } from '../../store/hub-store.js';
import { type AuthFixture, seedAuth } from '../../testing/auth-fixture.js';
import { freshStore } from '../../testing/test-databases.js';
import { oidcSettings } from './oidc-settings.js';

describe('createHubApp and OpenID Connect', () => {
  let store: HubStore;
  let dispose: () => Promise<void>;
  let fx: AuthFixture;
  /** A signed-in viewer: for anybody else, a path the hub does not serve is the sign-in page. */
  const asViewer = () => ({ headers: fx.headers('viewer') });
  beforeAll(async () => {
    ({ store, dispose } = await freshStore('sqlite'));
    fx = await seedAuth(store);
  });
  afterAll(async () => {
    await dispose?.();
  });

  it('has no /auth/oidc routes without settings', async () => {
    const app = createHubApp({ store, auth: fx.auth, log: () => {} });
    for (const path of ['/auth/oidc', '/auth/oidc/start', '/auth/oidc/callback']) {
      expect((await app.request(path, asViewer())).status, path).toBe(404);
      expect((await app.request(path)).headers.get('location'), path).toMatch(/^\/sign-in\?/);
    }
    expect(await (await app.request('/sign-in')).text()).not.toContain('/auth/oidc');
  });

  it("serves them with settings, the sign-in page with the pages' headers", async () => {
    const settings = oidcSettings({
      // port 9 (discard) on loopback: nothing answers there
      issuer: 'http://127.0.0.1:9',
      clientId: 'hub',
      clientSecret: 'wiring-secret',
      redirectUri: 'http://127.0.0.1:8480/auth/oidc/callback',
    });
    const app = createHubApp({ store, auth: fx.auth, log: () => {}, oidc: { settings } });
    const page = await app.request('/auth/oidc');
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(await page.text()).toContain('Sign in with OpenID Connect');
    const start = await app.request('/auth/oidc/start');
    expect(start.status).toBe(502);
    expect(await start.text()).toContain('did not answer');
    expect((await app.request('/auth/oidc/nope', asViewer())).status).toBe(404);
    // the password sign-in page links to it, keeping where the user was going
    const signIn = await (await app.request('/sign-in?next=%2Fruns%2F7')).text();
    expect(signIn).toContain('href="/auth/oidc/start?return=%2Fruns%2F7"');
  });
});
