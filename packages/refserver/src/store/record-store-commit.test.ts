import { afterEach, describe, expect, it } from 'vitest';
import { type RecordChange, RecordStore } from './record-store.js';

const stores: RecordStore[] = [];
function open(): RecordStore {
  const s = RecordStore.open();
  s.addCompany(1, 'one');
  stores.push(s);
  return s;
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

const acc = (n: string) => ({ fields: { AccNumber: n, Comment: `account ${n}` }, rows: [] });

describe('RecordStore.onCommit (portal registerapi hook)', () => {
  it('reports inserts, updates and deletes once the outermost transaction commits', () => {
    const s = open();
    const seen: RecordChange[][] = [];
    s.onCommit((c) => seen.push([...c]));
    s.write(() => {
      s.insert('AccVc', 1, acc('1000'));
      s.insert('AccVc', 1, acc('2000'));
      expect(seen).toHaveLength(0);
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.map((c) => [c.kind, c.register, c.company, c.keyParts])).toEqual([
      ['insert', 'AccVc', 1, ['1000']],
      ['insert', 'AccVc', 1, ['2000']],
    ]);
    s.update('AccVc', s.get('AccVc', 1, ['1000'])!, acc('1000'));
    s.delete('AccVc', 1, ['2000']);
    expect(seen.slice(1).map((b) => b.map((c) => `${c.kind} ${c.keyParts[0]}`))).toEqual([
      ['update 1000'],
      ['delete 2000'],
    ]);
    expect(seen[2]![0]!.seq).toBe(s.sequence);
  });

  it('reports nothing of a rolled-back transaction, and stops after the listener is removed', () => {
    const s = open();
    const seen: RecordChange[][] = [];
    const off = s.onCommit((c) => seen.push([...c]));
    expect(() =>
      s.write(() => {
        s.insert('AccVc', 1, acc('1000'));
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(seen).toHaveLength(0);
    s.write(() => {
      s.insert('AccVc', 1, acc('3000'));
      try {
        s.write(() => {
          s.insert('AccVc', 1, acc('4000'));
          throw new Error('inner');
        });
      } catch {
        // the savepoint rolled back; the outer transaction goes on
      }
    });
    expect(seen.map((b) => b.map((c) => c.keyParts[0]))).toEqual([['3000']]);
    off();
    s.insert('AccVc', 1, acc('5000'));
    expect(seen).toHaveLength(1);
  });
});
