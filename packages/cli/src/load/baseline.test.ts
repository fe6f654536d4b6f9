import { baselineText, compareWithBaseline, figureChange, formatChange, saturationBest } from '@erpcert/runs';
import { describe, expect, it } from 'vitest';
import { sampleLoadRun } from './testing.js';

describe('figureChange', () => {
  it.each([
    ['a higher rate is better', true, 4, 5, 'better', 0.25],
    ['a lower rate is worse', true, 10, 8, 'worse', -0.2],
    ['a longer read is worse', false, 0.5, 0.75, 'worse', 0.5],
    ['a lower p99 is better', false, 200, 100, 'better', -0.5],
    ['equal is the same', false, 3, 3, 'same', 0],
    ['within half a percent is the same', true, 1000, 1004, 'same', 0.004],
    ['from zero has no ratio', false, 0, 2, 'worse', null],
  ] as const)('%s', (_name, higherIsBetter, before, after, direction, change) => {
    const c = figureChange('invoices', { figure: 'f', higherIsBetter }, before, after);
    expect(c.direction).toBe(direction);
    expect(c.change).toBe(change);
  });
});

describe('compareWithBaseline', () => {
  it('compares every figure of the scenarios both runs have', () => {
    const before = sampleLoadRun();
    const now = structuredClone(sampleLoadRun().scenarios).filter((e) => e.scenario !== 'sync');
    const tx = now.find((e) => e.scenario === 'transactions')!;
    Object.assign(tx, { achievedRate: 9, latencyMs: { ...tx.latencyMs, p95: 28, p99: 38 } });
    const b = compareWithBaseline(now, before, 'reports/load/old');
    const get = (scenario: string, figure: string) =>
      b.changes.find((c) => c.scenario === scenario && c.figure === figure);
    expect(get('transactions', 'achievedRate')).toMatchObject({
      before: 10,
      after: 9,
      direction: 'worse',
      change: -0.1,
    });
    expect(get('transactions', 'latencyMs.p99')).toMatchObject({
      before: 19,
      after: 38,
      direction: 'worse',
      change: 1,
    });
    expect(get('transactions', 'latencyMs.p95')).toMatchObject({
      before: 14,
      after: 28,
      direction: 'worse',
      change: 1,
    });
    expect(get('read-raw', 'read.seconds')).toMatchObject({ direction: 'same' });
    expect(get('invoices', 'saturation.best')).toMatchObject({ before: 171.5, after: 171.5 });
    expect(b.onlyThere).toEqual(['sync']);
    expect(b.onlyHere).toEqual([]);
    const text = baselineText(b);
    expect(text).toContain('Change against the baseline reports/load/old');
    expect(text).toMatch(/transactions\s+achievedRate\s+10\s+9\s+-10 %\s+worse/);
  });

  it('a baseline of an erpcert that did not measure p95: p95 is not compared (no change from 0), the rest is', () => {
    const before = structuredClone(sampleLoadRun());
    for (const e of before.scenarios) delete (e.latencyMs as { p95?: number }).p95;
    const b = compareWithBaseline(sampleLoadRun().scenarios, before, 'reports/load/old');
    expect(b.changes.filter((c) => c.figure === 'latencyMs.p95')).toEqual([]);
    expect(b.changes.filter((c) => c.figure === 'latencyMs.p99')).toHaveLength(6);
  });

  it('saturation best is the best clean step', () => {
    expect(saturationBest(sampleLoadRun().scenarios[0]!)).toBe(171.5);
    expect(formatChange(0.125)).toBe('+12.5 %');
    expect(formatChange(null)).toBe('n/a');
  });
});
