import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
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
});
