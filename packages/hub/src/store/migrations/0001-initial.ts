/**
 * The hub's first schema: targets, runs, per-rule verdicts, load figures, content-addressed blobs, run files, jobs
 * and registered signing keys. One migration for both dialects; only the id and byte column types differ.
 * The indexes serve the pages' queries: a target's history, a rule's history, the matrix, the trends, the queue.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

function onPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = onPostgres(db);
  const id = pg ? 'serial' : 'integer';
  const idColumn = (c: import('kysely').ColumnDefinitionBuilder) =>
    pg ? c.primaryKey() : c.primaryKey().autoIncrement();
  const real = 'double precision';

  await db.schema
    .createTable('targets')
    .addColumn('id', id, idColumn)
    .addColumn('target_key', 'text', (c) => c.notNull().unique())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('runs')
    .addColumn('id', id, idColumn)
    .addColumn('target_id', 'integer', (c) => c.notNull().references('targets.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('conformance', 'load')`))
    .addColumn('build', 'text')
    .addColumn('label', 'text')
    .addColumn('profile', 'text')
    .addColumn('seed', real)
    .addColumn('erpcert_version', 'text', (c) => c.notNull())
    .addColumn('spec_sha256', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull().unique())
    .addColumn('signature_status', 'text', (c) => c.notNull())
    .addColumn('signature_key', 'text')
    .addColumn('signature_detail', 'text')
    .addColumn('parent_run_id', 'integer', (c) => c.references('runs.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('exit_code', 'integer', (c) => c.notNull())
    .addColumn('only_rules', 'text')
    .addColumn('pass_count', 'integer', (c) => c.notNull())
    .addColumn('fail_count', 'integer', (c) => c.notNull())
    .addColumn('error_count', 'integer', (c) => c.notNull())
    .addColumn('warn_count', 'integer', (c) => c.notNull())
    .addColumn('skip_count', 'integer', (c) => c.notNull())
    .addColumn('known_count', 'integer', (c) => c.notNull())
    .addColumn('none_count', 'integer', (c) => c.notNull())
    .addColumn('rule_count', 'integer', (c) => c.notNull())
    .execute();
  // a target's history (newest first, filtered by kind), the matrix's last N runs, the trends over builds
  await db.schema
    .createIndex('runs_target_kind_created')
    .on('runs')
    .columns(['target_id', 'kind', 'created_at', 'id'])
    .execute();
  // a target's history of every kind, newest first
  await db.schema.createIndex('runs_target_created').on('runs').columns(['target_id', 'created_at', 'id']).execute();
  // the matrix across targets at one erpcert version
  await db.schema
    .createIndex('runs_version_kind')
    .on('runs')
    .columns(['erpcert_version', 'kind', 'target_id'])
    .execute();
  await db.schema.createIndex('runs_parent').on('runs').column('parent_run_id').execute();

  await db.schema
    .createTable('rule_verdicts')
    .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('area', 'text', (c) => c.notNull())
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('observations', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rule_verdicts_pk', ['run_id', 'rule_id'])
    .execute();
  // a rule's history across runs ("since when does it FAIL")
  await db.schema.createIndex('rule_verdicts_rule').on('rule_verdicts').columns(['rule_id', 'run_id']).execute();

  await db.schema
    .createTable('load_figures')
    .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('scenario', 'text', (c) => c.notNull())
    .addColumn('throughput', real)
    .addColumn('p50_ms', real, (c) => c.notNull())
    .addColumn('p90_ms', real, (c) => c.notNull())
    .addColumn('p99_ms', real, (c) => c.notNull())
    .addColumn('read_seconds', real)
    .addColumn('documented', 'text', (c) => c.notNull())
    .addColumn('documented_rate_min', real)
    .addColumn('documented_rate_max', real)
    .addColumn('knee', real)
    .addColumn('limiter', 'text')
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('load_figures_pk', ['run_id', 'scenario'])
    .execute();
  await db.schema.createIndex('load_figures_scenario').on('load_figures').columns(['scenario', 'run_id']).execute();

  await db.schema
    .createTable('blobs')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('bytes', pg ? 'bytea' : 'blob', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('run_files')
    .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull().references('blobs.sha256'))
    .addColumn('size', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('run_files_pk', ['run_id', 'path'])
    .execute();
  await db.schema.createIndex('run_files_blob').on('run_files').column('sha256').execute();

  await createJobsTable(db);

  await db.schema
    .createTable('signing_keys')
    .addColumn('fingerprint', 'text', (c) => c.primaryKey())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('pem', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'signing_keys',
    'jobs',
    'run_files',
    'blobs',
    'load_figures',
    'rule_verdicts',
    'runs',
    'targets',
  ])
    await db.schema.dropTable(table).execute();
}

/** The jobs table of this schema (0002 rebuilds it, and its `down` puts this one back). */
export async function createJobsTable(db: Kysely<unknown>): Promise<void> {
  const pg = onPostgres(db);
  const id = pg ? 'serial' : 'integer';
  const idColumn = (c: import('kysely').ColumnDefinitionBuilder) =>
    pg ? c.primaryKey() : c.primaryKey().autoIncrement();
  await db.schema
    .createTable('jobs')
    .addColumn('id', id, idColumn)
    .addColumn('run_id', 'integer', (c) => c.references('runs.id'))
    .addColumn('target_id', 'integer', (c) => c.references('targets.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('conformance', 'load')`))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('queued', 'running', 'done', 'interrupted')`))
    .addColumn('worker', 'text')
    .addColumn('message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  // the queue: the oldest queued job first
  await db.schema.createIndex('jobs_state').on('jobs').columns(['state', 'id']).execute();
}
