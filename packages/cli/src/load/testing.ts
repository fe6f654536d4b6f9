/**
 * A hand-written load run for the writer, chart and browser tests: all six scenarios, one failing on a
 * throttled target, saturation curves on the two rate scenarios.
 */
import { erpcertVersion } from '@erpcert/client';
import type { LoadRunDocument } from '@erpcert/runs';
import { scenarioEntry } from '@erpcert/runs';

const latency = (p50: number, p90: number, p95: number, p99: number, max: number) => ({ p50, p90, p95, p99, max });

/** The sample run; `overrides` replace top-level run fields. */
export function sampleLoadRun(overrides: Partial<LoadRunDocument['run']> = {}): LoadRunDocument {
  const invoicesCurve = [
    { offered: 4, achieved: 4, p99: 12, errors: 0, dropped: 0, phase: 'geometric' as const },
    { offered: 61, achieved: 61, p99: 35, errors: 0, dropped: 0, phase: 'geometric' as const },
    { offered: 118, achieved: 118, p99: 80, errors: 0, dropped: 0, phase: 'geometric' as const },
    {
      offered: 175,
      achieved: 171.5,
      p99: 420,
      errors: 0,
      dropped: 0,
      phase: 'geometric' as const,
      generator: {
        cpuCores: 0.61,
        workers: 1,
        cpuMicrosPerOp: 3485,
        eventLoopDelayMs: 4,
        machineBusyCores: 1.42,
        machineCores: 2,
      },
    },
    {
      offered: 232,
      achieved: 180,
      p99: 2300,
      errors: 0,
      dropped: 104,
      phase: 'geometric' as const,
      generator: {
        cpuCores: 0.98,
        workers: 1,
        cpuMicrosPerOp: 4224,
        eventLoopDelayMs: 31,
        machineBusyCores: 1.96,
        machineCores: 2,
        targetCpuCores: 0.71,
      },
    },
  ];
  const transactionsCurve = [
    { offered: 10, achieved: 10, p99: 9, errors: 0, dropped: 0 },
    { offered: 120, achieved: 120, p99: 22, errors: 0, dropped: 0 },
    { offered: 230, achieved: 229, p99: 140, errors: 0, dropped: 0 },
    { offered: 340, achieved: 300, p99: 900, errors: 0, dropped: 0 },
  ];
  const scenarios = [
    scenarioEntry(
      {
        scenario: 'invoices',
        engine: 'autocannon',
        offeredRate: 4,
        achievedRate: 2,
        bytesPerRecord: 1329.3,
        latencyMs: latency(480, 950, 990, 1010, 1012),
        requests: 30,
        errors: 0,
        droppedIterations: 20,
        durationSeconds: 11.2,
        checks: { passes: 20, fails: 0 },
        verdict: 'fail',
        reason:
          '20 of 40 offered operations were dropped: the target did not keep up with 4/s; achieved 2/s, below the documented 3/s',
      },
      {
        scenario: 'invoices',
        engine: 'autocannon',
        latencyMs: latency(30, 60, 1200, 2300, 2400),
        requests: 1200,
        errors: 0,
        droppedIterations: 104,
        durationSeconds: 10.4,
        verdict: 'pass',
        reason:
          'the load generator, not the target, topped out at 171.5/s checked operations: the 232/s step broke (104 dropped iterations) with the generator at its limit',
        saturation: invoicesCurve,
        saturationLimit: {
          limitedBy: 'generator',
          evidence:
            'at 232/s the generator was the limit: its CPU was at 85 % or more of its cores (generator CPU 0.98 of 1 core(s), 4224 CPU-µs per operation, event loop late by 31 ms on average)',
          advice:
            "the knee is the load generator's, not the target's: run again with --engine k6, give the generator more workers or cores, or load from a second machine",
        },
      },
    ),
    scenarioEntry(
      {
        scenario: 'transactions',
        engine: 'autocannon',
        offeredRate: 10,
        achievedRate: 10,
        bytesPerRecord: 953,
        latencyMs: latency(6, 11, 14, 19, 25),
        requests: 100,
        errors: 0,
        droppedIterations: 0,
        durationSeconds: 10.05,
        checks: { passes: 100, fails: 0 },
        verdict: 'pass',
        reason: 'achieved 10/s checked operations at an offered 10/s, no drops, no errors (documented: about 10/s)',
      },
      {
        scenario: 'transactions',
        engine: 'autocannon',
        latencyMs: latency(8, 20, 310, 900, 950),
        requests: 1400,
        errors: 0,
        droppedIterations: 0,
        durationSeconds: 8.2,
        verdict: 'pass',
        reason: 'the target saturates at 229/s checked operations: the 340/s step broke (p99 900 ms >= 800 ms)',
        saturation: transactionsCurve,
        saturationLimit: {
          limitedBy: 'target',
          evidence: 'the 340/s step broke (last good step 230/s): p99 900 ms >= 800 ms; the generator had room',
        },
      },
    ),
    scenarioEntry({
      scenario: 'read-raw',
      engine: 'autocannon',
      read: { records: 10_000, seconds: 0.62, bytes: 6_356_120, batch: 1000, pacedSeconds: 9.7 },
      reads: [
        { records: 10_000, seconds: 0.62, bytes: 6_356_120, batch: 1000, pacedSeconds: 9.7 },
        { records: 10_000, seconds: 0.41, bytes: 6_355_800, batch: 5000, pacedSeconds: 1.3 },
      ],
      bytesPerRecord: 635.6,
      latencyMs: latency(45, 69, 120, 197, 197),
      requests: 12,
      errors: 0,
      droppedIterations: 0,
      durationSeconds: 11,
      verdict: 'pass',
      reason: 'read 10000 records at every batch size within 0.62 s of request time (documented: about 10 s)',
    }),
    scenarioEntry({
      scenario: 'read-fields',
      engine: 'autocannon',
      read: { records: 10_000, seconds: 0.5, bytes: 4_239_968, batch: 1000, pacedSeconds: 9.6 },
      reads: [
        { records: 10_000, seconds: 0.5, bytes: 4_239_968, batch: 1000, pacedSeconds: 9.6 },
        { records: 10_000, seconds: 0.33, bytes: 4_239_700, batch: 5000, pacedSeconds: 1.2 },
      ],
      bytesPerRecord: 424,
      latencyMs: latency(44, 71, 85, 92, 92),
      requests: 12,
      errors: 0,
      droppedIterations: 0,
      durationSeconds: 10.8,
      verdict: 'pass',
      reason: 'read 10000 records at every batch size within 0.50 s of request time (documented: about 7 s)',
    }),
    scenarioEntry({
      scenario: 'sync',
      engine: 'autocannon',
      offeredRate: 2,
      achievedRate: 2,
      latencyMs: latency(10, 38, 44, 51, 51),
      requests: 40,
      errors: 0,
      droppedIterations: 0,
      durationSeconds: 10.1,
      verdict: 'info',
      reason: 'no documented figure; 20 operations offered at 2/s, achieved 2/s, all checks passed',
    }),
    scenarioEntry({
      scenario: 'portal-mix',
      engine: 'autocannon',
      offeredRate: 5,
      achievedRate: 5,
      latencyMs: latency(73, 89, 104, 120, 130),
      requests: 50,
      errors: 0,
      droppedIterations: 0,
      durationSeconds: 10.2,
      verdict: 'info',
      reason: 'no documented figure; 50 operations offered at 5/s, achieved 5/s, all checks passed',
    }),
  ];
  return {
    schema: 'erpcert-load-results/1',
    tool: { name: 'erpcert', version: erpcertVersion() },
    run: {
      startedAt: '2026-01-02T03:04:05.000Z',
      finishedAt: '2026-01-02T03:05:35.000Z',
      durationSeconds: 90,
      engine: 'autocannon',
      engineNote: 'k6 is not built, so the Node-only autocannon engine runs',
      target: {
        url: 'http://127.0.0.1:40123',
        embedded: true,
        seedSize: 10_000,
        user: 'erpcert',
        compcode: 1,
        companyIn: 'query',
        portalPath: '/WebErpAPI.hal',
      },
      settings: {
        scenarios: ['invoices', 'transactions', 'read-raw', 'read-fields', 'sync', 'portal-mix'],
        durationSeconds: 10,
        rate: null,
        pauseMs: 1000,
        batchSizes: [1000, 5000],
        timeoutMs: 10_000,
        saturation: { stages: 8, stageSeconds: 2, maxRate: null },
      },
      command: 'erpcert load --scenario all --duration 10',
      outcome: 'fail',
      exitCode: 1,
      interrupted: false,
      ...overrides,
    },
    scenarios,
    baseline: null,
    problems: [],
  };
}
