/**
 * Opens the hub's database: a SQLite file (better-sqlite3) by default, or PostgreSQL (`pg`) for a URL starting
 * with `postgres://` or `postgresql://`. The same migrations run on both, and the same queries.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { DEFAULT_DATABASE } from '../constants.js';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

/** An open database with its migrations applied. */
export interface OpenDatabase {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** Where it is, without a password. */
  readonly shown: string;
  close(): Promise<void>;
}

/** A database that cannot be opened or migrated. */
export class DatabaseOpenError extends Error {
  override readonly name = 'DatabaseOpenError';
}

/** Whether `database` names PostgreSQL. */
export function isPostgresUrl(database: string): boolean {
  return /^postgres(ql)?:\/\//i.test(database);
}

/** The URL without its password, for messages. */
export function shownDatabase(database: string): string {
  if (!isPostgresUrl(database)) return database;
  try {
    const u = new URL(database);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

/** Opens `database` (a SQLite file path, `:memory:`, or a PostgreSQL URL) and runs the migrations. */
export async function openDatabase(
  database: string = DEFAULT_DATABASE,
  log: (line: string) => void = (line) => console.error(line),
): Promise<OpenDatabase> {
  const shown = shownDatabase(database);
  let db: Kysely<Database>;
  let dialect: Dialect;
  if (isPostgresUrl(database)) {
    dialect = 'postgres';
    const pool = new pg.Pool({ connectionString: database, max: 10 });
    // an idle connection the server ends (a restart, an administrator) is an event, not a crash: the pool
    // replaces it, and a query that cannot be served fails with its own error
    pool.on('error', (err) => log(`hub: a PostgreSQL connection to ${shown} failed: ${err.message}`));
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    dialect = 'sqlite';
    let sqlite: BetterSqlite3.Database;
    try {
      if (database !== ':memory:') mkdirSync(dirname(resolve(database)), { recursive: true });
      sqlite = new BetterSqlite3(database);
      sqlite.pragma('journal_mode = WAL');
      sqlite.pragma('foreign_keys = ON');
      sqlite.pragma('busy_timeout = 5000');
    } catch (err) {
      throw new DatabaseOpenError(`cannot open the SQLite database ${shown}: ${(err as Error).message}`);
    }
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  }
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new DatabaseOpenError(
      `cannot migrate the database ${shown}${failed ? ` (migration ${failed})` : ''}: ${(error as Error).message ?? String(error)}`,
    );
  }
  return { db, dialect, shown, close: () => db.destroy() };
}
