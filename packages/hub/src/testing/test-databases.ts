/**
 * The databases the store tests run on: SQLite always, PostgreSQL when ERPCERT_TEST_POSTGRES_URL is set
 * (scripts/test-postgres.sh starts a private cluster and prints it). Each store gets a fresh database: a new
 * SQLite file, or a new PostgreSQL database created on the server and dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { HubStore } from '../store/hub-store.js';

export const POSTGRES_URL_ENV = 'ERPCERT_TEST_POSTGRES_URL';

export const postgresUrl: string | undefined = process.env[POSTGRES_URL_ENV] || undefined;

/** The dialects to test: PostgreSQL only with a URL (under CI a test fails without one). */
export const testDialects: readonly ('sqlite' | 'postgres')[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestStore {
  readonly store: HubStore;
  /** The database argument the store was opened with (a file, or a URL). */
  readonly database: string;
  dispose(): Promise<void>;
}

export async function freshDatabase(
  dialect: 'sqlite' | 'postgres',
): Promise<{ database: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-hub-test-'));
    return { database: join(dir, 'hub.sqlite'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (!postgresUrl) throw new Error(`${POSTGRES_URL_ENV} is not set`);
  const name = `erpcert_hub_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    database: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: postgresUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export async function freshStore(dialect: 'sqlite' | 'postgres'): Promise<TestStore> {
  const { database, drop } = await freshDatabase(dialect);
  const store = await HubStore.open(database);
  return {
    store,
    database,
    dispose: async () => {
      await store.close();
      await drop();
    },
  };
}
