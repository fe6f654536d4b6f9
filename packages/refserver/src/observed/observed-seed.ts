import type { ObservedCatalogue } from '@erpcert/contract';
import type { App } from '../app-types.js';
import { Prng } from '../seed/prng.js';
import { DEMO_COMPANIES } from '../seed/seed-store.js';
import { SeedWriter } from '../seed/seed-writer.js';
import { round } from '../values/decimal.js';
import { vatRates } from '../values/vat.js';
import { BLOCK_KEY } from './observed-registers.js';

/** Projects of every demo company; one is closed (Closed and Terminated 1). */
const PROJECTS: readonly [string, string, string][] = [
  ['P100', 'Website rebuild', '0'],
  ['P200', 'Warehouse move', '0'],
  ['P300', 'ERP rollout', '0'],
  ['P050', 'Trade fair 2023', '1'],
];

/** Departments: the same codes as the department objects of the master data (ObjVc DEP1, DEP2). */
const DEPARTMENTS: readonly [string, string, string][] = [
  ['DEP1', 'Sales department', '0'],
  ['DEP2', 'Administration', '0'],
  ['DEP9', 'Closed branch', '1'],
];

/** Comments of the VAT codes of values/vat.ts, the codes items, accounts and invoice rows use. */
const VAT_COMMENTS: Readonly<Record<string, string>> = {
  '0': 'No VAT',
  '1': 'Standard rate',
  '2': 'Reduced rate',
  '3': 'Exempt',
};

/** The VAT percentage of a price including VAT: rate / (100 + rate) * 100, to 2 decimals. */
function includedRate(rate: number): string {
  return round((rate / (100 + rate)) * 100, 2).toFixed(2);
}

/**
 * Demo data of the observed registers, after every other module's (so the sequence numbers of the older data
 * stay as they were): projects, departments and the VAT code block of each company. The block holds the codes
 * of values/vat.ts with their rates; sales VAT goes to account 2610 and purchase VAT to 2640 (master data).
 */
export function seedObserved(app: App): void {
  for (const c of DEMO_COMPANIES) {
    const w = new SeedWriter(app.store, c.code, new Prng(0x0b5e + c.code));
    for (const [code, name, closed] of PROJECTS)
      w.add('PRVc', {
        Code: code,
        Comment: `${c.prefix}${name}`,
        Name: `${c.prefix}${name}`,
        Closed: closed,
        Terminated: closed,
      });
    for (const [code, name, closed] of DEPARTMENTS)
      w.add('DepVc', { Code: code, Comment: `${c.prefix}${name}`, Closed: closed });
    w.add(
      'VATCodeBlock',
      { [BLOCK_KEY]: '' },
      Object.entries(vatRates).map(([code, rate]) => ({
        VATCode: code,
        Comment: rate > 0 ? `${VAT_COMMENTS[code]} ${rate}%` : VAT_COMMENTS[code]!,
        ExVatpr: String(rate),
        IncVatpr: includedRate(rate),
        SalesVATAcc: '2610',
        PurchVATAcc: '2640',
        ValidFrom: '2024-01-01',
        ValidUntil: '',
      })),
      false,
    );
  }
}

/**
 * The `records` of every register of an observed-registers file, into every demo company (a block's one record
 * under its hidden key). Runs after every other module's data.
 */
export function seedObservedRecords(app: App, catalogue: ObservedCatalogue): void {
  for (const c of DEMO_COMPANIES) {
    const w = new SeedWriter(app.store, c.code, new Prng(0x0b5f + c.code));
    for (const r of catalogue.registers)
      for (const rec of r.records)
        w.add(
          r.name,
          r.block ? { [BLOCK_KEY]: '', ...rec.fields } : { ...rec.fields },
          rec.rows.map((x) => ({ ...x })),
          false,
        );
  }
}
