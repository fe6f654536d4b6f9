import { describe, expect, it } from 'vitest';
import type { RunSettings } from '../lib/env.js';
import { arrivals, arrivalWindow, pinnedOptions, rateOptions, readOptions } from '../lib/options.js';
import { ratePlan, readPlan, thresholdsOf } from '../lib/plan.js';

const settings: RunSettings = {
  target: 'http://127.0.0.1:1',
  user: 'u',
  password: 'p',
  companyIn: 'query',
  compcode: 1,
  portalPath: '/WebErpAPI.hal',
  durationSeconds: 10,
  timeoutMs: 10_000,
  outDir: '',
  runId: 'test',
  parallelism: 1,
  summaryToStdout: false,
  fullCheckEvery: 16,
};

describe('arrival-rate options (open model)', () => {
  it.each([
    [4, { rate: 4, timeUnit: '1s' }],
    [0.5, { rate: 500, timeUnit: '1000s' }],
    [2.25, { rate: 2250, timeUnit: '1000s' }],
  ])('rate %s/s is k6 rate %o', (rate, want) => {
    expect(arrivals(rate)).toEqual(want);
  });

  it.each([
    [10, 4, '9875ms'], // 40 arrivals at 0 .. 9.75 s; the 41st, due at 10 s, is outside the window
    [3, 10, '2950ms'],
    [1, 4, '1000ms'], // k6's minimum for arrival-rate durations
  ])('%s s at %s/s ends half a period early: %s', (seconds, rate, want) => {
    expect(arrivalWindow(seconds, rate)).toBe(want);
  });

  it('sizes the VUs from rate x timeout and bounds a started iteration by gracefulStop', () => {
    const plan = ratePlan('invoices', { offeredRate: 4, durationSeconds: 10 });
    const options = rateOptions(plan, settings, 1);
    expect(options.scenarios?.invoices).toMatchObject({
      executor: 'constant-arrival-rate',
      rate: 4,
      timeUnit: '1s',
      duration: '9875ms',
      preAllocatedVUs: 5,
      maxVUs: 42,
      gracefulStop: '11s',
    });
    // the result reads p50 (med), p90, p95 and p99 from the summary: k6 must be asked for each
    expect(options.summaryTrendStats).toEqual(expect.arrayContaining(['med', 'p(90)', 'p(95)', 'p(99)', 'max']));
    expect(rateOptions(plan, { ...settings, maxVUs: 3 }, 1).scenarios?.invoices).toMatchObject({
      maxVUs: 3,
      preAllocatedVUs: 3,
    });
  });

  it('turns the documented minimum into a count threshold over the window', () => {
    const thresholds = thresholdsOf(ratePlan('transactions', { offeredRate: 12, durationSeconds: 5 }));
    expect(thresholds).toMatchObject({
      checks: ['rate==1.0'],
      dropped_iterations: ['count==0'],
      erp_op_errors: ['count==0'],
      erp_ops: ['count>=50', 'count>=0'], // 10/s x 5 s; the second only keeps the metric in the summary
    });
  });

  it('steps the saturation variant with one tagged scenario per stage that aborts when it breaks', () => {
    const plan = ratePlan('invoices', {
      offeredRate: 4,
      durationSeconds: 10,
      saturation: { start: 2, step: 3, stages: 3, stageSeconds: 4, p99LimitMs: 500 },
    });
    const options = rateOptions(plan, settings, 1);
    expect(Object.keys(options.scenarios ?? {})).toEqual(['stage_0', 'stage_1', 'stage_2']);
    expect(options.scenarios?.stage_2).toMatchObject({ rate: 8, startTime: '8s', tags: { stage: '2' } });
    expect(options.thresholds?.['erp_req_duration{stage:1}']).toEqual([
      { threshold: 'p(99)<500', abortOnFail: true, delayAbortEval: '1s' },
    ]);
    expect(options.thresholds?.['dropped_iterations{scenario:stage_1}']).toHaveLength(1);
  });

  it('bounds a read by maxDuration: every request may take the timeout plus the pause', () => {
    const plan = readPlan('read-raw', { records: 10_000, batches: [1000, 5000], pauseMs: 1000 });
    const scenario = readOptions(plan, settings).scenarios?.['read-raw'];
    expect(scenario).toMatchObject({ executor: 'per-vu-iterations', vus: 1, iterations: 2, maxDuration: '137s' }); // 12 x 11 s + 5
  });
});

describe('a run pinned to the address the target guard checked (ERPCERT_CONNECT_ADDRESS)', () => {
  it.each([
    [
      'http://erp.example.com:8080/prefix',
      '203.0.113.7',
      { hosts: { 'erp.example.com': '203.0.113.7' }, maxRedirects: 0 },
    ],
    ['https://user@erp.example.com', '2001:db8::7', { hosts: { 'erp.example.com': '2001:db8::7' }, maxRedirects: 0 }],
    // an address literal is connected to as it stands: only the redirects are turned off
    ['http://127.0.0.1:8080', '127.0.0.1', { maxRedirects: 0 }],
    ['http://[::1]:8080', '::1', { maxRedirects: 0 }],
  ])('%s pinned to %s', (target, connectAddress, want) => {
    expect(pinnedOptions({ ...settings, target, connectAddress })).toEqual(want);
  });

  it('is in the options of every kind of plan, and absent without a pin (k6 resolves, redirects as it does)', () => {
    const pinned = { ...settings, target: 'http://erp.example.com', connectAddress: '203.0.113.7' };
    const rate = ratePlan('invoices', { offeredRate: 4, durationSeconds: 10 });
    const read = readPlan('read-raw', { records: 10_000, batches: [1000], pauseMs: 1000 });
    for (const options of [rateOptions(rate, pinned, 1), readOptions(read, pinned)])
      expect(options).toMatchObject({ hosts: { 'erp.example.com': '203.0.113.7' }, maxRedirects: 0 });
    for (const options of [rateOptions(rate, settings, 1), readOptions(read, settings)]) {
      expect(options.hosts).toBeUndefined();
      expect(options.maxRedirects).toBeUndefined();
    }
  });
});
