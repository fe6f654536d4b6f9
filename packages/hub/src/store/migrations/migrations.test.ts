import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { prepareRun } from '../../ingest/prepare-run.js';
import { loadFolderFiles, sampleLoad } from '../../testing/sample-runs.js';
import { freshStore, testDialects } from '../../testing/test-databases.js';
import { DEFAULT_ORGANISATION_ID } from './0003-accounts.js';
import { migrationProvider, migrations } from './index.js';

describe.each(testDialects)('the migrations on %s', (dialect) => {
  it('go down to nothing and up again', async () => {
    const t = await freshStore(dialect);
    try {
      const migrator = new Migrator({ db: t.store.db, provider: migrationProvider });
      const applied = (await migrator.getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
      expect(applied).toEqual(Object.keys(migrations));
      for (const _ of applied) expect((await migrator.migrateDown()).error).toBeUndefined();
      await expect(t.store.db.selectFrom('runs').select('id').execute()).rejects.toThrow();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await t.store.targets([DEFAULT_ORGANISATION_ID])).toEqual([]);
    } finally {
      await t.dispose();
    }
  });
});

describe.each(testDialects)('0003-accounts on %s', (dialect) => {
  it('puts the rows already there in the default organisation and makes keys and digests unique per organisation', async () => {
    const t = await freshStore(dialect);
    try {
      const db = t.store.db;
      const migrator = new Migrator({ db, provider: migrationProvider });
      // back to the hub before accounts (0003 and every later migration undone)
      expect((await migrator.migrateTo('0002-live-runs')).error).toBeUndefined();
      const at = '2026-11-27T10:00:00.000Z';
      // a target, a run and a job as 0002 knew them
      await sql`insert into targets (target_key, url, name, created_at) values ('https://a.example', 'https://a.example', 'A', ${at})`.execute(
        db,
      );
      await sql`insert into runs (target_id, kind, erpcert_version, started_at, created_at, digest, signature_status, status, outcome, exit_code, pass_count, fail_count, error_count, warn_count, skip_count, known_count, none_count, rule_count)
        values (1, 'conformance', '0.1.0', ${at}, ${at}, 'd1', 'unsigned', 'published', 'pass', 0, 1, 0, 0, 0, 0, 0, 0, 1)`.execute(
        db,
      );
      await sql`insert into jobs (target_id, kind, settings, state, created_at) values (1, 'conformance', '{}', 'queued', ${at})`.execute(
        db,
      );
      expect((await migrator.migrateToLatest()).error).toBeUndefined();

      const orgs = await db.selectFrom('organisations').select(['id', 'slug']).execute();
      expect(orgs.map((o) => [Number(o.id), o.slug])).toEqual([[DEFAULT_ORGANISATION_ID, 'default']]);
      for (const table of ['targets', 'runs', 'jobs'] as const) {
        const rows = await db.selectFrom(table).select('organisation_id').execute();
        expect([table, rows.map((r) => Number(r.organisation_id))]).toEqual([table, [DEFAULT_ORGANISATION_ID]]);
      }
      // a second organisation may hold the same target key and the same digest; the same organisation may not
      const other = await db
        .insertInto('organisations')
        .values({ slug: 'vendor', name: 'Vendor', created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(Number(other.id)).toBe(DEFAULT_ORGANISATION_ID + 1);
      const target = (org: number) =>
        db
          .insertInto('targets')
          .values({
            target_key: 'https://a.example',
            url: 'https://a.example',
            name: 'A',
            created_at: at,
            organisation_id: org,
          })
          .execute();
      await target(Number(other.id));
      await expect(target(DEFAULT_ORGANISATION_ID)).rejects.toThrow();
      const run = (org: number) =>
        sql`insert into runs (target_id, kind, erpcert_version, started_at, created_at, digest, signature_status, status, outcome, exit_code, pass_count, fail_count, error_count, warn_count, skip_count, known_count, none_count, rule_count, organisation_id)
          values (1, 'conformance', '0.1.0', ${at}, ${at}, 'd1', 'unsigned', 'published', 'pass', 0, 1, 0, 0, 0, 0, 0, 0, 1, ${org})`.execute(
          db,
        );
      await run(Number(other.id));
      await expect(run(DEFAULT_ORGANISATION_ID)).rejects.toThrow();
      // the rebuilt tables keep their foreign keys
      await expect(
        sql`insert into runs (target_id, kind, erpcert_version, started_at, created_at, digest, signature_status, status, outcome, exit_code, pass_count, fail_count, error_count, warn_count, skip_count, known_count, none_count, rule_count, organisation_id)
          values (999, 'conformance', '0.1.0', ${at}, ${at}, 'd2', 'unsigned', 'published', 'pass', 0, 1, 0, 0, 0, 0, 0, 0, 1, 1)`.execute(
          db,
        ),
      ).rejects.toThrow();
    } finally {
      await t.dispose();
    }
  });
});

describe.each(testDialects)('0005-load-p95 on %s', (dialect) => {
  it('a load run stored before it keeps its figures and has p95 null (not recorded), not 0', async () => {
    const t = await freshStore(dialect);
    try {
      const migrator = new Migrator({ db: t.store.db, provider: migrationProvider });
      // the migration before it (the runs need their organisation, from 0003-accounts)
      expect((await migrator.migrateTo('0003-accounts')).error).toBeUndefined();
      // the run as a hub before 0005 stored it: no p95_ms column to write
      const prepared = prepareRun(loadFolderFiles(sampleLoad({ rate: 7, p95: null })));
      const before = { ...prepared, figures: prepared.figures.map(({ p95_ms: _, ...f }) => f) };
      const { id } = await t.store.insertRun(
        before as unknown as typeof prepared,
        {
          status: 'unsigned',
          key: null,
          detail: null,
        },
        DEFAULT_ORGANISATION_ID,
      );
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const { figures } = await t.store.loadFigures((await t.store.run(id))?.targetId ?? -1);
      expect(figures).toHaveLength(1);
      expect(figures[0]).toMatchObject({ throughput: 7, p90_ms: 11, p95_ms: null, p99_ms: 19 });
    } finally {
      await t.dispose();
    }
  });
});

describe.each(testDialects)('0006-hub-admins on %s', (dialect) => {
  it('a user stored before it is no hub admin; the flag can be set, and goes away with the migration', async () => {
    const t = await freshStore(dialect);
    try {
      const db = t.store.db;
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo('0005-load-p95')).error).toBeUndefined();
      // a user as the hub before 0006 stored it: no hub_admin column to write
      await sql`insert into users (email, created_at) values ('before@example.com', '2026-11-27T10:00:00.000Z')`.execute(
        db,
      );
      await expect(sql`select hub_admin from users`.execute(db)).rejects.toThrow();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const flag = async () =>
        Number((await db.selectFrom('users').select('hub_admin').executeTakeFirstOrThrow()).hub_admin);
      expect(await flag()).toBe(0);
      await db.updateTable('users').set({ hub_admin: 1 }).execute();
      expect(await flag()).toBe(1);
      // not null: a user is a hub admin or not
      await expect(
        sql`insert into users (email, created_at, hub_admin) values ('null@example.com', 'x', null)`.execute(db),
      ).rejects.toThrow();
      expect((await migrator.migrateTo('0005-load-p95')).error).toBeUndefined();
      await expect(sql`select hub_admin from users`.execute(db)).rejects.toThrow();
      expect(await db.selectFrom('users').select('email').execute()).toEqual([{ email: 'before@example.com' }]);
    } finally {
      await t.dispose();
    }
  });
});
