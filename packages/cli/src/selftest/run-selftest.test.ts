/**
 * The self-test engine end to end, on one mutant: two seeds, two lanes, a baseline per seed. (The figures
 * over every mutant are measured by `erpcert self-test`, never by a test: README "The suite is tested too".)
 */
import { describe, expect, it } from 'vitest';
import { runSelfTest } from './run-selftest.js';

describe('runSelfTest', () => {
  it('runs a mutant once per seed through the proxy, judges it, and runs a clean baseline', async () => {
    const lines: string[] = [];
    const report = await runSelfTest({
      only: ['limit-ignored'],
      seeds: [7, 8],
      lanes: 2,
      progress: (l) => lines.push(l),
    });
    const [m] = report.mutants;
    expect(m!.status).toBe('judged');
    expect(m!.runs.map((r) => r.seed)).toEqual([7, 8]);
    for (const r of m!.runs) {
      expect(r.exitCode).toBe(1);
      expect(r.proxyHits.requests).toBeGreaterThan(0);
      expect(r.failed).toContain('REST.QUERY.LIMIT');
    }
    expect(m!.caught).toBe(true);
    // whatever else FAILed is listed as collateral, and precision says so
    expect(m!.precise).toBe(m!.collateral.inSelection.length + m!.collateral.outside.length === 0);
    expect(report.baseline.select).toBe('REST.QUERY.*');
    expect(report.baseline.runs.map((r) => [r.seed, r.exitCode, r.failed])).toEqual([
      [7, 0, []],
      [8, 0, []],
    ]);
    expect(report.detection).toMatchObject({ count: 1, of: 1 });
    expect(lines.filter((l) => /^\[\d\/4\] /.test(l))).toHaveLength(4);
    expect(lines.some((l) => l.startsWith('  => limit-ignored: caught'))).toBe(true);
  }, 900_000);

  it('with profile gate runs every conform under --profile gate and says so in the report', async () => {
    const lines: string[] = [];
    const report = await runSelfTest({
      only: ['limit-ignored'],
      seeds: [7],
      lanes: 1,
      profile: 'gate',
      progress: (l) => lines.push(l),
    });
    expect(report.profile).toBe('gate');
    expect(lines[0]).toContain('profile gate');
    const [m] = report.mutants;
    expect(m!.runs[0]!.failed).toContain('REST.QUERY.LIMIT');
    expect(report.baseline.runs.map((r) => [r.exitCode, r.failed])).toEqual([[0, []]]);
  }, 900_000);
});
