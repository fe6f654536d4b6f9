/**
 * The hub's migrations, in order. Each is a file exporting `up` and `down`; the Migrator runs them. They are
 * listed here rather than found by FileMigrationProvider's directory scan, because the hub runs from TypeScript
 * sources (tsx, vitest), where a plain `import()` of a `.ts` path from inside kysely is not transformed.
 */
import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './0001-initial.js';
import * as liveRuns from './0002-live-runs.js';
import * as accounts from './0003-accounts.js';
import * as certification from './0004-certification.js';
import * as loadP95 from './0005-load-p95.js';
import * as hubAdmins from './0006-hub-admins.js';
import * as matrixIndex from './0007-matrix-index.js';

export const migrations: Readonly<Record<string, Migration>> = {
  '0001-initial': initial,
  '0002-live-runs': liveRuns,
  '0003-accounts': accounts,
  '0004-certification': certification,
  // load-p95 was main's 0003 until accounts and certification came first (no hub database had been deployed)
  '0005-load-p95': loadP95,
  '0006-hub-admins': hubAdmins,
  // the matrix's covering index was 0006 on its branch; hub admins came first (no hub database had been deployed)
  '0007-matrix-index': matrixIndex,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => ({ ...migrations }),
};
