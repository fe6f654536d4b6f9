import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipWithoutChromium } from '../testing/chromium.js';
import { renderReportHtml } from './report-html.js';
import { sampleResults } from './testing.js';

// skips only where chromium is not installed and this is not CI (testing/chromium.ts)
describe.skipIf(skipWithoutChromium)('report.html in headless Chromium', () => {
  const doc = sampleResults();
  const dir = mkdtempSync(join(tmpdir(), 'erpcert-html-'));
  const file = join(dir, 'report.html');
  let browser: Browser;

  beforeAll(async () => {
    writeFileSync(file, renderReportHtml(doc, { docsBase: '../docs/' }));
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(media: 'screen' | 'print' = 'screen') {
    const page = await browser.newPage({ viewport: { width: 1024, height: 800 } });
    await page.emulateMedia({ media });
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url() !== pathToFileURL(file).href) requests.push(r.url());
    });
    await page.goto(pathToFileURL(file).href);
    return { page, requests };
  }

  it('shows one matrix row per rule, with its verdict', async () => {
    const { page, requests } = await open();
    expect(await page.locator('#matrix tbody tr').count()).toBe(doc.rules.length);
    const row = page.locator('#matrix tr[data-rule="REST.QUERY.FILTER_AND"]');
    expect(await row.locator('.v').textContent()).toBe('FAIL');
    expect(await page.locator('#matrix tr[data-rule="REST.QUERY.LIMIT"] .v').textContent()).toBe('SKIP');
    expect(await page.locator('#outcome').textContent()).toBe(
      'FAIL: 1 rule(s) failed, 1 rule(s) could not be judged (ERROR)',
    );
    expect(requests).toEqual([]); // self-contained: the page loads nothing else
    await page.close();
  });

  it('shows the failure with its counterexample and replay command, readable (not clipped)', async () => {
    const { page } = await open();
    const failure = page.locator('#failure-1');
    expect(await failure.locator('pre.replay').textContent()).toBe(
      'erpcert conform --user ci --only REST.QUERY.FILTER_AND --seed -1234567 --path 3:1:0',
    );
    expect(await failure.locator('pre.counterexample').textContent()).toBe('[{"CustCode":"C<1>","PayDeal":"30 | 60"}]');
    expect(await failure.locator('h3').textContent()).toContain('REST.QUERY.FILTER_AND');
    // the link in the matrix jumps to it
    await page.locator('#matrix tr[data-rule="REST.QUERY.FILTER_AND"] a[href="#failure-1"]').click();
    expect(await failure.isVisible()).toBe(true);
    // no horizontal scrolling: long lines wrap
    const overflow = await page.evaluate(() => {
      type Root = { scrollWidth: number; clientWidth: number };
      const root = (globalThis as unknown as { document: { documentElement: Root } }).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await page.close();
  });

  it('shows the coverage table and the residue', async () => {
    const { page } = await open();
    const documented = page.locator('#coverage-table tr[data-standing="documented"] td');
    const cells = await documented.allTextContents();
    const withTests = doc.coverage.documented.withTests.length;
    const total = withTests + doc.coverage.documented.withoutTests.length;
    expect(cells[0]).toBe(String(total));
    expect(cells[1]).toMatch(new RegExp(`^${withTests} \\(\\d+%\\)$`));
    expect(cells[2]).toBe(String(doc.coverage.documented.withoutTests.length));
    expect(await page.locator('#residue-table tbody tr').count()).toBe(2);
    await page.close();
  });

  it('prints: the verdict colours survive print mode and the page renders to PDF', async () => {
    const { page } = await open('print');
    const bg = await page
      .locator('#matrix tr[data-rule="REST.QUERY.FILTER_AND"] .v')
      .evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el)
            .backgroundColor,
      );
    expect(bg).toBe('rgb(207, 34, 46)');
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await page.close();
  });
});
