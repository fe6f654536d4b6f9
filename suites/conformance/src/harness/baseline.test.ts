import { describe, expect, it } from 'vitest';
import { Baselines, judgeStable } from './baseline.js';
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

describe('Baselines.refresh', () => {
  /** A context whose client answers each list read with the next of `answers` (records and the current sequence). */
  const reading = (answers: { records: Record<string, string>[]; sequence: string }[]) => {
    let last = answers[0]!;
    const list = async () => {
      // the size gauge (limit=max+1) and the unpaged read of one refresh see the same register
      const a = last;
      return {
        register: 'CUVc',
        sequence: a.sequence,
        sequenceHeader: a.sequence,
        records: a.records,
        systemVersion: '1',
        messages: [],
        format: 'json',
        raw: {
          text: JSON.stringify({
            data: { '@register': 'CUVc', '@sequence': a.sequence, '@systemversion': '1', CUVc: a.records },
          }),
        },
      };
    };
    const next = () => {
      last = answers.shift() ?? last;
    };
    const ctx = { client: { rest: { list } }, target: {} } as unknown as RuleContext;
    return { ctx, next };
  };
  const c1 = { '@register': 'CUVc', '@sequence': '5', '@url': '/api/1/CUVc/C1', Code: 'C1' };
  const c2 = { ...c1, '@url': '/api/1/CUVc/C2', Code: 'C2' };
  /** Reads the register as `first` answers it, then refreshes it as `second` answers it. */
  const refreshed = async (
    first: { records: Record<string, string>[]; sequence: string },
    second: { records: Record<string, string>[]; sequence: string },
  ) => {
    const { ctx, next } = reading([first, second]);
    const b = new Baselines();
    next();
    await b.all(ctx, 'CUVc');
    next();
    return b.refresh(ctx, 'CUVc');
  };

  it('the same records at the same sequence: unchanged', async () => {
    expect(await refreshed({ records: [c1], sequence: '9' }, { records: [c1], sequence: '9' })).toBe(false);
  });

  it('the same records at a later sequence (a record created and deleted meanwhile): changed', async () => {
    expect(await refreshed({ records: [c1], sequence: '9' }, { records: [c1], sequence: '12' })).toBe(true);
  });

  it('other records: changed', async () => {
    expect(await refreshed({ records: [c1], sequence: '9' }, { records: [c1, c2], sequence: '9' })).toBe(true);
  });
});
