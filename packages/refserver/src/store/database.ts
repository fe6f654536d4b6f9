import Database from 'better-sqlite3';

/** A better-sqlite3 connection. */
export type Db = Database.Database;

/** How hard a commit waits for the disk (SQLite `synchronous`). */
export type SyncMode = 'normal' | 'full';

/**
 * Opens the database: in memory without a file; with a file in WAL mode, so that every committed
 * transaction is in the write-ahead log before the write is acknowledged (survives kill -9).
 * `normal` skips the fsync per commit (survives a killed process, not a power cut); `full` fsyncs.
 */
export function openDatabase(file: string | undefined, sync: SyncMode = 'normal'): Db {
  const db = new Database(file ?? ':memory:');
  if (file) {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma('busy_timeout = 5000');
  }
  db.pragma('cache_size = -65536');
  db.pragma('temp_store = MEMORY');
  db.exec(`
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT OR IGNORE INTO meta (key, value) VALUES ('sequence', '0');
    CREATE TABLE IF NOT EXISTS companies (code INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '');
    CREATE TABLE IF NOT EXISTS tombstones (
      register TEXT NOT NULL, _company INTEGER NOT NULL, _seq INTEGER NOT NULL,
      k0 TEXT NOT NULL, k1 TEXT NOT NULL DEFAULT '', k2 TEXT NOT NULL DEFAULT '');
    CREATE INDEX IF NOT EXISTS tombstones_seq ON tombstones (register, _company, _seq);
  `);
  return db;
}

/** Quotes an identifier for SQL; field names are checked to be words (register-schema.ts). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
