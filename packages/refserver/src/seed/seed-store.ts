import type { App, AppModule } from '../app-types.js';
import type { RecordStore } from '../store/record-store.js';
import { seedMaster } from './demo-master.js';
import { seedTransactions } from './demo-transactions.js';
import { Prng } from './prng.js';
import { SeedWriter } from './seed-writer.js';

/** The companies of the demo database: 1 gets the full size, 2 a tenth of it (README "Demo data"). */
export const DEMO_COMPANIES = [
  { code: 1, name: 'Demo Company 1', prefix: '', share: 1 },
  { code: 2, name: 'Demo Company 2', prefix: 'Beta ', share: 0.1 },
] as const;

/**
 * Fills the deterministic demo data set: master data in both companies and transactions scaled by
 * `size` (`--seed-size`). The same size gives the same data, UUIDs included.
 */
export function seedDemoData(store: RecordStore, size: number): void {
  store.write(() => {
    for (const c of DEMO_COMPANIES) {
      store.addCompany(c.code, c.name);
      const w = new SeedWriter(store, c.code, new Prng(0x5eed + c.code));
      const master = seedMaster(w, c.prefix);
      seedTransactions(w, master, Math.ceil(size * c.share));
    }
  });
}

/**
 * Seeds a new database once: the companies always; demo data unless `size` is false; then each
 * module's own data. A database seeded before keeps its data (a different size is logged, not applied).
 */
export function seedIfNew(store: RecordStore, size: number | false, modules: readonly AppModule[], app: App): void {
  const done = store.getMeta('seeded');
  if (done !== undefined) {
    if (size !== false && done !== String(size))
      app.log(`erpcert refserver: the database was seeded with size ${done}; keeping it (asked for ${size})`);
    return;
  }
  store.write(() => {
    for (const c of DEMO_COMPANIES) store.addCompany(c.code, c.name);
    if (size !== false) seedDemoData(store, size);
    // seed false: nothing but the companies (AppOptions.seed), module data included
    if (size !== false) for (const m of modules) m.seed?.(app, size);
    store.setMeta('seeded', String(size));
  });
}
