/**
 * axe-core on the account and admin pages (issue 25: "no serious or critical violation on any page"), in one
 * chromium context signed in as an org admin: the account page, the organisations, an organisation's members and
 * tokens (the token shown once after making one, a refusal), its audit log, the sign-in link page, the sign-in pages with
 * OpenID Connect (rendered without a provider: the issuer is only named), and a submitted run as its reviewers read
 * it; in a second context, a hub admin's organisations and the hub's audit log. Screenshots are kept under test-output/account-pages/.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcSettings } from '../auth/oidc/oidc-settings.js';
import { SESSION_COOKIE } from '../auth/sessions.js';
import { type RunningHub, startHub } from '../server.js';
import { type AuthFixture, seedAuth, TEST_SCRYPT } from '../testing/auth-fixture.js';
import { seriousViolations } from '../testing/axe.js';
import { seedCertification } from '../testing/certification-fixture.js';
import { chromiumMissing, launchChromium } from '../testing/chromium.js';
import { freshDatabase } from '../testing/test-databases.js';

const SHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-output', 'account-pages');

// the reason it may skip is written in chromiumMissing (never under CI)
describe.skipIf(chromiumMissing !== undefined)(
  `the account and admin pages in chromium, checked by axe-core${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    let hub: RunningHub;
    let drop: () => Promise<void>;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let fx: AuthFixture;
    let submission = 0;

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      const db = await freshDatabase('sqlite');
      drop = db.drop;
      hub = await startHub({
        port: 0,
        database: db.database,
        auth: { scrypt: TEST_SCRYPT },
        log: () => {},
        // the sign-in page only names the provider: nothing is asked of it here
        oidc: {
          settings: oidcSettings({
            issuer: 'https://idp.example',
            clientId: 'hub',
            clientSecret: 'account-pages-oidc-secret',
            redirectUri: 'http://127.0.0.1:8480/auth/oidc/callback',
          }),
        },
      });
      fx = await seedAuth(hub.store, hub.auth);
      // a submitted run the admin may read: a member of the vendor that submitted it
      const cert = await seedCertification(hub.store);
      await hub.auth.accounts.setMembership(fx.users.admin.id, cert.vendor, 'viewer');
      submission = (await cert.certification.submit(cert.signed, 'certbody', 'user:0 vendor@example.com')).id;
      browser = await launchChromium();
      context = await browser.newContext({ baseURL: hub.url, viewport: { width: 1280, height: 900 } });
      await context.addCookies([{ name: SESSION_COOKIE, value: fx.users.admin.session, url: hub.url }]);
      page = await context.newPage();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await hub?.close();
      await drop?.();
    });

    /** axe-core on the page as it is: no serious or critical violation; a screenshot kept. */
    async function check(name: string): Promise<void> {
      await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
      expect(await seriousViolations(page), name).toEqual([]);
    }

    async function visit(path: string, name: string, heading: RegExp): Promise<void> {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
      expect(await page.getByRole('heading', { level: 1 }).textContent(), path).toMatch(heading);
      await check(name);
    }

    it('the account, the organisations, members and tokens (and a new token shown once), the audit log', async () => {
      await visit('/account', 'account', /account/i);
      await visit('/organisations', 'organisations', /organisations/i);
      await visit(`/organisations/${fx.org}`, 'organisation', /./);
      expect(await page.getByRole('cell', { name: fx.users.viewer.email, exact: true }).count()).toBe(1);
      // make a token as an admin does: the page answers with it, shown once
      await page.getByLabel(/^Name/).fill('axe token');
      await page.getByRole('button', { name: /token/i }).click();
      await page.waitForLoadState('load');
      expect(await page.getByText(/eht_/).count()).toBeGreaterThan(0);
      await check('organisation-token-shown');
      // a refusal on the page: the last admin cannot be removed
      await page
        .getByRole('row', { name: new RegExp(`^${fx.users.admin.email}`) })
        .getByRole('button', { name: 'Remove' })
        .click();
      await page.waitForLoadState('load');
      expect(await page.getByRole('alert').textContent()).toMatch(/last admin/);
      await check('organisation-refusal');
      await visit(`/organisations/${fx.org}/audit`, 'audit', /audit/i);
      expect(await page.getByRole('cell', { name: 'create-token' }).count()).toBeGreaterThan(0);
    });

    it('the sign-in link page, and the sign-in pages with OpenID Connect', async () => {
      await visit('/sign-in/link?token=ehl_not-a-real-link', 'sign-in-link', /sign in/i);
      await visit('/auth/oidc', 'oidc-sign-in', /sign in/i);
      await visit('/sign-in', 'sign-in-with-oidc', /sign in/i);
    });

    it("the hub's audit log, as a hub admin reaches it from the organisations", async () => {
      await hub.auth.audit.record({
        actor: 'erpcert hub --init-admin',
        organisationId: null,
        action: 'grant-hub-admin',
        subject: `user:${fx.users['hub-admin'].id} ${fx.users['hub-admin'].email}`,
      });
      const own = await browser.newContext({ baseURL: hub.url, viewport: { width: 1280, height: 900 } });
      await own.addCookies([{ name: SESSION_COOKIE, value: fx.users['hub-admin'].session, url: hub.url }]);
      const was = page;
      page = await own.newPage();
      try {
        await visit('/organisations', 'hub-organisations', /organisations/i);
        await page.getByRole('link', { name: "The hub's audit log" }).click();
        await page.waitForLoadState('load');
        expect(new URL(page.url()).pathname).toBe('/audit');
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/audit log of the hub/i);
        expect(await page.getByRole('cell', { name: 'grant-hub-admin' }).count()).toBe(1);
        await check('hub-audit');
      } finally {
        page = was;
        await own.close();
      }
    });

    it('a submitted run, as its reviewers read it', async () => {
      await visit(`/submissions/${submission}/run`, 'submission-run', /run #\d+/i);
      expect(await page.getByText(/read-only/).count()).toBeGreaterThan(0);
    });
  },
);
