import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipWithoutChromium } from '../testing/chromium.js';
import { renderLoadReportHtml } from './report-html.js';
import { sampleLoadRun } from './testing.js';

// skips only where chromium is not installed and this is not CI (testing/chromium.ts)
describe.skipIf(skipWithoutChromium)('load report.html in headless Chromium', () => {
  const doc = sampleLoadRun();
  const dir = mkdtempSync(join(tmpdir(), 'erpcert-load-html-'));
  const file = join(dir, 'report.html');
  let browser: Browser;

  beforeAll(async () => {
    writeFileSync(file, renderLoadReportHtml(doc));
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function open() {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url() !== pathToFileURL(file).href) requests.push(r.url());
    });
    await page.goto(pathToFileURL(file).href);
    return { page, requests };
  }

  it('shows the verdict table: one row per scenario, documented against measured', async () => {
    const { page, requests } = await open();
    expect(await page.locator('#verdicts tbody tr').count()).toBe(6);
    expect(await page.locator('#verdicts tr[data-scenario="invoices"] .v').textContent()).toBe('fail');
    expect(await page.locator('#verdicts tr[data-scenario="read-raw"] td').nth(3).textContent()).toBe('16.13x');
    expect(await page.locator('#outcome').textContent()).toBe('FAIL: 1 scenario(s) missed their threshold');
    expect(await page.locator('#latency tbody tr').count()).toBe(6);
    expect(requests).toEqual([]); // self-contained: nothing else is loaded
    await page.close();
  });

  it('draws each saturation curve as a visible SVG chart with axes, two series and a legend', async () => {
    const { page } = await open();
    const charts = page.locator('svg.saturation-chart');
    expect(await charts.count()).toBe(2);
    for (const scenario of ['invoices', 'transactions']) {
      const chart = page.locator(`svg.saturation-chart[data-scenario="${scenario}"]`);
      await chart.scrollIntoViewIfNeeded();
      expect(await chart.isVisible()).toBe(true);
      const box = await chart.boundingBox();
      expect(box!.width).toBeGreaterThan(600);
      expect(box!.height).toBeGreaterThan(300);
      for (const part of [
        '.axis-x',
        '.axis-y-left',
        '.axis-y-right',
        '.series-throughput',
        '.series-p99',
        '.legend',
        '.documented',
      ]) {
        const el = chart.locator(part);
        expect(await el.count(), `${scenario} ${part}`).toBe(1);
        expect(await el.isVisible(), `${scenario} ${part} visible`).toBe(true);
        const b = await el.boundingBox();
        expect(b!.width, `${scenario} ${part} width`).toBeGreaterThan(0);
      }
      const points = doc.scenarios.find((e) => e.scenario === scenario)!.saturation!.length;
      expect(await chart.locator('.markers-throughput circle').count()).toBe(points);
      expect(await chart.locator('.markers-p99 rect').count()).toBe(points);
      expect(await chart.locator('.axis-x .tick').count()).toBeGreaterThanOrEqual(3);
    }
    // the throughput line rises from the first step to the last (SVG y grows downwards)
    const inv = page.locator('svg.saturation-chart[data-scenario="invoices"] .markers-throughput circle');
    const first = await inv.first().boundingBox();
    const last = await inv.last().boundingBox();
    expect(last!.x).toBeGreaterThan(first!.x);
    expect(last!.y).toBeLessThan(first!.y);
    const png = await page.locator('svg.saturation-chart[data-scenario="invoices"]').screenshot();
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    await page.close();
  });
});
