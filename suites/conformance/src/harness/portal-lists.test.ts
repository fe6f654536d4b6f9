import type { PortalList } from '@erpcert/client';
import { afterEach, describe, expect, it } from 'vitest';
import { beginObservations, endObservations, observationRecords } from './observations.js';
import { judgeQuiet, pagedBy, type QuietRead, recordsOnPage } from './portal-lists.js';
import type { RuleContext } from './rule-test.js';

/** A decoded list answer with `n` records and the given `<data>` attributes. */
function list(n: number, attrs: Record<string, number>): PortalList {
  return {
    register: 'IVVc',
    attrs: Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, String(v)])),
    count: attrs.count,
    page: attrs.page,
    perpage: attrs.perpage,
    totalpages: attrs.totalpages,
    total: attrs.total,
    records: Array.from({ length: n }, (_, i) => ({ SerNr: String(i + 1) })),
    messages: [],
    raw: {} as PortalList['raw'],
  };
}

describe('recordsOnPage', () => {
  it('gives full pages, the remainder on the last page and none after it', () => {
    expect([1, 2, 3, 4].map((p) => recordsOnPage(45, p, 20))).toEqual([20, 20, 5, 0]);
    expect(recordsOnPage(0, 1, 20)).toBe(0);
    expect(recordsOnPage(7, 1, 100)).toBe(7);
  });
});

describe('pagedBy', () => {
  it('holds for a page that agrees with its own perpage, count and totalpages', () => {
    expect(pagedBy('IVVc', list(20, { count: 45, page: 1, perpage: 20, totalpages: 3 }), 20)).toBe(true);
    expect(pagedBy('IVVc', list(5, { count: 45, page: 3, perpage: 20, totalpages: 3 }), 20)).toBe(true);
  });

  it('tells a server paging by its own size from one whose attributes contradict its records', () => {
    // asked perpage 7, the server paged by 20 and says so: paged by 20, not by 7
    const ownSize = list(20, { count: 45, page: 1, perpage: 20, totalpages: 3 });
    expect(pagedBy('IVVc', ownSize, 20)).toBe(true);
    expect(pagedBy('IVVc', ownSize, 7)).toBe(false);
    // perpage="20" on a page of 7 records out of 45, totalpages 7: follows no size of 20
    expect(pagedBy('IVVc', list(7, { count: 45, page: 1, perpage: 20, totalpages: 7 }), 20)).toBe(false);
    // the right records but a totalpages that does not match the count
    expect(pagedBy('IVVc', list(20, { count: 45, page: 1, perpage: 20, totalpages: 2 }), 20)).toBe(false);
  });

  it('judges ARVc/APVc by page and total only (they state no perpage or totalpages)', () => {
    expect(pagedBy('ARVc', list(8, { total: 30, page: 1 }), 8)).toBe(true);
    expect(pagedBy('ARVc', list(6, { total: 30, page: 4 }), 8)).toBe(true);
    expect(pagedBy('ARVc', list(8, { total: 30, page: 4 }), 8)).toBe(false);
  });

  it('is false without a count, a page or a usable size', () => {
    expect(pagedBy('IVVc', list(1, { page: 1, perpage: 20, totalpages: 1 }), 20)).toBe(false);
    expect(pagedBy('IVVc', list(1, { count: 1, perpage: 20, totalpages: 1 }), 20)).toBe(false);
    expect(pagedBy('IVVc', list(0, { count: 0, page: 1, perpage: 0, totalpages: 0 }), 0)).toBe(false);
  });
});

describe('judgeQuiet', () => {
  afterEach(() => endObservations());

  /** A context whose sequence reads (GET PDVc) answer `sequences` in turn; counts them. */
  function quietContext(sequences: string[]) {
    const reads = { n: 0 };
    const ctx = {
      client: {
        rest: {
          list: async () => ({ sequence: sequences[Math.min(reads.n++, sequences.length - 1)], records: [] }),
        },
      },
    } as unknown as RuleContext;
    return { ctx, reads };
  }

  it('judges an answer that meets the rule on one optimistic attempt, with no sequence read', async () => {
    const observations = observationRecords().counts;
    beginObservations({ counts: observations, decisive: {}, undecided: {} });
    const { ctx, reads } = quietContext(['5']);
    const seen: (QuietRead | undefined)[] = [];
    const judged = await judgeQuiet(ctx, 'PORTAL.LIST.ORDER', async (quiet) => {
      seen.push(quiet);
      return undefined;
    });
    expect(judged).toBe(true);
    expect(seen).toEqual([undefined]);
    expect(reads.n).toBe(0);
    expect(observations['PORTAL.LIST.ORDER']).toBe(1);
  });

  it('tries a difference again between two sequence reads, and reports it when the data held still', async () => {
    beginObservations(observationRecords());
    const { ctx } = quietContext(['7', '7']);
    const seen: (QuietRead | undefined)[] = [];
    await expect(
      judgeQuiet(ctx, 'PORTAL.LIST.ORDER', async (quiet) => {
        seen.push(quiet);
        return 'the order was not reversed';
      }),
    ).rejects.toThrow('the order was not reversed');
    expect(seen).toEqual([undefined, { sequence: 7n }]);
  });

  it('reports nothing for a difference seen only while the data moved', async () => {
    beginObservations(observationRecords());
    const { ctx } = quietContext(['1', '2', '3', '3']);
    let attempts = 0;
    const judged = await judgeQuiet(ctx, 'PORTAL.LIST.ORDER', async (quiet) => {
      attempts++;
      // the optimistic attempt and the first careful one (sequence 1 -> 2) differ; the next one agrees
      return quiet === undefined || quiet.sequence === 1n ? 'a difference' : undefined;
    });
    expect(judged).toBe(true);
    expect(attempts).toBe(3);
  });
});
