import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { prepareRun } from '../../ingest/prepare-run.js';
import { loadFolderFiles, sampleLoad } from '../../testing/sample-runs.js';
import { freshStore, testDialects } from '../../testing/test-databases.js';
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
      expect(await t.store.targets()).toEqual([]);
    } finally {
      await t.dispose();
    }
  });

  it('0003-load-p95: a load run stored before it keeps its figures and has p95 null (not recorded), not 0', async () => {
    const t = await freshStore(dialect);
    try {
      const migrator = new Migrator({ db: t.store.db, provider: migrationProvider });
      expect((await migrator.migrateTo('0002-live-runs')).error).toBeUndefined();
      // the run as a hub before 0003 stored it: no p95_ms column to write
      const prepared = prepareRun(loadFolderFiles(sampleLoad({ rate: 7, p95: null })));
      const before = { ...prepared, figures: prepared.figures.map(({ p95_ms: _, ...f }) => f) };
      const { id } = await t.store.insertRun(before as unknown as typeof prepared, {
        status: 'unsigned',
        key: null,
        detail: null,
      });
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const { figures } = await t.store.loadFigures((await t.store.run(id))?.targetId ?? -1);
      expect(figures).toHaveLength(1);
      expect(figures[0]).toMatchObject({ throughput: 7, p90_ms: 11, p95_ms: null, p99_ms: 19 });
    } finally {
      await t.dispose();
    }
  });
});
