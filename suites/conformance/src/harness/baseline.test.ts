import { describe, expect, it } from 'vitest';
import { type Baselines, judgeStable } from './baseline.js';
import type { RuleContext } from './rule-test.js';
import { ContractViolation } from './violation.js';

const ctx = {} as RuleContext;
/** Baselines whose refresh reports the given changes, one per call. */
const baselinesChanging = (changes: boolean[]) =>
  ({ refresh: async () => changes.shift() ?? false }) as unknown as Baselines;

describe('judgeStable', () => {
  it('passes when the attempt agrees with the model', async () => {
    expect(await judgeStable(ctx, baselinesChanging([]), 'CUVc', 'REST.QUERY.FIELDS', async () => undefined)).toBe(
      true,
    );
  });

  it('reports a difference as a violation when the register did not change', async () => {
    await expect(
      judgeStable(ctx, baselinesChanging([false]), 'CUVc', 'REST.QUERY.FIELDS', async () => 'extra field'),
    ).rejects.toThrow(new ContractViolation('REST.QUERY.FIELDS', 'extra field'));
  });

  it('retries with fresh data when the register changed, and judges the retry', async () => {
    const answers = ['stale', undefined];
    expect(
      await judgeStable(ctx, baselinesChanging([true]), 'CUVc', 'REST.QUERY.FIELDS', async () => answers.shift()),
    ).toBe(true);
  });

  it('gives up without a verdict when the register never holds still', async () => {
    expect(
      await judgeStable(ctx, baselinesChanging([true, true, true]), 'CUVc', 'REST.QUERY.FIELDS', async () => 'moving'),
    ).toBe(false);
  });
});
