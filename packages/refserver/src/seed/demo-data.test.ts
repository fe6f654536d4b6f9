import { describe, expect, it } from 'vitest';
import { checkCreditInvoice, checkPurchaseVat } from '../business/checks.js';
import { listRecords } from '../store/record-query.js';
import { RecordStore } from '../store/record-store.js';
import { seedDemoData } from './seed-store.js';

function seeded(size: number): RecordStore {
  const store = RecordStore.open();
  seedDemoData(store, size);
  return store;
}

const count = (s: RecordStore, register: string, company = 1) => listRecords(s, register, company, {}).rows.length;
const all = (s: RecordStore, register: string, company = 1) =>
  listRecords(s, register, company, { select: [...s.schema(register)!.key] }).rows.map(
    (r) =>
      s.get(
        register,
        company,
        s.schema(register)!.key.map((_, i) => String(r[i + 1])),
      )!,
  );

describe('seedDemoData', () => {
  it('gives the same data, UUIDs included, for the same size', () => {
    const a = seeded(40);
    const b = seeded(40);
    for (const register of ['CUVc', 'IVVc', 'TRVc', 'IPVc', 'ItemStatusVc']) {
      expect(listRecords(a, register, 1, {}).rows).toEqual(listRecords(b, register, 1, {}).rows);
    }
    expect(a.sequence).toBe(b.sequence);
    a.close();
    b.close();
  });

  it('scales the transactions with the size; company 2 gets a tenth', () => {
    const s = seeded(200);
    expect(count(s, 'TRVc')).toBe(200);
    expect(count(s, 'IVVc')).toBe(20);
    expect(count(s, 'TRVc', 2)).toBe(20);
    expect(count(s, 'CUVc')).toBe(40);
    expect(count(s, 'CUVc', 2)).toBe(40);
    for (const r of s.registry.all()) expect(count(s, r.name), r.name).toBeGreaterThan(0);
    const empty = seeded(0);
    expect(count(empty, 'TRVc')).toBe(0);
    expect(count(empty, 'INVc')).toBe(60);
    s.close();
    empty.close();
  });

  it('company 2 differs observably from company 1: the same item and contact codes, other names (conform --other-compcode)', () => {
    const s = seeded(0);
    for (const [register, key] of [
      ['INVc', 'A0001'],
      ['CUVc', 'C0001'],
    ] as const) {
      const one = s.get(register, 1, [key])!.fields;
      const two = s.get(register, 2, [key])!.fields;
      expect(two.Name).not.toBe(one.Name);
      expect(two.Name).toMatch(/^Beta /);
    }
    s.close();
  });

  it('writes data that passes the server checks: credit invoices, purchase VAT, balanced journal entries', () => {
    const s = seeded(300);
    const ctx = { store: s, company: 1, today: '2025-01-01' };
    const invoices = all(s, 'IVVc');
    expect(invoices.some((i) => i.fields.PayDeal === 'K')).toBe(true);
    for (const inv of invoices)
      expect(() =>
        checkCreditInvoice(ctx, { fields: { ...inv.fields }, rows: inv.rows.map((r) => ({ ...r })) }),
      ).not.toThrow();
    for (const vi of all(s, 'VIVc'))
      expect(() => checkPurchaseVat({ fields: { ...vi.fields }, rows: [...vi.rows] })).not.toThrow();
    for (const tr of all(s, 'TRVc')) expect(tr.fields.DiffVal).toBe('0.00');
    s.close();
  });
});
