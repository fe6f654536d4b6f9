import type { LoadRunDocument } from '@erpcert/runs';
import { diffLoad } from '@erpcert/runs';
import { describe, expect, it } from 'vitest';
import { sampleLoadRun } from '../load/testing.js';

/** The sample run with the `transactions` scenario's fields replaced (100 requests in the sample). */
function withTransactions(fields: Record<string, unknown>): LoadRunDocument {
  const doc = structuredClone(sampleLoadRun());
  Object.assign(doc.scenarios.find((e) => e.scenario === 'transactions')!, fields);
  return doc;
}
const figure = (d: ReturnType<typeof diffLoad>, name: string) =>
  d.figures.find((f) => f.scenario === 'transactions' && f.figure === name)!;
const latency = (p99: number, p95 = 14) => ({ p50: 6, p90: 11, p95, p99, max: 40 });

describe('diffLoad', () => {
  it('the same run twice: nothing moved, no verdict changed', () => {
    const d = diffLoad(sampleLoadRun(), sampleLoadRun());
    expect(d.figures.length).toBeGreaterThan(0);
    expect(d.figures.filter((f) => f.moved)).toEqual([]);
    expect(d.verdictChanges).toEqual([]);
  });

  it('a rate moves only beyond the counting error of its requests (100 each: 3*sqrt(2/100) = 42 %)', () => {
    const small = diffLoad(sampleLoadRun(), withTransactions({ achievedRate: 8 }));
    expect(figure(small, 'achievedRate')).toMatchObject({ before: 10, after: 8, direction: 'worse', moved: false });
    expect(figure(small, 'achievedRate').spread).toBeCloseTo(0.424, 3);
    const large = diffLoad(sampleLoadRun(), withTransactions({ achievedRate: 5 }));
    expect(figure(large, 'achievedRate')).toMatchObject({ direction: 'worse', moved: true });
  });

  it('with many requests the floor decides: 10 % by default, --spread changes it', () => {
    const many = (rate: number) => withTransactions({ achievedRate: rate, requests: 1_000_000 });
    expect(figure(diffLoad(many(10), many(9.5)), 'achievedRate').moved).toBe(false);
    expect(figure(diffLoad(many(10), many(8.5)), 'achievedRate').moved).toBe(true);
    expect(figure(diffLoad(many(10), many(9.5), 0.02), 'achievedRate').moved).toBe(true);
  });

  it('a time moves beyond the floor: p99 19 -> 20 ms stays, 19 -> 38 ms moved (worse)', () => {
    expect(figure(diffLoad(sampleLoadRun(), withTransactions({ latencyMs: latency(20) })), 'latencyMs.p99').moved).toBe(
      false,
    );
    expect(
      figure(diffLoad(sampleLoadRun(), withTransactions({ latencyMs: latency(38) })), 'latencyMs.p99'),
    ).toMatchObject({ moved: true, direction: 'worse' });
  });

  it('p95 is compared like the other times: 14 -> 15 ms stays, 14 -> 30 ms moved (worse)', () => {
    expect(
      figure(diffLoad(sampleLoadRun(), withTransactions({ latencyMs: latency(19, 15) })), 'latencyMs.p95'),
    ).toMatchObject({ before: 14, after: 15, moved: false });
    expect(
      figure(diffLoad(sampleLoadRun(), withTransactions({ latencyMs: latency(19, 30) })), 'latencyMs.p95'),
    ).toMatchObject({ before: 14, after: 30, moved: true, direction: 'worse' });
  });

  it('a run of an erpcert that did not measure p95: p95 not compared, and a note says it was not recorded', () => {
    const older = structuredClone(sampleLoadRun());
    for (const e of older.scenarios) delete (e.latencyMs as { p95?: number }).p95;
    const d = diffLoad({ ...older, tool: { ...older.tool, version: '0.0.9' } }, sampleLoadRun());
    expect(d.figures.filter((f) => f.figure === 'latencyMs.p95')).toEqual([]);
    expect(d.figures.filter((f) => f.figure === 'latencyMs.p99')).toHaveLength(6);
    expect(d.notes).toEqual([
      'p95 not recorded in the old run (erpcert 0.0.9 did not measure it): not compared for invoices, transactions, read-raw, read-fields, sync, portal-mix',
    ]);
    expect(diffLoad(sampleLoadRun(), sampleLoadRun()).notes).toEqual([]);
  });

  it('errors: zero to some always moved; some to more only beyond 3*sqrt(old+new)', () => {
    expect(figure(diffLoad(sampleLoadRun(), withTransactions({ errors: 2 })), 'errors')).toMatchObject({
      moved: true,
      direction: 'worse',
    });
    const noisy = diffLoad(withTransactions({ errors: 10 }), withTransactions({ errors: 14 }));
    expect(figure(noisy, 'errors').moved).toBe(false);
    const jump = diffLoad(withTransactions({ errors: 10 }), withTransactions({ errors: 40 }));
    expect(figure(jump, 'errors').moved).toBe(true);
  });

  it('verdict changes, scenarios only in one run, and different engines are reported', () => {
    const after = withTransactions({ verdict: 'fail' });
    const d = diffLoad(
      { ...sampleLoadRun(), scenarios: sampleLoadRun().scenarios.filter((e) => e.scenario !== 'sync') },
      { ...after, run: { ...after.run, engine: 'k6' } },
    );
    expect(d.verdictChanges).toEqual([{ scenario: 'transactions', before: 'pass', after: 'fail' }]);
    expect([d.onlyOld, d.onlyNew]).toEqual([[], ['sync']]);
    expect(d.notes).toEqual(['the runs used different engines: autocannon and k6']);
  });
});
