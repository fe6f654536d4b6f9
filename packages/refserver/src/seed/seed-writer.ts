import { Explicit } from '../business/draft.js';
import { computeSums } from '../business/sums.js';
import type { RecordStore } from '../store/record-store.js';
import type { StoredRecord } from '../store/record-table.js';
import type { Prng } from './prng.js';

/** Writes demo records of one company: full drafts, sums computed as a form POST would, seeded UUIDs. */
export class SeedWriter {
  readonly store: RecordStore;
  readonly company: number;
  readonly rng: Prng;

  constructor(store: RecordStore, company: number, rng: Prng) {
    this.store = store;
    this.company = company;
    this.rng = rng;
  }

  /** Inserts one record; `sums` runs the register's sums (business/sums.ts) first. */
  add(
    register: string,
    fields: Record<string, string>,
    rows: Record<string, string>[] = [],
    sums = true,
  ): StoredRecord {
    const schema = this.store.schema(register);
    if (!schema) throw new Error(`seed: unknown register ${register}`);
    const d = { fields: {} as Record<string, string>, rows: [] as Record<string, string>[] };
    for (const f of schema.fields) d.fields[f] = '';
    for (const [k, v] of Object.entries(fields)) {
      if (!(k in d.fields)) throw new Error(`seed: ${register} has no field ${k}`);
      d.fields[k] = v;
    }
    d.rows = rows.map((r) => {
      const full: Record<string, string> = {};
      for (const f of schema.rowFields) full[f] = '';
      for (const [k, v] of Object.entries(r)) {
        if (!(k in full)) throw new Error(`seed: ${register} rows have no field ${k}`);
        full[k] = v;
      }
      return full;
    });
    if (sums) computeSums(register, d, new Explicit());
    if (schema.base) d.fields.UUID = this.rng.uuid();
    return this.store.insert(register, this.company, d);
  }
}

/** YYYY-MM-DD of `days` after 2024-01-01. */
export function seedDate(days: number): string {
  return new Date(Date.UTC(2024, 0, 1) + days * 86_400_000).toISOString().slice(0, 10);
}
