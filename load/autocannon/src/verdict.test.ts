import { scenarios } from '@erpcert/load-k6';
import { describe, expect, it } from 'vitest';
import { judge, judgeSaturation, type VerdictInput } from './verdict.js';

const byName = (name: string) => scenarios.find((s) => s.name === name)!.documented;
const read = (batch: number, seconds: number) => ({ records: 10_000, seconds, batch });
const clean: VerdictInput = { offered: 3, achievedRate: 3, operations: 30, errors: 0, droppedIterations: 0 };

describe('judge', () => {
  const cases: [string, string, VerdictInput, 'pass' | 'fail' | 'info', string][] = [
    ['invoices at the documented 3/s', 'invoices', clean, 'pass', 'achieved 3/s'],
    ['invoices under 3/s', 'invoices', { ...clean, achievedRate: 2 }, 'fail', 'below the documented 3/s'],
    [
      'dropped invoices',
      'invoices',
      { ...clean, droppedIterations: 4 },
      'fail',
      '4 of 30 offered operations were dropped',
    ],
    [
      'fast errors are not throughput',
      'invoices',
      { ...clean, errors: 2, failures: [{ reason: 'HTTP 503', count: 2 }] },
      'fail',
      'most often: HTTP 503',
    ],
    ['transactions: about 10/s', 'transactions', { ...clean, offered: 10, achievedRate: 10 }, 'pass', 'about 10/s'],
    ['read within 10 s', 'read-raw', { ...clean, reads: [read(1000, 0.6), read(5000, 0.4)] }, 'pass', 'within 0.60 s'],
    [
      'one batch size too slow',
      'read-raw',
      { ...clean, reads: [read(1000, 10.5), read(5000, 3)] },
      'fail',
      'batches of 1000: 10.50 s of request time, more than the documented 10 s',
    ],
    ['10 fields over 7 s', 'read-fields', { ...clean, reads: [read(1000, 7.2)] }, 'fail', 'documented 7 s'],
    [
      'too few records',
      'read-raw',
      { ...clean, reads: [{ records: 900, seconds: 0.1, batch: 1000 }] },
      'fail',
      'read 900 of 10000',
    ],
    ['nothing read', 'read-raw', { ...clean, reads: [] }, 'fail', 'nothing was read'],
    ['sync is info', 'sync', clean, 'info', 'no documented figure'],
    ['portal checks must hold', 'portal-mix', { ...clean, errors: 1 }, 'fail', '1 failed'],
    ['a stopped run fails', 'sync', { ...clean, stopped: true }, 'fail', 'stopped'],
  ];
  it.each(cases)('%s', (_name, scenario, input, verdict, reason) => {
    const got = judge(byName(scenario), input);
    expect(got.verdict).toBe(verdict);
    expect(got.reason).toContain(reason);
  });
});

describe('judgeSaturation', () => {
  it.each([
    ['invoices', 120, 'target', 'pass', 'the target saturates at 120/s'],
    ['invoices', 120, 'generator', 'pass', 'the load generator, not the target, topped out at 120/s'],
    ['invoices', 120, 'step-limit', 'pass', 'no limit found: the target held every step, best 120/s'],
    ['invoices', 2, 'target', 'fail', 'below the documented 3/s'],
    ['sync', 40, 'target', 'info', 'no documented figure'],
  ] as const)('%s with a knee at %i/s limited by %s: %s', (scenario, best, limitedBy, verdict, reason) => {
    const limit = { limitedBy, evidence: 'e' } as const;
    const got = judgeSaturation(byName(scenario), { best, why: 'the next step broke', limit });
    expect(got.verdict).toBe(verdict);
    expect(got.reason).toContain(reason);
  });
});
