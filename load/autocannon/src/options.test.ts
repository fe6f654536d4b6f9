import type { K6ScenarioOptions } from '@erpcert/load-k6';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { LoadConfigError, type LoadRunOptions } from './options.js';
import { checkOptions, hardTimeoutMs, offeredRate } from './run-scenario.js';

describe('options', () => {
  it('takes the k6 engine options as they are (one object for either engine)', () => {
    expectTypeOf<K6ScenarioOptions>().toExtend<LoadRunOptions>();
  });

  it.each([
    ['invoices', undefined, 4],
    ['transactions', undefined, 10],
    ['sync', undefined, 2],
    ['portal-mix', undefined, 5],
    ['invoices', 7, 7],
  ] as const)('%s offers %s -> %i/s', (scenario, rate, want) => {
    const o: LoadRunOptions = { scenario, target: 'http://127.0.0.1:1', ...(rate ? { rate } : {}) };
    expect(offeredRate(checkOptions(o), o)).toBe(want);
  });

  it.each([
    [{ scenario: 'nope' }, 'unknown scenario'],
    [{ scenario: 'invoices', durationSeconds: 0 }, 'durationSeconds'],
    [{ scenario: 'invoices', rate: 2.5 }, 'rate'],
    [{ scenario: 'read-raw', batchSizes: [500] }, '1000 to 5000 records per request'],
    [{ scenario: 'read-raw', batchSizes: [6000] }, '1000 to 5000'],
    [{ scenario: 'invoices', saturation: { start: 0, maxRate: 8, p99LimitMs: 2000, stageSeconds: 1 } }, 'start >= 1'],
    [
      { scenario: 'invoices', saturation: { start: 8, maxRate: 4, p99LimitMs: 2000, stageSeconds: 1 } },
      'maxRate >= start',
    ],
    [{ scenario: 'invoices', fullCheckEvery: 0 }, 'fullCheckEvery'],
  ])('refuses %j', (bad, message) => {
    const o = { target: 'http://127.0.0.1:1', ...bad } as LoadRunOptions;
    expect(() => checkOptions(o)).toThrow(LoadConfigError);
    expect(() => checkOptions(o)).toThrow(message);
  });

  it('bounds every run: a longer window or more steps give a later hard stop', () => {
    const base: LoadRunOptions = { scenario: 'invoices', target: 'http://x', durationSeconds: 5 };
    expect(hardTimeoutMs({ ...base, durationSeconds: 50 })).toBeGreaterThan(hardTimeoutMs(base));
    const sat = { start: 1, maxRate: 100, p99LimitMs: 2000, stageSeconds: 2 };
    expect(hardTimeoutMs({ ...base, saturation: { ...sat, maxSteps: 10 } })).toBeGreaterThan(
      hardTimeoutMs({ ...base, saturation: { ...sat, maxSteps: 2 } }),
    );
  });
});
