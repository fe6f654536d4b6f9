/**
 * A short run of every scenario under k6 against `erpcert serve --seed-size 10000` (10,000 TRVc journal entries:
 * what the reads need), asserting the LoadScenarioResult each produces and the three files of handleSummary.
 * Bounded to a few seconds per scenario; speed is not asserted (the throughput figures live in benchmarks).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadScenarioResult, ScenarioName } from '../scenarios/catalogue.js';
import { k6Available } from './k6-binary.js';
import type { K6ScenarioOptions } from './run-options.js';
import { runK6Scenario, runK6ScenarioDetailed } from './run-scenario.js';
import { type ServedErp, serveErp } from './testing/erpcert-serve.js';

const USER = 'loadtester';
const PASSWORD = 'Pw-k6-smoke-7f3c9a'; // distinctive, so that the test can prove it is printed nowhere

let erp: ServedErp | undefined;
let out: string;

/** Asserts the shape of a LoadScenarioResult read back from JSON (the type, checked at run time). */
function expectResultShape(value: unknown, scenario: ScenarioName): asserts value is LoadScenarioResult {
  const r = value as LoadScenarioResult;
  expect(r.scenario).toBe(scenario);
  expect(r.engine).toBe('k6');
  expect(['pass', 'fail', 'info']).toContain(r.verdict);
  expect(typeof r.reason).toBe('string');
  for (const key of ['requests', 'errors', 'droppedIterations', 'durationSeconds'] as const) {
    expect(Number.isFinite(r[key]), key).toBe(true);
  }
  for (const key of ['p50', 'p90', 'p95', 'p99', 'max'] as const)
    expect(Number.isFinite(r.latencyMs[key]), key).toBe(true);
  expect(r.latencyMs.p50).toBeLessThanOrEqual(r.latencyMs.max);
  expect(r.latencyMs.p90).toBeLessThanOrEqual(r.latencyMs.p95);
  expect(r.latencyMs.p95).toBeLessThanOrEqual(r.latencyMs.p99);
}

/** A stepped invoices run through runK6Scenario (one k6 process per step). */
function stepped(saturation: NonNullable<K6ScenarioOptions['saturation']>): Promise<LoadScenarioResult> {
  return runK6Scenario({
    scenario: 'invoices',
    target: erp!.url,
    user: USER,
    password: PASSWORD,
    outDir: join(out, 'invoices-stepped'),
    timeoutMs: 5000,
    saturation,
  });
}

async function run(scenario: ScenarioName, extra: Partial<K6ScenarioOptions> = {}) {
  const detailed = await runK6ScenarioDetailed({
    scenario,
    target: erp!.url,
    user: USER,
    password: PASSWORD,
    outDir: join(out, scenario),
    durationSeconds: 2,
    timeoutMs: 5000,
    pauseMs: 100,
    fullCheckEvery: 1, // every operation fully checked, so that the check counts below are exact
    ...extra,
  });
  const files = {
    json: await readFile(detailed.files.json, 'utf8'),
    junit: await readFile(detailed.files.junit, 'utf8'),
    markdown: await readFile(detailed.files.markdown, 'utf8'),
  };
  for (const [name, text] of Object.entries({ ...files, log: detailed.log })) {
    expect(text.includes(PASSWORD), `${name} must not contain the password`).toBe(false);
  }
  const parsed = JSON.parse(files.json) as { result: unknown; summary: unknown };
  expectResultShape(parsed.result, scenario);
  expect(parsed.result).toEqual(detailed.result);
  return { ...detailed, files };
}

describe.skipIf(!k6Available())(
  'k6 scenarios against erpcert serve (skipped only when k6 is not built: pnpm build)',
  () => {
    beforeAll(async () => {
      out = await mkdtemp(join(tmpdir(), 'erpcert-k6-'));
      erp = await serveErp(['--seed-size', '10000', '--user', USER, '--password', PASSWORD]);
    }, 90_000);

    afterAll(async () => {
      await erp?.stop();
      if (out !== undefined) await rm(out, { recursive: true, force: true });
    });

    it('invoices: confirmed 1-row invoices at 4/s pass the documented 3/s', async () => {
      const { result, files } = await run('invoices');
      expect(result.verdict).toBe('pass');
      expect(result.offeredRate).toBe(4);
      expect(result.requests).toBe(8); // 4/s x 2 s, one POST each
      expect(result.achievedRate).toBe(4);
      expect(result.checks?.fails).toBe(0);
      expect(result.errors).toBe(0);
      expect(result.droppedIterations).toBe(0);
      // the JUnit file: well-formed, one testcase per gating threshold, none failed
      expect(XMLValidator.validate(files.junit)).toBe(true);
      const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(files.junit);
      const cases = [junit.testsuites.testsuite.testcase].flat();
      expect(cases).toHaveLength(result.thresholds!.length);
      expect(cases.some((c: { failure?: unknown }) => c.failure !== undefined)).toBe(false);
      // the Markdown file: the documented-vs-measured table with this run's row
      expect(files.markdown).toContain('| Scenario | Documented | Measured | Ratio | Verdict |');
      expect(files.markdown).toContain('| invoices | 3 to 4/s | 4/s | 1.333 | pass |');
    }, 60_000);

    it('transactions: 2-row journal entries at 10/s reach the documented 10/s', async () => {
      const { result } = await run('transactions');
      expect(result.verdict).toBe('pass');
      expect(result.requests).toBe(20);
      expect(result.achievedRate).toBe(10);
      expect(result.checks).toEqual({ passes: 100, fails: 0 }); // 5 checks per entry
    }, 60_000);

    it('transactions, default sampling: the cheap check on every entry, the full checks on every 16th', async () => {
      const { result } = await run('transactions', { fullCheckEvery: undefined });
      expect(result).toMatchObject({ verdict: 'pass', requests: 20, achievedRate: 10 });
      // iterations 0 and 16 get the cheap check and the 4 full checks, the other 18 the cheap check alone
      expect(result.checks).toEqual({ passes: 18 + 2 * 5, fails: 0 });
    }, 60_000);

    it.each([['read-raw', 10] as const, ['read-fields', 7] as const])(
      '%s: 10,000 TRVc in batches of 1,000 and 5,000, within the documented %i s',
      async (scenario, seconds) => {
        const { result } = await run(scenario);
        expect(result.verdict).toBe('pass');
        expect(result.reads?.map((r) => [r.batch, r.records])).toEqual([
          [1000, 10_000],
          [5000, 10_000],
        ]);
        expect(result.requests).toBe(12); // 10 + 2 batch requests
        for (const r of result.reads!) {
          expect(r.seconds).toBeLessThanOrEqual(seconds);
          expect(r.pacedSeconds).toBeGreaterThanOrEqual(r.seconds); // the pauses are outside the measured time
          expect(r.bytes).toBeGreaterThan(0);
        }
        expect(result.bytesPerRecord).toBe(Math.round((result.read!.bytes / result.read!.records) * 10) / 10);
      },
      60_000,
    );

    it('read-fields asks for 10 fields, so its records are smaller than the raw ones', async () => {
      const raw = JSON.parse(await readFile(join(out, 'read-raw', 'read-raw.k6.json'), 'utf8'))
        .result as LoadScenarioResult;
      const fields = JSON.parse(await readFile(join(out, 'read-fields', 'read-fields.k6.json'), 'utf8'))
        .result as LoadScenarioResult;
      expect(fields.bytesPerRecord).toBeLessThan(raw.bytesPerRecord!);
    });

    it('sync: every change read through updates_after is exactly what was written (verdict info), dashboard riding along', async () => {
      const dashboard = join(out, 'sync', 'dashboard.html');
      const { result, summary } = await run('sync', {
        durationSeconds: 3,
        webDashboardExport: dashboard,
        env: { K6_WEB_DASHBOARD_PERIOD: '1s' }, // k6 skips the report of a run shorter than its period (10 s)
      });
      expect(result.verdict).toBe('info');
      expect(result.checks?.fails).toBe(0);
      const exact = summary?.root_group?.checks.find(
        (c) => c.name === 'sync: exactly the new records since the last Sequence',
      );
      expect(exact?.passes).toBe(6); // 2/s x 3 s iterations
      expect(exact?.fails).toBe(0);
      const html = await readFile(dashboard, 'utf8');
      expect(html.trimStart().slice(0, 15).toLowerCase()).toBe('<!doctype html>');
    }, 60_000);

    it('portal-mix: lookups, list pages and documents with one Basic login per VU, then the cookie (verdict info)', async () => {
      const { result, summary } = await run('portal-mix');
      expect(result.verdict).toBe('info');
      expect(result.checks?.fails).toBe(0);
      const passes = (name: string) => summary?.root_group?.checks.find((c) => c.name === name)?.passes ?? 0;
      expect(passes('lookup: at most 50 results (PORTAL.LOOKUP.CAP50)')).toBe(5); // 10 arrivals: 5 lookups,
      expect(passes('list: paged (count, page as asked)')).toBe(3); // 3 list pages,
      expect(passes('document: base64 of a PDF')).toBe(2); // 2 documents
      const logins = passes('portal: login sets HSESSION');
      expect(logins).toBeGreaterThan(0);
      expect(result.requests).toBe(10 + logins); // every other request went with the cookie alone
    }, 60_000);

    it('saturation: one k6 run per step, doubling to the maximum, k6 CPU measured at every step', async () => {
      const result = await stepped({ start: 2, maxRate: 4, p99LimitMs: 5000, stageSeconds: 2 });
      const offered = result.saturation?.map((s) => s.offered) ?? [];
      expect(offered[0]).toBe(2);
      expect(offered.every((o) => o <= 4)).toBe(true);
      for (const step of result.saturation!) {
        expect(step.p99).toBeGreaterThan(0);
        expect(step.generator?.cpuCores).toBeGreaterThan(0); // /proc/<pid>/stat of the k6 child
        expect(step.generator?.workers).toBeGreaterThanOrEqual(1);
      }
      // on a quiet machine both steps hold and the maximum stops the run; a busy one may break a step
      if (result.saturationLimit?.limitedBy === 'step-limit') {
        expect(offered).toEqual([2, 4]);
        expect(result.achievedRate).toBe(4);
        expect(result.verdict).toBe('pass'); // >= the documented 3/s
      } else expect(result.saturationLimit?.evidence).toMatch(/step broke/);
    }, 90_000);

    it('saturation: a step whose p99 breaks the limit ends the run and names the step', async () => {
      const result = await stepped({ start: 2, maxRate: 16, p99LimitMs: 0.001, stageSeconds: 2 });
      expect(result.saturation?.map((s) => s.offered)).toEqual([2]); // the first step broke: nothing to refine
      expect(result.reason).toMatch(/the 2\/s step broke \(p99 [\d.]+ ms >= 0\.001 ms/);
      expect(result.saturationLimit?.limitedBy).toMatch(/^(target|generator)$/);
      expect(result.verdict).toBe('fail');
    }, 60_000);

    it('a wrong password gives a failed verdict with the reason, not an error', async () => {
      const { result } = await run('invoices', { password: 'not-the-password' });
      expect(result.verdict).toBe('fail');
      expect(result.reason).toMatch(/CUVc C0001 not found on the target \(HTTP 401\)/);
    }, 60_000);
  },
);
