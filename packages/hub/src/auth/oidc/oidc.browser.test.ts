/**
 * OpenID Connect sign-in in a real browser (Debian's chromium through playwright-core): the hub (createHubApp with
 * its OIDC routes) and a local oidc-provider on 127.0.0.1; a person clicks "Sign in with OpenID Connect", signs in
 * at the provider's page, allows the hub, and lands back on the hub signed in (until accounts and sessions are merged,
 * the default onSignedIn shows the verified identity and its memberships). Found by role and name, as a person would.
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
      const app = createHubApp({ store, log: (line) => logs.push(line), oidc: { settings } });
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
      const first = await page.goto(`${hub}/auth/oidc`);
      expect(first?.headers()['content-security-policy']).toMatch(/default-src 'self'/);
      expect(await heading(page)).toBe('Sign in');

      await page.getByRole('link', { name: 'Sign in with OpenID Connect' }).click();
      await page.waitForURL((url) => url.origin === provider.issuer);
      await page.getByPlaceholder('Enter any login').fill('alice');
      await page.getByPlaceholder('and password').fill('any password will do');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();

      await page.waitForURL((url) => url.origin === hub && url.pathname === CALLBACK_PATH);
      expect(await heading(page)).toBe('Signed in');
      const facts = await page.locator('dl.facts').textContent();
      expect(facts).toContain('Alice Engineer');
      expect(facts).toContain('alice@acme.example');
      expect(facts).toContain(provider.issuer);
      const memberships = await page.getByRole('list').filter({ hasText: 'acme' }).last().textContent();
      expect(memberships).toContain('acme: engineer');
      expect(memberships).toContain('beta: viewer');
      // the hub's sign-in cookie is gone once used, and was never readable by a script
      const cookies = await context.cookies(hub);
      expect(cookies.find((c) => c.name === 'erpcert_oidc')).toBeUndefined();
      expect(answers.length).toBeGreaterThan(4);
      for (const a of answers) expect(a).not.toContain(SECRET);
      for (const line of logs) expect(line).not.toContain(SECRET);
      await context.close();
    });
  },
);
