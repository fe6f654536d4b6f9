import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../auth/sessions.js';
import { seriousViolations } from '../testing/axe.js';
import { type CertificationApp, certificationApp, type Person } from '../testing/certification-app.js';
import { HOSTILE_NAME } from '../testing/certification-fixture.js';
import { chromiumMissing, launchChromium } from '../testing/chromium.js';
import { freshStore, type TestStore } from '../testing/test-databases.js';

/** axe-core on the page as it is: no serious or critical violation. */
async function accessible(page: Page, name: string): Promise<void> {
  const bad = await seriousViolations(page);
  expect(bad, name).toEqual([]);
}

// the reason it may skip is written in chromiumMissing (never under CI)
describe.skipIf(chromiumMissing !== undefined)(
  `certification in chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    let t: TestStore;
    let h: CertificationApp;
    let server: ReturnType<typeof serve>;
    let url: string;
    let browser: Browser;
    const dialogs: string[] = [];

    beforeAll(async () => {
      t = await freshStore('sqlite');
      h = await certificationApp(t.store);
      server = await new Promise<ReturnType<typeof serve>>((resolve) => {
        const s = serve({ fetch: h.app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
      });
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      browser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      if (server) {
        (server as import('node:http').Server).closeAllConnections?.();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      await t?.dispose();
    });

    async function as(person: Person | undefined): Promise<BrowserContext> {
      const context = await browser.newContext({ baseURL: url });
      if (person) await context.addCookies([{ name: SESSION_COOKIE, value: h.secrets[person], url }]);
      return context;
    }

    async function open(context: BrowserContext, path: string): Promise<Page> {
      const page = await context.newPage();
      page.on('dialog', async (d) => {
        dialogs.push(`${d.type()}: ${d.message()}`);
        await d.dismiss();
      });
      await page.goto(path);
      return page;
    }

    it('vendor submits, certifier certifies, the public page shows it with its badge, a share link expires', async () => {
      const runId = h.fixture.signed.id;
      const vendor = await as('engineer');
      const certifier = await as('certifier');
      const nobody = await as(undefined);

      // the vendor submits its signed run
      const runPage = await open(vendor, `/runs/${runId}/certification`);
      await accessible(runPage, 'run certification');
      await runPage.getByLabel('Certifying body').selectOption({ label: 'Certifying Body' });
      await runPage.getByRole('button', { name: 'Submit for certification' }).click();
      await runPage.waitForURL(`**/runs/${runId}/certification`);
      const row = runPage.getByRole('table', { name: 'Submissions' }).getByRole('row').nth(1);
      await expect.poll(() => row.textContent()).toContain('submitted');

      // the certifier finds it, sees the signature verified now, and certifies it with a note
      const inbox = await open(certifier, '/certification');
      await accessible(inbox, 'inbox');
      const submissionLink = inbox.getByRole('table', { name: 'Submissions' }).first().getByRole('link').first();
      await submissionLink.click();
      await inbox.waitForURL('**/submissions/*/review');
      expect(await inbox.locator('#signature-check').textContent()).toMatch(/verified, key sha256:/);
      await accessible(inbox, 'review');
      // the run as submitted, read-only (the certifier is no member of the vendor)
      await inbox.locator('#review-run').click();
      await inbox.waitForURL('**/submissions/*/run');
      expect(await inbox.locator('#read-only').textContent()).toContain('as submitted for certification');
      await inbox.getByRole('table', { name: 'Rules' }).getByRole('link').first().click();
      await inbox.waitForURL('**/submissions/*/run/rules/*');
      await inbox.getByRole('link', { name: 'Back to the review' }).click();
      await inbox.waitForURL('**/submissions/*/review');
      await inbox.getByLabel('Note (what the review found)').fill('Every judged rule reviewed; signature verified.');
      await inbox.getByRole('button', { name: 'Certify' }).click();
      await inbox.waitForURL('**/submissions/*/review');
      expect(await inbox.locator('#decision-note').textContent()).toBe(
        'Every judged rule reviewed; signature verified.',
      );

      // without an account: the public page lists it with its badge, and the report opens read-only
      const pub = await open(nobody, '/certified/implementations');
      await accessible(pub, 'certified implementations');
      const listed = pub.getByRole('table', { name: 'Certified implementations' });
      expect(await listed.getByRole('rowheader').first().textContent()).toBe(HOSTILE_NAME);
      const badge = listed.getByRole('img', { name: `erpcert certified badge of ${HOSTILE_NAME}` });
      await expect
        .poll(() => badge.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
        .toBeGreaterThan(50);
      await listed.getByRole('link', { name: `Run #${runId}` }).click();
      await pub.waitForURL(`**/certified/runs/${runId}`);
      expect(await pub.locator('#read-only').textContent()).toContain('Certified by Certifying Body');
      await accessible(pub, 'certified report');

      // the vendor's run page now says it is frozen, and makes a share link for one day
      await runPage.reload();
      expect(await runPage.locator('#frozen').textContent()).toContain('a correction is a new run');
      await runPage.getByLabel('Days the link opens the run').fill('1');
      await runPage.getByRole('button', { name: 'Make a read-only share link' }).click();
      const shareUrl = (await runPage.locator('#share-url').textContent()) ?? '';
      expect(shareUrl).toMatch(/\/s\/ehr_/);

      // a customer without an account opens it, and a rule's page through it
      const customer = await open(nobody, shareUrl);
      expect(await customer.getByRole('heading', { level: 1 }).textContent()).toBe(`Run #${runId}`);
      await accessible(customer, 'shared run');
      await customer.getByRole('table', { name: 'Rules' }).getByRole('link').first().click();
      await customer.waitForURL('**/s/*/rules/*');
      expect(await customer.locator('#read-only').textContent()).toContain('A read-only view');

      // a day later (the hub's clock) the link is expired
      h.advance(86_400_000 + 1000);
      const res = await customer.goto(shareUrl);
      expect(res?.status()).toBe(410);
      expect(await customer.locator('#share-gone').textContent()).toContain('expired');
      await accessible(customer, 'expired share link');

      expect(dialogs).toEqual([]);
      await Promise.all([vendor.close(), certifier.close(), nobody.close()]);
    }, 120_000);
  },
);
