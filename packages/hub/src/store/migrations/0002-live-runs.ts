/**
 * Live runs (issue 25): a saved target's connection (auth kind, user, the password encrypted with a key from
 * ERPCERT_HUB_SECRET, company and user codes, portal settings), the queue of runs the hub executes, and each
 * live run's progress events. The `jobs` table of 0001 was never written (nothing queued before this
 * migration), so it is replaced: its states gain `cancelled` and `failed`, and a worker heartbeat, a cancel
 * request, a parent run and the outcome are added.
 */

import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { createJobsTable } from './0001-initial.js';

function onPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const TARGET_COLUMNS: readonly [string, string][] = [
  ['auth_kind', 'text'],
  ['username', 'text'],
  ['password_enc', 'text'],
  ['compcode', 'integer'],
  ['other_compcode', 'integer'],
  ['usercode', 'text'],
  ['unok_usercode', 'text'],
  ['limited_usercode', 'text'],
  ['portalcc', 'text'],
  ['portal_path', 'text'],
  ['company_in', 'text'],
  ['saved_at', 'text'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = onPostgres(db);
  const id = pg ? 'serial' : 'integer';
  const idColumn = (c: import('kysely').ColumnDefinitionBuilder) =>
    pg ? c.primaryKey() : c.primaryKey().autoIncrement();

  for (const [name, type] of TARGET_COLUMNS)
    await db.schema
      .alterTable('targets')
      .addColumn(name, type as 'text')
      .execute();

  await db.schema.dropIndex('jobs_state').execute();
  await db.schema.dropTable('jobs').execute();
  await db.schema
    .createTable('jobs')
    .addColumn('id', id, idColumn)
    .addColumn('target_id', 'integer', (c) => c.notNull().references('targets.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('conformance', 'load')`))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('queued', 'running', 'done', 'failed', 'interrupted', 'cancelled')`),
    )
    .addColumn('parent_run_id', 'integer', (c) => c.references('runs.id'))
    .addColumn('run_id', 'integer', (c) => c.references('runs.id'))
    .addColumn('worker', 'text')
    .addColumn('heartbeat_at', 'text')
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('exit_code', 'integer')
    .addColumn('message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  // the queue: the oldest queued job first; the reaper: running jobs by heartbeat
  await db.schema.createIndex('jobs_state').on('jobs').columns(['state', 'id']).execute();
  await db.schema.createIndex('jobs_target').on('jobs').columns(['target_id', 'id']).execute();

  await db.schema
    .createTable('job_events')
    .addColumn('job_id', 'integer', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_events_pk', ['job_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_events').execute();
  await db.schema.dropTable('jobs').execute();
  await createJobsTable(db);
  for (const [name] of [...TARGET_COLUMNS].reverse()) await db.schema.alterTable('targets').dropColumn(name).execute();
}
