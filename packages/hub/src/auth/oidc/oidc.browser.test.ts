/**
 * OpenID Connect sign-in in a real browser (Debian's chromium through playwright-core): the hub (createHubApp with
 * its OIDC routes) and a local oidc-provider on 127.0.0.1; a person clicks "Sign in with OpenID Connect", signs in
 * at the provider's page, allows the hub, and lands back on the hub signed in: the page it started from (its account
 * page), as the user the identity made, with the memberships its groups map to, a session cookie, and the sign-in in
 * the audit log. Found by role and name, as a person would.
 */
import type { Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubApp } from '../../api/hub-app.js';
import { HubStore } from '../../store/hub-store.js';
import { chromiumMissing, launchChromium } from '../../testing/chromium.js';
import { closeServer, listenFirst, startTestProvider, type TestProvider } from '../../testing/oidc-test-provider.js';
import { freshDatabase } from '../../testing/test-databases.js';
import { hubAuth } from '../hub-auth.js';
import { CALLBACK_PATH, oidcSettings } from './oidc-settings.js';

const SECRET = 'planted-browser-oidc-secret-0b7e44';
const CLIENT_ID = 'erpcert-hub-browser';

// the reason it may skip is written in chromiumMissing (never under CI)
describe.skipIf(chromiumMissing !== undefined)(
  `OpenID Connect sign-in in chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    let server: Server;
    let hub: string;
    let provider: TestProvider;
    let store: HubStore;
    let drop: () => Promise<void>;
    let browser: Browser;
    const logs: string[] = [];
    let audit: () => Promise<string>;

    beforeAll(async () => {
      ({ server, url: hub } = await listenFirst());
      const redirectUri = `${hub}${CALLBACK_PATH}`;
      provider = await startTestProvider({
        clientId: CLIENT_ID,
        clientSecret: SECRET,
        redirectUri,
        users: {
          alice: {
            email: 'alice@acme.example',
            name: 'Alice Engineer',
            groups: ['erpcert:acme:engineer', 'erpcert:beta:viewer'],
          },
        },
      });
      const db = await freshDatabase('sqlite');
      drop = db.drop;
      store = await HubStore.open(db.database);
      const settings = oidcSettings({
        issuer: provider.issuer,
        clientId: CLIENT_ID,
        clientSecret: SECRET,
        redirectUri,
        scopes: 'openid email profile groups',
      });
      const auth = hubAuth(store.db);
      // the organisations the groups name exist on the hub (a group of an unknown organisation gives nothing)
      await auth.accounts.createOrganisation('acme', 'Acme');
      await auth.accounts.createOrganisation('beta', 'Beta');
      audit = () => auth.audit.raw();
      const app = createHubApp({ store, auth, log: (line) => logs.push(line), oidc: { settings } });
      server.on('request', getRequestListener(app.fetch));
      browser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      if (server) await closeServer(server);
      await provider?.close();
      await store?.close();
      await drop?.();
    });

    async function heading(page: Page): Promise<string | null> {
      return page.getByRole('heading', { level: 1 }).textContent();
    }

    it('clicks "Sign in with OpenID Connect", signs in at the provider, and lands back on the hub signed in', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const answers: string[] = [];
      page.on('response', async (res) => {
        answers.push(`${res.url()}\n${JSON.stringify(await res.allHeaders())}\n${await res.text().catch(() => '')}`);
      });
      const first = await page.goto(`${hub}/auth/oidc?return=%2Faccount`);
      expect(first?.headers()['content-security-policy']).toMatch(/default-src 'self'/);
      expect(await heading(page)).toBe('Sign in');

      await page.getByRole('link', { name: 'Sign in with OpenID Connect' }).click();
      await page.waitForURL((url) => url.origin === provider.issuer);
      await page.getByPlaceholder('Enter any login').fill('alice');
      await page.getByPlaceholder('and password').fill('any password will do');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();

      await page.waitForURL((url) => url.origin === hub && url.pathname === '/account');
      expect(await heading(page)).toBe('Your account');
      expect(await page.getByRole('main').textContent()).toContain('Signed in as alice@acme.example');
      const memberships = await page.getByRole('list').filter({ hasText: 'Acme' }).last().textContent();
      expect(memberships).toContain('Acme (acme): engineer');
      expect(memberships).toContain('Beta (beta): viewer');
      // the hub's sign-in cookie is gone once used; the session's is HttpOnly: never readable by a script
      const cookies = await context.cookies(hub);
      expect(cookies.find((c) => c.name === 'erpcert_oidc')).toBeUndefined();
      expect(cookies.find((c) => c.name === 'erpcert_session')?.httpOnly).toBe(true);
      const entries = JSON.parse(await audit()) as { action: string; subject: string | null; actor: string }[];
      expect(entries.filter((e) => e.action === 'sign-in' && e.subject === 'oidc').map((e) => e.actor)).toEqual([
        expect.stringMatching(/ alice@acme\.example$/),
        expect.stringMatching(/ alice@acme\.example$/),
      ]);
      expect(answers.length).toBeGreaterThan(4);
      for (const a of answers) expect(a).not.toContain(SECRET);
      for (const line of logs) expect(line).not.toContain(SECRET);
      await context.close();
    });
  },
);
