import { afterEach, describe, expect, it } from 'vitest';
import { type ListQuery, listRecords } from './record-query.js';
import { RecordStore } from './record-store.js';

let store: RecordStore;
afterEach(() => store.close());

const serNrs = (q: ListQuery) => {
  const page = listRecords(store, 'GCVc', 1, q);
  return page.rows.map((r) => String(r[page.plan.keyCols[0]!]));
};

describe('offset paging with keyset bookmarks', () => {
  it('gives the same pages as slicing the full list, in any request order, and after writes', () => {
    store = RecordStore.open();
    for (let i = 0; i < 60; i++) {
      store.insert('GCVc', 1, {
        fields: { SerNr: String(10 + i), Amount: String(i % 7), Closed: i % 2 ? '1' : '0' },
        rows: [],
      });
    }
    const queries: ListQuery[] = [
      {},
      { sort: 'Amount' },
      { sort: 'Amount', filters: [['Closed', '1']] },
      { updatesAfter: 5 },
    ];
    const requests: [number, number | undefined][] = [
      [20, 10],
      [20, 10],
      [30, 10],
      [5, 3],
      [31, 1],
      [45, undefined],
      [59, 5],
      [21, 0],
      [80, 5],
      [30, 10],
    ];
    const check = () => {
      for (const q of queries) {
        const all = serNrs(q);
        for (const [offset, limit] of requests) {
          const want = all.slice(offset, limit === undefined ? undefined : offset + limit);
          expect(
            serNrs({ ...q, offset, ...(limit !== undefined ? { limit } : {}) }),
            JSON.stringify({ q, offset, limit }),
          ).toEqual(want);
        }
      }
    };
    check();
    store.insert('GCVc', 1, { fields: { SerNr: '5', Amount: '0' }, rows: [] });
    store.delete('GCVc', 1, ['40']);
    const existing = store.get('GCVc', 1, ['41'])!;
    store.update('GCVc', existing, { fields: { ...existing.fields, Amount: '9' }, rows: [] });
    check();
  });
});
