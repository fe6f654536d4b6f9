import { describe, expect, it } from 'vitest';
import { ratePlan, readPlan } from '../lib/plan.js';
import { computeResult } from '../lib/result.js';
import type { K6Metric, K6SummaryData } from '../lib/summary-data.js';

const counter = (count: number, thresholds?: Record<string, boolean>): K6Metric => ({
  type: 'counter',
  contains: 'default',
  values: { count, rate: 0 },
  ...(thresholds === undefined
    ? {}
    : { thresholds: Object.fromEntries(Object.entries(thresholds).map(([k, ok]) => [k, { ok }])) }),
});
const trend = (p99: number): K6Metric => ({
  type: 'trend',
  contains: 'time',
  values: { med: p99 / 4, 'p(90)': p99 / 2, 'p(95)': (p99 * 3) / 4, 'p(99)': p99, max: p99 * 2, count: 10 },
});
const checks = (passes: number, fails: number): K6Metric => ({
  type: 'rate',
  contains: 'default',
  values: { rate: passes / (passes + fails), passes, fails },
  thresholds: { 'rate==1.0': { ok: fails === 0 } },
});
const summary = (metrics: Record<string, K6Metric>, ms = 10_000): K6SummaryData => ({
  state: { testRunDurationMs: ms },
  metrics,
});

describe('computeResult, rate scenarios (record-rest-api.md §8)', () => {
  const plan = ratePlan('invoices', { offeredRate: 4, durationSeconds: 10 });

  it('passes when 40 checked invoices in 10 s reach the documented 3/s', () => {
    const result = computeResult(
      plan,
      summary({
        erp_ops: counter(40, { 'count>=30': true }),
        erp_op_errors: counter(0, { 'count==0': true }),
        dropped_iterations: counter(0, { 'count==0': true }),
        erp_reqs: counter(40),
        erp_req_duration: trend(8),
        checks: checks(200, 0),
      }),
    );
    expect(result).toMatchObject({ verdict: 'pass', achievedRate: 4, offeredRate: 4, requests: 40, errors: 0 });
    expect(result.latencyMs).toEqual({ p50: 2, p90: 4, p95: 6, p99: 8, max: 16 });
  });

  it('fails below 3/s and names the figure', () => {
    const result = computeResult(
      plan,
      summary({ erp_ops: counter(20), erp_reqs: counter(20), checks: checks(100, 0) }),
    );
    expect(result.verdict).toBe('fail');
    expect(result.achievedRate).toBe(2);
    expect(result.reason).toMatch(/below the documented 3\/s/);
  });

  it('fails on dropped iterations and failed checks even when the count is reached', () => {
    const result = computeResult(
      plan,
      summary({
        erp_ops: counter(35),
        erp_op_errors: counter(5),
        dropped_iterations: counter(3),
        checks: checks(195, 5),
      }),
    );
    expect(result.verdict).toBe('fail');
    expect(result.reason).toMatch(/5 of 200 response checks failed/);
    expect(result.reason).toMatch(/3 iterations dropped/);
    expect(result.errors).toBe(5);
    expect(result.droppedIterations).toBe(3);
  });

  it('treats a gate missing from the summary as not held', () => {
    const result = computeResult(plan, summary({}));
    expect(result.thresholds?.every((t) => !t.ok)).toBe(true);
    expect(result.verdict).toBe('fail');
  });

  it('gives info for a scenario without a documented figure when its checks hold', () => {
    const sync = ratePlan('sync', { offeredRate: 2, durationSeconds: 5 });
    const ok = computeResult(sync, summary({ erp_ops: counter(10), checks: checks(50, 0) }));
    expect(ok.verdict).toBe('info');
    const broken = computeResult(
      sync,
      summary({ erp_ops: counter(9), erp_op_errors: counter(1), checks: checks(49, 1) }),
    );
    expect(broken.verdict).toBe('fail');
  });
});

describe('computeResult, saturation steps', () => {
  const plan = ratePlan('transactions', {
    offeredRate: 10,
    durationSeconds: 10,
    saturation: { start: 10, step: 10, stages: 4, stageSeconds: 2, p99LimitMs: 100 },
  });

  it('takes the best clean step before the first broken one', () => {
    const result = computeResult(
      plan,
      summary({
        'erp_ops{stage:0}': counter(20),
        'erp_ops{stage:1}': counter(40),
        'erp_ops{stage:2}': counter(44),
        'erp_op_errors{stage:2}': counter(0),
        'dropped_iterations{scenario:stage_2}': counter(16),
        'erp_ops{stage:3}': counter(0),
        'erp_req_duration{stage:0}': trend(5),
        'erp_req_duration{stage:1}': trend(9),
        'erp_req_duration{stage:2}': trend(300),
      }),
    );
    expect(result.saturation).toEqual([
      { offered: 10, achieved: 10, p99: 5, errors: 0, dropped: 0 },
      { offered: 20, achieved: 20, p99: 9, errors: 0, dropped: 0 },
      { offered: 30, achieved: 22, p99: 300, errors: 0, dropped: 16 },
    ]);
    expect(result.achievedRate).toBe(20);
    // the run stopped at the broken step: the gates of the step never reached are left out
    const stages = new Set(result.thresholds?.map((t) => /\{(?:stage:|scenario:stage_)(\d)\}/.exec(t.metric)?.[1]));
    expect([...stages].sort()).toEqual(['0', '1', '2']);
    expect(result.verdict).toBe('pass');
    expect(result.reason).toMatch(
      /the 30\/s step broke \(16 dropped iterations, p99 300 ms >= 100 ms, achieved 22\/s < 90 % of the offered 30\/s\)/,
    );
  });
});

describe('computeResult, reads (§4 rule 12, §8)', () => {
  const plan = readPlan('read-raw', { records: 10_000, batches: [1000, 5000], pauseMs: 1000 });

  it('passes when every batch size reads 10,000 records within 10 s of request time', () => {
    const result = computeResult(
      plan,
      summary({
        'erp_read_records{batch:1000}': counter(10_000),
        'erp_read_ms{batch:1000}': counter(1500),
        'erp_read_wall_ms{batch:1000}': counter(10_600),
        'erp_read_bytes{batch:1000}': counter(6_000_000),
        'erp_read_records{batch:5000}': counter(10_000),
        'erp_read_ms{batch:5000}': counter(1200),
        'erp_read_wall_ms{batch:5000}': counter(2300),
        'erp_read_bytes{batch:5000}': counter(6_000_000),
        checks: checks(40, 0),
      }),
    );
    expect(result.verdict).toBe('pass');
    expect(result.read).toEqual({ records: 10_000, seconds: 1.5, bytes: 6_000_000, batch: 1000, pacedSeconds: 10.6 });
    expect(result.bytesPerRecord).toBe(600);
    expect(result.reads).toHaveLength(2);
  });

  it('fails an incomplete or slow read and reports that one', () => {
    const result = computeResult(
      plan,
      summary({
        'erp_read_records{batch:1000}': counter(10_000),
        'erp_read_ms{batch:1000}': counter(12_000),
        'erp_read_records{batch:5000}': counter(5000),
        'erp_read_ms{batch:5000}': counter(900),
      }),
    );
    expect(result.verdict).toBe('fail');
    expect(result.read?.batch).toBe(5000);
    expect(result.reason).toMatch(/batches of 1000: 12 s of request time > documented 10 s/);
    expect(result.reason).toMatch(/batches of 5000: only 5000 of 10000 records read/);
  });
});

describe('computeResult, one runner of a shared run (k6-operator parallelism)', () => {
  const plan = ratePlan('transactions', { offeredRate: 10, durationSeconds: 3, parallelism: 2 });

  it('asks each runner for its share of the documented operations', () => {
    expect(plan.gates.find((g) => g.metric === 'erp_ops')?.expression).toBe('count>=15'); // 10/s x 3 s / 2
  });

  it('gives info, never pass, for a runner that held its share', () => {
    const result = computeResult(
      plan,
      summary({
        erp_ops: counter(15, { 'count>=15': true }),
        erp_op_errors: counter(0, { 'count==0': true }),
        dropped_iterations: counter(0, { 'count==0': true }),
        checks: checks(75, 0),
      }),
    );
    expect(result.verdict).toBe('info');
    expect(result.reason).toMatch(/^one of 2 runners \(merge their summaries for the verdict\); this runner: 5\/s/);
  });
});
