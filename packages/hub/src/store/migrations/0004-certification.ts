/**
 * Certification (issue 26): which organisations are certifying bodies, the runs submitted to them (submitted,
 * then certified or rejected with a note, by whom and when), the frozen runs (a certified run: its row, files,
 * verdicts and figures can no longer change), and read-only share links (a run, the SHA-256 of the link's token,
 * an expiry, who made it, revoked).
 *
 * The freeze is kept by the store (certification/frozen-runs.ts answers 409) and, behind it, by triggers on both
 * databases: an UPDATE or DELETE of a frozen run, and any write to its files, verdicts or figures, is aborted with
 * {@link FROZEN_MESSAGE}; a frozen_runs row can be neither changed nor removed. A correction is a new run.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export const FROZEN_MESSAGE = 'a certified run is frozen; a correction is a new run';

function onPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The tables that hold a part of a run, by its `run_id`. */
export const RUN_PARTS = ['run_files', 'rule_verdicts', 'load_figures'] as const;

const frozen = (ref: string) => `exists (select 1 from frozen_runs where run_id = ${ref})`;
const abort = `select raise(abort, '${FROZEN_MESSAGE}');`;

/** SQLite: one trigger per table and operation. */
const SQLITE_TRIGGERS: readonly (readonly [name: string, sql: string])[] = [
  ['runs_frozen_update', `before update on runs when ${frozen('old.id')}`],
  ['runs_frozen_delete', `before delete on runs when ${frozen('old.id')}`],
  ...RUN_PARTS.flatMap((t) => [
    [`${t}_frozen_insert`, `before insert on ${t} when ${frozen('new.run_id')}`] as const,
    [`${t}_frozen_update`, `before update on ${t} when ${frozen('old.run_id')} or ${frozen('new.run_id')}`] as const,
    [`${t}_frozen_delete`, `before delete on ${t} when ${frozen('old.run_id')}`] as const,
  ]),
  ['frozen_runs_update', 'before update on frozen_runs'],
  ['frozen_runs_delete', 'before delete on frozen_runs'],
];

const PG_FUNCTIONS = `
create function erpcert_frozen_run() returns trigger language plpgsql as $$
begin
  if exists (select 1 from frozen_runs where run_id = OLD.id) then
    raise exception '${FROZEN_MESSAGE}';
  end if;
  if TG_OP = 'DELETE' then return OLD; end if;
  return NEW;
end $$;
create function erpcert_frozen_run_part() returns trigger language plpgsql as $$
begin
  if TG_OP <> 'INSERT' and exists (select 1 from frozen_runs where run_id = OLD.run_id) then
    raise exception '${FROZEN_MESSAGE}';
  end if;
  if TG_OP <> 'DELETE' and exists (select 1 from frozen_runs where run_id = NEW.run_id) then
    raise exception '${FROZEN_MESSAGE}';
  end if;
  if TG_OP = 'DELETE' then return OLD; end if;
  return NEW;
end $$;
create function erpcert_frozen_forever() returns trigger language plpgsql as $$
begin
  raise exception '${FROZEN_MESSAGE}';
end $$;
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = onPostgres(db);
  const id = pg ? 'serial' : 'integer';
  const idColumn = (c: import('kysely').ColumnDefinitionBuilder) =>
    pg ? c.primaryKey() : c.primaryKey().autoIncrement();

  // an organisation that certifies others' runs: its certifiers review what is submitted to it
  await db.schema
    .createTable('certifying_bodies')
    .addColumn('organisation_id', 'integer', (c) => c.primaryKey().references('organisations.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('certification_submissions')
    .addColumn('id', id, idColumn)
    .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    // the submitting organisation (the run's) and the certifying one
    .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('certifier_id', 'integer', (c) => c.notNull().references('organisations.id'))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('submitted', 'certified', 'rejected')`))
    .addColumn('submitted_by', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'text', (c) => c.notNull())
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'text')
    .addColumn('note', 'text')
    // the signature as the certifier's review checked it (erpcert verify's checks)
    .addColumn('signature_status', 'text')
    .addColumn('signature_key', 'text')
    .execute();
  await db.schema
    .createIndex('certification_submissions_certifier')
    .on('certification_submissions')
    .columns(['certifier_id', 'state', 'id'])
    .execute();
  await db.schema
    .createIndex('certification_submissions_run')
    .on('certification_submissions')
    .columns(['run_id'])
    .execute();

  await db.schema
    .createTable('frozen_runs')
    .addColumn('run_id', 'integer', (c) => c.primaryKey().references('runs.id'))
    .addColumn('submission_id', 'integer', (c) => c.notNull().references('certification_submissions.id'))
    .addColumn('certified_at', 'text', (c) => c.notNull())
    // the implementation's name as certified (its target's name then: a saved target may be renamed later)
    .addColumn('implementation', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('share_links')
    .addColumn('id', id, idColumn)
    .addColumn('run_id', 'integer', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('organisation_id', 'integer', (c) => c.notNull().references('organisations.id'))
    // SHA-256 of the link's random token: a copy of the database opens no link
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('share_links_run').on('share_links').columns(['run_id', 'id']).execute();

  if (pg) {
    await sql.raw(PG_FUNCTIONS).execute(db);
    await sql
      .raw(
        'create trigger runs_frozen before update or delete on runs for each row execute function erpcert_frozen_run()',
      )
      .execute(db);
    for (const t of RUN_PARTS)
      await sql
        .raw(
          `create trigger ${t}_frozen before insert or update or delete on ${t} for each row execute function erpcert_frozen_run_part()`,
        )
        .execute(db);
    await sql
      .raw(
        'create trigger frozen_runs_forever before update or delete on frozen_runs for each row execute function erpcert_frozen_forever()',
      )
      .execute(db);
  } else {
    for (const [name, on] of SQLITE_TRIGGERS)
      await sql.raw(`create trigger ${name} ${on} begin ${abort} end`).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (onPostgres(db)) {
    await sql.raw('drop trigger runs_frozen on runs').execute(db);
    for (const t of RUN_PARTS) await sql.raw(`drop trigger ${t}_frozen on ${t}`).execute(db);
    await sql.raw('drop trigger frozen_runs_forever on frozen_runs').execute(db);
    await sql
      .raw(
        'drop function erpcert_frozen_run(); drop function erpcert_frozen_run_part(); drop function erpcert_frozen_forever();',
      )
      .execute(db);
  } else {
    for (const [name] of SQLITE_TRIGGERS) await sql.raw(`drop trigger ${name}`).execute(db);
  }
  for (const table of ['share_links', 'frozen_runs', 'certification_submissions', 'certifying_bodies'])
    await db.schema.dropTable(table).execute();
}
