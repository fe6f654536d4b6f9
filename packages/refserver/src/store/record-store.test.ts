import { afterEach, describe, expect, it } from 'vitest';
import { listDeletes, listRecords } from './record-query.js';
import { RecordStore } from './record-store.js';

const stores: RecordStore[] = [];
function open(): RecordStore {
  const s = RecordStore.open();
  s.addCompany(1, 'one');
  s.addCompany(2, 'two');
  stores.push(s);
  return s;
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

const acc = (n: string) => ({ fields: { AccNumber: n, Comment: `account ${n}` }, rows: [] });

describe('RecordStore', () => {
  it('has a table for each of the 38 catalogue registers and views for the read-only ones', () => {
    const s = open();
    expect(s.registry.all()).toHaveLength(38);
    for (const name of ['ItemStatusVc', 'SerBalVc', 'ARPayVc']) {
      expect(s.schema(name)?.readOnly).toBe(true);
      expect(s.schema(name)?.base).toBe(false);
      expect(s.schema(name)?.viewSql).toBeTruthy();
    }
    expect(s.schema('IVVc')?.base).toBe(true);
  });

  it('shares one strictly increasing sequence across registers and companies', () => {
    const s = open();
    const seqs = [
      s.insert('AccVc', 1, acc('1000')).seq,
      s.insert('AccVc', 2, acc('1000')).seq,
      s.insert('ObjVc', 1, { fields: { Code: 'X' }, rows: [] }).seq,
    ];
    const existing = s.get('AccVc', 1, ['1000'])!;
    seqs.push(s.update('AccVc', existing, acc('1000')).seq);
    seqs.push(s.delete('ObjVc', 1, ['X'])!.seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5]);
    expect(s.sequence).toBe(5);
  });

  it('gives back a sequence number that a rolled-back write took', () => {
    const s = open();
    s.insert('AccVc', 1, acc('1000'));
    expect(() =>
      s.write(() => {
        s.insert('AccVc', 1, acc('2000'));
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(s.sequence).toBe(1);
    expect(s.get('AccVc', 1, ['2000'])).toBeUndefined();
    expect(s.insert('AccVc', 1, acc('3000')).seq).toBe(2);
  });

  it('stores base fields: a UUID, SyncFlags, and ServerSequence equal to the record sequence', () => {
    const s = open();
    const rec = s.insert('AccVc', 1, acc('1000'));
    expect(rec.fields.UUID).toMatch(/^[0-9a-f-]{36}$/);
    expect(rec.fields.ServerSequence).toBe(String(rec.seq));
    const again = s.get('AccVc', 1, ['1000'])!;
    expect(again.fields).toEqual(rec.fields);
  });

  it('keeps rows with their field values and gives every row field', () => {
    const s = open();
    s.insert('TRVc', 1, {
      fields: { IntYc: '2025', Number: '1' },
      rows: [
        { AccNumber: '1000', DebVal: '5.00' },
        { AccNumber: '2000', CredVal: '5.00' },
      ],
    });
    const rec = s.get('TRVc', 1, ['2025', '1'])!;
    expect(rec.rows).toEqual([
      { stp: '', AccNumber: '1000', DebVal: '5.00', CredVal: '', Comment: '', Curncy: '' },
      { stp: '', AccNumber: '2000', DebVal: '', CredVal: '5.00', Comment: '', Curncy: '' },
    ]);
  });

  it('assigns serial numbers per company, and TRVc numbers per year code', () => {
    const s = open();
    expect(s.nextSerial('IVVc', 1)).toBe(10000001);
    s.insert('IVVc', 1, { fields: { SerNr: '10000005' }, rows: [] });
    expect(s.nextSerial('IVVc', 1)).toBe(10000006);
    expect(s.nextSerial('IVVc', 2)).toBe(10000001);
    s.insert('TRVc', 1, { fields: { IntYc: '2025', Number: '7' }, rows: [] });
    expect(s.nextSerial('TRVc', 1, { IntYc: '2025' })).toBe(8);
    expect(s.nextSerial('TRVc', 1, { IntYc: '2026' })).toBe(1);
  });

  it('sorts integer serial numbers as numbers', () => {
    const s = open();
    for (const n of ['9', '10', '100']) s.insert('GCVc', 1, { fields: { SerNr: n }, rows: [] });
    const page = listRecords(s, 'GCVc', 1, { select: ['SerNr'], sort: 'SerNr', range: { from: '9', to: '99' } });
    expect(page.rows.map((r) => r[page.plan.header[0]!.col])).toEqual([9, 10]);
  });

  it('leaves a tombstone for each delete, listed oldest first after a sequence', () => {
    const s = open();
    s.insert('AccVc', 1, acc('1000'));
    s.insert('AccVc', 1, acc('2000'));
    const first = s.delete('AccVc', 1, ['1000'])!;
    const second = s.delete('AccVc', 1, ['2000'])!;
    expect(s.delete('AccVc', 1, ['2000'])).toBeUndefined();
    const page = listDeletes(s, 'AccVc', 1, { after: first.seq - 1 });
    expect(page.rows.map((r) => [r[0], r[1]])).toEqual([
      [first.seq, '1000'],
      [second.seq, '2000'],
    ]);
    expect(listDeletes(s, 'AccVc', 1, { after: second.seq }).rows).toEqual([]);
    expect(listDeletes(s, 'AccVc', 2, { after: 0 }).rows).toEqual([]);
  });

  it('accepts extra registers from other modules, with their tables', () => {
    const s = open();
    const schema = s.addRegister({ name: 'ActVc', key: ['SerNr'], fields: ['SerNr', 'Comment'], rowFields: ['Text'] });
    expect(schema.base).toBe(true);
    expect(s.nextSerial('ActVc', 1)).toBe(10000001);
    const rec = s.insert('ActVc', 1, { fields: { SerNr: '10000001', Comment: 'call' }, rows: [{ Text: 'hi' }] });
    expect(s.get('ActVc', 1, ['10000001'])?.rows).toEqual([{ Text: 'hi' }]);
    expect(rec.seq).toBe(1);
    expect(() => s.addRegister({ name: 'ActVc', key: ['SerNr'], fields: ['SerNr'] })).toThrow('already defined');
  });

  it('refuses a register whose fields differ only in case (SQLite columns are case-insensitive)', () => {
    const s = open();
    expect(() => s.addRegister({ name: 'BadVc', key: ['Code'], fields: ['Code', 'code'] })).toThrow('only in case');
  });
});
