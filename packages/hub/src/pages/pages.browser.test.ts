/**
 * The hub's pages in a real browser (Debian's chromium through playwright-core), found by role and name as a person
 * or a screen reader finds them: sign in with a password, publish a run through the upload form, find it, open a
 * FAIL and its exchange; as a viewer, try to start a run and be refused;
 * compare two runs; open the load trends. axe-core checks every page (no serious or critical violation), a planted
 * `<script>` never runs, and a screenshot of each page is kept under test-output/pages/.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTargetGuard } from '@erpcert/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SavedTargets } from '../live/saved-targets.js';
import { type RunningHub, startHub } from '../server.js';
import { type AuthFixture, seedAuth, TEST_PASSWORD, TEST_SCRYPT } from '../testing/auth-fixture.js';
import { seriousViolations } from '../testing/axe.js';
import { chromiumMissing, launchChromium } from '../testing/chromium.js';
import { BREAKOUT, HOSTILE_RULE, JS_URL, SCRIPT } from '../testing/hostile-run.js';
import { ERP_URL, type PageFixture, seedPageFixture } from '../testing/page-fixture.js';
import { conformanceFolderFiles, sampleConformance } from '../testing/sample-runs.js';
import { freshDatabase } from '../testing/test-databases.js';
import { testResolver } from '../testing/test-resolver.js';
import { zipFiles } from '../testing/zip-writer.js';

const SHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-output', 'pages');
// the reason it may skip is written in chromiumMissing (never under CI)
describe.skipIf(chromiumMissing !== undefined)(
  `the hub's pages in chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`,
  () => {
    let hub: RunningHub;
    let drop: () => Promise<void>;
    let browser: Browser;
    let context: BrowserContext;
    let f: PageFixture;
    let fx: AuthFixture;
    const dialogs: string[] = [];
    const cspViolations: string[] = [];

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      const db = await freshDatabase('sqlite');
      drop = db.drop;
      hub = await startHub({
        port: 0,
        database: db.database,
        auth: { scrypt: TEST_SCRYPT },
        secret: 'browser-test-secret-0123456789abcdef',
        log: () => {},
        // as erpcert hub hands them: the load form offers a choice
        loadScenarios: [
          { name: 'invoices', description: 'Confirmed 1-row sales invoices' },
          { name: 'transactions', description: '2-row journal entries' },
        ],
      });
      fx = await seedAuth(hub.store, hub.auth);
      f = await seedPageFixture(hub.store);
      browser = await launchChromium();
      context = await browser.newContext({ baseURL: hub.url, viewport: { width: 1280, height: 900 } });
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await hub?.close();
      await drop?.();
    });

    async function open(path: string): Promise<Page> {
      const page = await context.newPage();
      page.on('dialog', async (d) => {
        dialogs.push(`${d.type()}: ${d.message()}`);
        await d.dismiss();
      });
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
      });
      const res = await page.goto(path);
      expect(res?.headers()['content-security-policy']).toMatch(/default-src 'self'/);
      return page;
    }

    /** axe-core on the page as it is: no serious or critical violation; a screenshot kept beside the results. */
    async function check(page: Page, name: string): Promise<void> {
      await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
      const bad = await seriousViolations(page);
      expect(bad, name).toEqual([]);
    }

    /** Signs in on the sign-in page as a person does, in a browser context of its own or the shared one. */
    async function signIn(into: BrowserContext, email: string): Promise<Page> {
      const page = await into.newPage();
      await page.goto('/');
      // nobody signed in: the sign-in page, coming back here afterwards
      await page.waitForURL(/\/sign-in\?next=%2F$/);
      await check(page, 'sign-in');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/$/);
      expect(await page.getByRole('link', { name: email }).isVisible()).toBe(true);
      return page;
    }

    it('sign in with a password (a wrong one first): the pages open, the session cookie is HttpOnly and SameSite', async () => {
      const page = await context.newPage();
      await page.goto('/sign-in');
      await page.getByLabel('Email').fill(fx.users.engineer.email);
      await page.getByLabel('Password').fill('not the password at all');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForLoadState('load');
      expect(await page.getByRole('alert').textContent()).toBe('the email or the password is wrong');
      await page.close();
      const signed = await signIn(context, fx.users.engineer.email);
      const [cookie] = await context.cookies();
      expect(cookie).toMatchObject({ name: 'erpcert_session', httpOnly: true, sameSite: 'Lax', path: '/' });
      await check(signed, 'targets-signed-in');
    });

    it('as a viewer, try to start a run: refused, and nothing is queued', async () => {
      const saved = await hub.auth.accounts.user(fx.users.engineer.id);
      expect(saved).toBeDefined();
      // a saved target of the organisation (engineers save them)
      const target = await new SavedTargets(
        hub.store.db,
        undefined,
        undefined,
        parseTargetGuard(undefined, testResolver()),
      ).save({ url: 'https://saved.example' }, fx.org);
      const viewerContext = await browser.newContext({ baseURL: hub.url });
      try {
        const page = await signIn(viewerContext, fx.users.viewer.email);
        // from the saved target's page, as a person tries it: the start form answers 403 and says why
        const landed = page.waitForResponse((r) => r.url().endsWith(`/saved-targets/${target.id}/conform`));
        await page.goto(`/saved-targets/${target.id}`);
        // the load form's scenario is a choice, by name and description, and the page is axe-clean with it
        const load = page.getByRole('form', { name: 'Start a load run' });
        expect(await load.getByLabel('Scenario').locator('option').allTextContents()).toEqual([
          'invoices — Confirmed 1-row sales invoices',
          'transactions — 2-row journal entries',
        ]);
        await check(page, 'saved-target-viewer');
        await page.getByRole('button', { name: 'Start conform' }).click();
        expect((await landed).status()).toBe(403);
        expect(await page.getByRole('alert').textContent()).toBe(
          'your role or token may not start, cancel or rerun live runs',
        );
        expect(await hub.store.db.selectFrom('jobs').select('id').execute()).toEqual([]);
        // and by the API, with the viewer's own session and CSRF token
        // the viewer's own session and CSRF token, as the page carries it: the role, not a missing token, refuses
        const csrf = await page.locator('input[name="csrf"]').first().getAttribute('value');
        const res = await page.request.post(`/api/v1/saved-targets/${target.id}/live-runs`, {
          headers: { 'x-csrf-token': csrf ?? '', 'content-type': 'application/json' },
          data: { kind: 'conformance', profile: 'gate' },
        });
        expect(res.status()).toBe(403);
        expect(((await res.json()) as { error: string }).error).toBe(
          'your role or token may not start, cancel or rerun live runs',
        );
        expect(await hub.store.db.selectFrom('jobs').select('id').execute()).toEqual([]);
        // the upload form says why it is closed, and a post through it is refused too
        await page.goto('/upload');
        expect(await page.getByText('Your role publishes nothing').isVisible()).toBe(true);
        expect(await page.getByRole('button', { name: 'Upload' }).isDisabled()).toBe(true);
      } finally {
        await viewerContext.close();
      }
    });

    it('publish a run through the upload form, find it from the targets page, open a FAIL and its exchange', async () => {
      const upload = await open('/upload');
      await check(upload, 'upload');
      const files = conformanceFolderFiles(
        sampleConformance({
          url: ERP_URL,
          embedded: false,
          runTag: 'BROWSER',
          startedAt: '2026-11-27T12:00:00.000Z',
          verdicts: {
            'REST.VERSION.PATH': 'FAIL',
            'REST.VERSION.SYSTEMVERSION': 'PASS',
            'PORTAL.LOOKUP.CAP50': 'PASS',
          },
        }),
      );
      // a file in a subfolder: a folder upload must keep its path
      files.set('exchanges/REST.VERSION.PATH.txt', Buffer.from('GET /api/1/\n'));
      const zip = zipFiles(files, 'report/');
      await upload
        .getByLabel('Report folder (zip)')
        .setInputFiles({ name: 'report.zip', mimeType: 'application/zip', buffer: zip });
      await upload.getByRole('textbox', { name: /^Build/ }).fill('b3');
      await upload.getByRole('button', { name: 'Upload' }).click();
      await upload.waitForURL(/\/runs\/\d+$/);
      const runId = Number(/\/runs\/(\d+)$/.exec(upload.url())?.[1]);
      expect(await upload.getByRole('heading', { level: 1 }).textContent()).toBe(`Run #${runId}`);
      // the same report as a folder, through the folder input (no script: chromium posts one part per file, named
      // by its path under the chosen folder): the same files, so the same run
      const dir = mkdtempSync(join(tmpdir(), 'erpcert-upload-folder-'));
      try {
        for (const [path, bytes] of files) {
          mkdirSync(dirname(join(dir, 'report', path)), { recursive: true });
          writeFileSync(join(dir, 'report', path), bytes);
        }
        const byFolder = await open('/upload');
        await byFolder.getByLabel('Report folder', { exact: true }).setInputFiles(join(dir, 'report'));
        await byFolder.getByRole('button', { name: 'Upload' }).click();
        await byFolder.waitForURL(/\/runs\/\d+$/);
        expect(byFolder.url()).toMatch(new RegExp(`/runs/${runId}$`));
        await byFolder.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      expect((await hub.store.files(runId)).map((x) => x.path)).toEqual([...files.keys()].sort());

      const home = await open('/');
      await check(home, 'targets');
      await home.getByRole('link', { name: `History of ${ERP_URL}` }).click();
      await home.waitForURL(/\/targets\/\d+$/);
      await check(home, 'history');
      await home.getByRole('link', { name: `#${runId}`, exact: true }).click();
      await home.waitForURL(new RegExp(`/runs/${runId}$`));
      await check(home, 'run');
      // filter the rule matrix to the FAILs, without JavaScript: a GET form
      await home.getByLabel('Verdict').selectOption('FAIL');
      await home.getByRole('button', { name: 'Filter' }).click();
      await home.waitForURL(/verdict=FAIL/);
      const rules = home.getByRole('table', { name: 'Rules' });
      expect(await rules.getByRole('row').count()).toBe(2); // the header and the one FAIL
      await rules.getByRole('link', { name: 'REST.VERSION.PATH' }).click();
      await home.waitForURL(/\/rules\/REST\.VERSION\.PATH$/);
      expect(await home.getByRole('heading', { level: 1 }).textContent()).toBe(`REST.VERSION.PATH in run #${runId}`);
      expect(await home.getByRole('heading', { name: /Exchange 1/ }).textContent()).toMatch(
        /the one that broke the rule/,
      );
      expect(await home.getByLabel('request 1').textContent()).toBe(`GET ${ERP_URL}/api/1/CUVc\nauthorization: ***`);
      expect(await home.getByLabel('response 1').textContent()).toMatch(
        /^200 \(4 ms\)\ncontent-type: application\/json/,
      );
      expect(await home.getByRole('heading', { name: 'Replay' }).isVisible()).toBe(true);
      await check(home, 'rule-fail');
    });

    it('compare two runs picked in the history', async () => {
      const page = await open(`/targets/${f.erpTarget}`);
      await page.getByRole('radio', { name: `compare from run #${f.first}` }).check();
      await page.getByRole('radio', { name: `compare to run #${f.second}` }).check();
      await page.getByRole('button', { name: 'Compare the two chosen runs' }).click();
      await page.waitForURL(/\/compare\?/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Run #${f.first} → run #${f.second}`);
      const changes = page.getByRole('table', { name: 'Rules whose verdict changed' });
      expect(await changes.getByRole('row', { name: /REST\.VERSION\.PATH new FAIL/ }).count()).toBe(1);
      expect(await changes.getByRole('row', { name: /REST\.VERSION\.SYSTEMVERSION fixed/ }).count()).toBe(1);
      await check(page, 'compare');
      await page.getByRole('link', { name: 'Matrix', exact: true }).click();
      await check(page, 'matrix-form');
      await page.getByRole('combobox', { name: 'Target', exact: true }).selectOption({ label: ERP_URL });
      await page.getByRole('button', { name: "Show the target's runs" }).click();
      await page.waitForURL(/\/matrix\?target=/);
      const matrix = page.getByRole('table', { name: 'Rules by run' });
      expect(await matrix.getByRole('rowheader', { name: 'REST.VERSION.PATH' }).count()).toBe(1);
      expect(await matrix.getByRole('columnheader', { name: new RegExp(`^#${f.second}`) }).count()).toBe(1);
      await check(page, 'matrix');
    });

    it('open the load trends: charts named by their scenario, with the knee and what limited it', async () => {
      const page = await open('/');
      await page
        .getByRole('link', { name: /^Load trends of / })
        .first()
        .click();
      await page.waitForURL(/\/trends$/);
      const trendsUrl = page.url();
      // the first card may be a target without load runs: go to the one that has them
      if (!trendsUrl.endsWith(`/targets/${f.loadTarget}/trends`)) await page.goto(`/targets/${f.loadTarget}/trends`);
      expect(await page.getByRole('img', { name: 'transactions: throughput per run' }).isVisible()).toBe(true);
      expect(await page.getByRole('img', { name: 'transactions: p95 latency per run' }).isVisible()).toBe(true);
      expect(await page.getByRole('img', { name: 'transactions: saturation knee per run' }).isVisible()).toBe(true);
      const figures = page.getByRole('table', { name: 'transactions: figures per run' });
      expect(await figures.getByRole('row', { name: /229 target$/ }).count()).toBe(f.loads.length);
      await check(page, 'trends');
      await page.getByRole('link', { name: `#${f.loads[0]}` }).click();
      await check(page, 'load-run');
    });

    it('a planted <script>, attribute breakout and javascript: URL are shown as text and never run', async () => {
      for (const [name, bypassCSP] of [
        ['with the CSP', false],
        ['with the CSP bypassed (escaping alone)', true],
      ] as const) {
        const ctx = await browser.newContext({ baseURL: hub.url, bypassCSP });
        // a viewer's session: reading is all this needs
        await ctx.addCookies([{ name: 'erpcert_session', value: fx.users.viewer.session, url: hub.url }]);
        const page = await ctx.newPage();
        const seen: string[] = [];
        page.on('dialog', async (d) => {
          seen.push(d.message());
          await d.dismiss();
        });
        await page.goto(`/runs/${f.hostile}/rules/${HOSTILE_RULE}`);
        await page.waitForLoadState('load');
        expect(seen, name).toEqual([]);
        const main = page.getByRole('main');
        expect(await main.getByText(SCRIPT).first().isVisible(), name).toBe(true);
        expect(await page.locator('pre.counterexample').textContent(), name).toContain(BREAKOUT);
        expect(await page.locator('pre.counterexample').textContent(), name).toContain(JS_URL);
        expect(await main.locator('img, script, svg').count(), name).toBe(0);
        const hrefs = await page.$$eval('a', (as) => as.map((a) => a.getAttribute('href') ?? ''));
        expect(
          hrefs.filter((h) => /^\s*javascript:/i.test(h)),
          name,
        ).toEqual([]);
        if (!bypassCSP) await check(page, 'rule-hostile');
        await page.goto(`/runs/${f.hostile}`);
        expect(await page.getByRole('cell', { name: BREAKOUT }).count(), name).toBe(1);
        expect(seen, name).toEqual([]);
        await ctx.close();
      }
    });

    it('as a hub admin, make an organisation and a certifying body on /organisations (axe-clean)', async () => {
      const ctx = await browser.newContext({ baseURL: hub.url });
      try {
        const page = await signIn(ctx, fx.users['hub-admin'].email);
        await page.getByRole('navigation', { name: 'Hub' }).getByRole('link', { name: 'Organisations' }).click();
        await page.waitForURL(/\/organisations$/);
        await check(page, 'organisations-hub-admin');
        await page.getByLabel('Slug (lower-case letters, digits and dashes)').fill('browser-lab');
        await page.getByLabel('Name').fill('Browser Lab');
        await page.getByLabel('Email of its first admin (empty: you)').fill('lead@browser-lab.example');
        await page.getByLabel(/a certifying body/).check();
        await page.getByRole('button', { name: 'Make the organisation' }).click();
        await page.waitForLoadState('load');
        expect(await page.getByRole('status').textContent()).toMatch(
          /Browser Lab \(browser-lab\) is made, a certifying body/,
        );
        expect(await page.locator('#shown-once').textContent()).toMatch(/\/sign-in\/link\?token=ehl_/);
        await check(page, 'organisations-made');
        const lab = await hub.auth.accounts.organisationBySlug('browser-lab');
        const isBody = async () => (await hub.auth.accounts.organisationEntry(lab?.id ?? -1))?.certifyingBody;
        expect(await isBody()).toBe(true);
        // and stop it certifying, from its row
        await page.getByRole('button', { name: 'Stop certifying browser-lab' }).click();
        await page.waitForURL(/\/organisations$/);
        expect(await isBody()).toBe(false);
        expect(await page.getByRole('button', { name: 'Make a certifying body browser-lab' }).isVisible()).toBe(true);
      } finally {
        await ctx.close();
      }
    });

    it('a bad upload shows the ingest message; a missing page is an HTML page; no CSP violation, no dialog anywhere', async () => {
      const page = await open('/upload');
      await page.getByLabel('Report folder (zip)').setInputFiles({
        name: 'notes.zip',
        mimeType: 'application/zip',
        buffer: zipFiles(new Map([['notes.txt', Buffer.from('not a report')]])),
      });
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.waitForLoadState('load');
      expect(await page.getByRole('alert').textContent()).toMatch(/results\.json/);
      await check(page, 'upload-refused');
      const missing = await open('/runs/999999');
      expect(await missing.getByRole('heading', { level: 1 }).textContent()).toBe('Not found');
      expect(await missing.getByRole('alert').textContent()).toBe('there is no run 999999');
      await check(missing, 'not-found');
      expect(cspViolations).toEqual([]);
      expect(dialogs).toEqual([]);
    });

    it('the keyboard reaches the skip link first, and focus is visible', async () => {
      const page = await open('/');
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to content' });
      expect(await skip.evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement)).toBe(
        true,
      );
      const outline = await skip.evaluate((el) => {
        const view = el.ownerDocument.defaultView as unknown as {
          getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string };
        };
        const s = view.getComputedStyle(el);
        return `${s.outlineStyle} ${s.outlineWidth}`;
      });
      expect(outline).toBe('solid 3px');
      expect(await skip.isVisible()).toBe(true);
      await page.screenshot({ path: join(SHOTS, 'focus-skip-link.png') });
    });
  },
);
