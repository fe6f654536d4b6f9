/**
 * Issue 25's live journey in a real browser (Debian's chromium through playwright-core), as a vendor fixing a
 * deviation lives it: save a target in the hub's pages (the embedded reference server behind a self-test mutant that
 * drops `@systemversion`), start a gate run of one rule, watch it live (the rule turns FAIL on the page while the run
 * goes on, by server-sent events), fix the server, rerun the failed rule from its evidence page, and compare the two
 * runs: the rule is fixed. `erpcert hub` runs as a child with its real executor (live-executor.ts: the erpcert bin
 * in a child process); the vendor signs in with the one-time link its `--init-admin` printed. axe-core checks every page visited (no serious or critical violation); a screenshot of each
 * is kept under packages/cli/test-output/hub-journey/ (git-ignored).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningServer, startServer } from '@erpcert/refserver';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../../../hub/src/testing/axe.js';
import { EMBEDDED_DEFAULT, EMBEDDED_SEED_SIZE } from '../commands/conform-settings.js';
import { mutants } from '../selftest/mutants.js';
import { type Mutant, type RunningProxy, startProxy } from '../selftest/proxy.js';
import { SELFTEST_CONTEXT } from '../selftest/run-selftest.js';
import { launchChromium, skipWithoutChromium } from '../testing/chromium.js';
import { hubWithLink } from '../testing/hub-admin.js';
import { type Served, stopChild } from '../testing/serve-child.js';

const SECRET = 'journey-secret-0123456789abcdef';
const RULE = 'REST.VERSION.SYSTEMVERSION';
const MUTANT = 'systemversion-missing';
const SHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-output', 'hub-journey');
/** A gate run of one rule takes seconds; a busy machine may take a minute or more. */
const RUN_MS = 240_000;

/**
 * The self-test's mutant, switchable: while `broken`, REST envelopes lose `@systemversion`; once fixed, the proxy
 * passes everything through (the vendor's fix).
 */
function switchable(m: Mutant): { mutant: Mutant; fix(): void } {
  let broken = true;
  return {
    mutant: { ...m, response: (req, res) => (broken && m.response ? m.response(req, res) : res) },
    fix: () => {
      broken = false;
    },
  };
}

// skips only where chromium is not installed and this is not CI (testing/chromium.ts)
describe.skipIf(skipWithoutChromium)('the hub live journey in chromium: save, start, watch, rerun, compare', () => {
  const root = mkdtempSync(join(tmpdir(), 'erpcert-hub-journey-'));
  let server: RunningServer;
  let proxy: RunningProxy;
  let fixServer: () => void;
  let hub: Served | undefined;
  let browser: Browser;
  let context: BrowserContext;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startServer({ port: 0, seed: EMBEDDED_SEED_SIZE, log: () => {} });
    const m = mutants(SELFTEST_CONTEXT).find((x) => x.id === MUTANT);
    if (!m) throw new Error(`no mutant ${MUTANT}`);
    const s = switchable(m);
    fixServer = s.fix;
    proxy = await startProxy(server.url, s.mutant);
    // the mutant's proxy is on loopback: opened by --allow-targets (the SSRF guard refuses it by default)
    const started = await hubWithLink(
      ['--workers', '1', '--allow-targets', '127.0.0.1/32', '--database', join(root, 'hub.sqlite')],
      { cwd: root, env: { ...process.env, ERPCERT_HUB_SECRET: SECRET } },
    );
    hub = started.hub;
    browser = await launchChromium();
    context = await browser.newContext({ baseURL: hub.url, viewport: { width: 1280, height: 900 } });
    // the admin opens the printed link and signs in: the session's cookie is the context's from now on
    const signIn = await context.newPage();
    await signIn.goto(started.link);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await signIn.waitForURL(/\/account$/);
    await signIn.close();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stopChild(hub);
    await proxy?.close();
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function open(path: string): Promise<Page> {
    const page = await context.newPage();
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    await page.goto(path);
    return page;
  }

  /** axe-core on the page as it is: no serious or critical violation; a screenshot kept with the test output. */
  async function check(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    const bad = await seriousViolations(page);
    expect(bad, name).toEqual([]);
  }

  /**
   * Submits a form that starts a live run and lands on its page: the HTML the hub served there (the state at load
   * time) and the live run's id.
   */
  async function submitToLiveRun(page: Page, submit: () => Promise<void>): Promise<{ served: string; id: number }> {
    const landed = page.waitForResponse((r) => /\/live-runs\/\d+$/.test(r.url()) && r.request().method() === 'GET');
    await submit();
    const res = await landed;
    const served = await res.text();
    await page.waitForURL(/\/live-runs\/\d+$/);
    return { served, id: Number(/\/live-runs\/(\d+)$/.exec(page.url())?.[1]) };
  }

  /** Waits until the live page says the run ended, and follows its link to the stored run. */
  async function toStoredRun(page: Page): Promise<number> {
    const link = page.locator('[data-live-message] a');
    await link.waitFor({ timeout: RUN_MS });
    expect(await page.locator('[data-live-state]').textContent()).toBe('done');
    const runId = Number(/#(\d+)$/.exec((await link.textContent()) ?? '')?.[1]);
    await link.click();
    await page.waitForURL(new RegExp(`/runs/${runId}$`));
    return runId;
  }

  it(
    'saves the target, starts a run, sees the rule FAIL live, reruns it after the fix and compares: fixed',
    async () => {
      // 1. save the target: the mutant's proxy, the reference server's demo login
      const page = await open('/saved-targets');
      await check(page, '01-saved-targets');
      const save = page.getByRole('form', { name: 'Save a target' });
      await save.getByLabel(/^URL/).fill(proxy.url);
      await save.getByLabel(/^Name/).fill('Reference server (mutant)');
      await save.getByLabel('User', { exact: true }).fill(EMBEDDED_DEFAULT.user);
      await save.getByLabel('Password').fill(EMBEDDED_DEFAULT.password);
      await save.getByLabel('Company code', { exact: true }).fill(String(EMBEDDED_DEFAULT.compcode));
      await save.getByLabel('User code', { exact: true }).fill(EMBEDDED_DEFAULT.usercode);
      await save.getByRole('button', { name: 'Save the target' }).click();
      await page.waitForURL(/\/saved-targets\/\d+$/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
        'Saved target Reference server (mutant)',
      );
      expect(await page.getByText('password set').count()).toBe(1);
      const edit = page.getByRole('form', { name: 'Edit the connection' });
      expect(await edit.getByLabel(/^Password/).inputValue()).toBe(''); // never echoed back
      // the demo password is also the demo user's name: every password input of the page is empty
      const secrets = await page
        .locator('input[type="password"]')
        .evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
      expect(secrets.length).toBeGreaterThan(0);
      expect(secrets.every((v) => v === '')).toBe(true);
      await check(page, '02-saved-target');

      // 2. start a gate run of the one rule
      const conform = page.getByRole('form', { name: 'Start a conformance run' });
      await conform.getByLabel('Profile').selectOption('gate');
      await conform.getByLabel(/^Only these rules/).fill(RULE);
      const first = await submitToLiveRun(page, () => conform.getByRole('button', { name: 'Start conform' }).click());
      // served before the run ended, without the rule: what follows arrives live
      expect(first.served).toMatch(/data-live-state="">(queued|running)</);
      expect(first.served).not.toContain(`<code>${RULE}</code>`);
      expect(first.served).not.toContain('data-ended');

      // 3. watch it live: the rule turns FAIL on the page, the cancel form is there while it runs
      const ruleLine = page.locator('[data-live-rules] li').filter({ hasText: RULE });
      await ruleLine.locator('strong', { hasText: 'FAIL' }).waitFor({ timeout: RUN_MS });
      expect(await page.getByRole('form', { name: `Cancel live run #${first.id}` }).count()).toBe(1);
      await check(page, '03-live-run-fail');
      const parent = await toStoredRun(page);
      expect(await page.getByRole('form', { name: `Cancel live run #${first.id}` }).count()).toBe(0);
      await check(page, '04-run');
      const rules = page.getByRole('table', { name: 'Rules' });
      await rules.getByRole('link', { name: RULE }).click();
      await page.waitForURL(new RegExp(`/runs/${parent}/rules/${RULE.replace(/\./g, '\\.')}$`));
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`${RULE} in run #${parent}`);
      await check(page, '05-rule-fail');

      // 4. the vendor fixes the server, and reruns the failed rule from its evidence page
      fixServer();
      const rerunForm = page.getByRole('form', { name: `Rerun ${RULE}` });
      const rerun = await submitToLiveRun(page, () =>
        rerunForm.getByRole('button', { name: 'Rerun this rule' }).click(),
      );
      expect(rerun.id).toBeGreaterThan(first.id);
      const title = page.getByRole('heading', {
        name: new RegExp(`^Live run #${rerun.id} \\(rerun of #${parent}\\)$`),
      });
      expect(await title.count()).toBe(1);
      expect(await title.getByRole('link', { name: `#${parent}` }).getAttribute('href')).toBe(`/runs/${parent}`);
      await ruleLine.locator('strong', { hasText: 'PASS' }).waitFor({ timeout: RUN_MS });
      await check(page, '06-rerun-live');
      const child = await toStoredRun(page);
      expect(await page.getByRole('link', { name: `#${parent}`, exact: true }).count()).toBeGreaterThan(0);

      // 5. compare the rerun with its parent: the rule is fixed
      await page.getByRole('link', { name: `Compare with its parent run #${parent}` }).click();
      await page.waitForURL(/\/compare\?/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Run #${parent} → run #${child}`);
      const changes = page.getByRole('table', { name: 'Rules whose verdict changed' });
      expect(
        await changes.getByRole('row', { name: new RegExp(`${RULE.replace(/\./g, '\\.')} fixed FAIL PASS`) }).count(),
      ).toBe(1);
      expect(await page.locator('#diff-summary').textContent()).toMatch(/^0 new FAILs · 1 fixed/);
      await check(page, '07-compare');
      expect(cspViolations).toEqual([]);
    },
    3 * RUN_MS,
  );
});
