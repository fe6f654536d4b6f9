/**
 * The databases the hub bench runs on: a SQLite file in a temporary folder, and PostgreSQL from
 * ERPCERT_TEST_POSTGRES_URL or a private cluster started with test-postgres.sh (stopped afterwards). When no
 * PostgreSQL can be had, the reason is returned: the bench prints it, never skips it silently.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const script = join(dirname(fileURLToPath(import.meta.url)), 'test-postgres.sh');

export interface BenchDatabase {
  readonly database: string;
  drop(): Promise<void>;
}

export function sqliteDatabase(): BenchDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'erpcert-hub-bench-'));
  return { database: join(dir, 'hub.sqlite'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** A PostgreSQL server: its URL and how to stop it (a no-op for a server given by the environment). */
export type PostgresServer =
  | { readonly url: string; readonly how: string; stop(): void }
  | { readonly url: undefined; readonly why: string };

export function postgresServer(log: (line: string) => void): PostgresServer {
  const given = process.env.ERPCERT_TEST_POSTGRES_URL;
  if (given) return { url: given, how: 'ERPCERT_TEST_POSTGRES_URL', stop: () => {} };
  let out: string;
  try {
    log('hub bench: starting a private PostgreSQL cluster (scripts/test-postgres.sh)');
    out = execFileSync('bash', [script, 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? '').trim();
    return {
      url: undefined,
      why: `ERPCERT_TEST_POSTGRES_URL is not set and scripts/test-postgres.sh could not start one: ${stderr.split('\n').slice(-2).join(' ') || (err as Error).message}`,
    };
  }
  const url = /ERPCERT_TEST_POSTGRES_URL=(\S+)/.exec(out)?.[1];
  const dir = /ERPCERT_TEST_POSTGRES_DIR=(\S+)/.exec(out)?.[1];
  if (!url || !dir) return { url: undefined, why: `scripts/test-postgres.sh printed no URL: ${out.trim()}` };
  return {
    url,
    how: 'a private cluster started by scripts/test-postgres.sh (fsync off)',
    stop: () => {
      execFileSync('bash', [script, 'stop', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    },
  };
}

/** A new database on the server, dropped afterwards. */
export async function postgresDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `erpcert_hub_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    database: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
