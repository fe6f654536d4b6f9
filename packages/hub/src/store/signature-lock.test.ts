/**
 * A run published while its key is being registered reads "verified" (signing-keys.ts `lockSignatures`), on
 * PostgreSQL, with the overlap made deterministic over three connections: a transaction the test holds open keeps a
 * row lock on an older run the key signed, so the key's registration stops inside its transaction, after listing
 * the runs to check again and before committing; the run is published then. Without the lock the run's transaction
 * commits at once and the ingest reads the keys before the key commits: neither side sees the other, and the run
 * stays "signed, key not registered". With it the run's transaction waits for the registration, then the ingest
 * finds the key and checks the run again.
 *
 * And the lock a run's storing takes is shared: runs of one organisation are not stored one at a time.
 *
 * SQLite runs one transaction at a time (one connection): the overlap cannot happen there, so this is PostgreSQL's.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFiles } from '../ingest/ingest.js';
import { sampleConformance } from '../testing/sample-runs.js';
import { signedFolderFiles, testKey } from '../testing/sign-files.js';
import { freshStore, POSTGRES_URL_ENV, postgresUrl, type TestStore } from '../testing/test-databases.js';
import { DEFAULT_ORGANISATION_ID } from './migrations/0003-accounts.js';
import { lockSignatures } from './signing-keys.js';

describe.skipIf(!postgresUrl)(
  `a key registered while a run it signed is published (PostgreSQL${postgresUrl ? '' : `: skipped, ${POSTGRES_URL_ENV} is not set`})`,
  () => {
    let t: TestStore;
    beforeAll(async () => {
      t = await freshStore('postgres');
    });
    afterAll(async () => {
      await t?.dispose();
    });

    /** Resolves once `n` sessions of this database wait on a lock of one of `events`; or when `stopped()`. */
    async function waiting(events: readonly string[], n: number, stopped: () => boolean = () => false): Promise<void> {
      while (!stopped()) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and wait_event in (${sql.join(events)})`.execute(
          t.store.db,
        );
        if ((rows[0]?.n ?? 0) >= n) return;
        await new Promise((r) => setTimeout(r, 10));
      }
    }

    it('reads verified: the run waits for the key, then is checked again with it', async () => {
      const key = testKey();
      const earlier = await ingestFiles(t.store, signedFolderFiles(sampleConformance({ runTag: 'RACE0' }), key));
      expect(earlier.run.signature.status).toBe('not-registered');

      // the test's own transaction locks the earlier run's row, and holds it
      let release = () => {};
      const released = new Promise<void>((r) => {
        release = r;
      });
      let holding = () => {};
      const held = new Promise<void>((r) => {
        holding = r;
      });
      const holder = t.store.db.transaction().execute(async (trx) => {
        await trx.selectFrom('runs').select('id').where('id', '=', earlier.run.id).forUpdate().execute();
        holding();
        await released;
      });
      await held;

      // the registration inserts the key, lists the runs to check, and waits on the earlier run's row
      const registering = t.store.registerKey(key.pem, 'vendor', DEFAULT_ORGANISATION_ID);
      await waiting(['transactionid', 'tuple'], 1);

      // a run the key signed, published now; with the lock its transaction waits for the registration's
      let done = false;
      const publishing = ingestFiles(t.store, signedFolderFiles(sampleConformance({ runTag: 'RACE1' }), key));
      const first = await Promise.race([
        publishing.then(() => 'stored while the key was uncommitted'),
        waiting(['advisory'], 1, () => done).then(() => 'waited for the key'),
      ]);
      done = true;
      release();
      await holder;
      await registering;
      const { run } = await publishing;

      expect((await t.store.run(run.id))?.signature).toMatchObject({
        status: 'verified',
        key: key.info.fingerprint,
      });
      expect((await t.store.run(earlier.run.id))?.signature.status).toBe('verified');
      expect(first).toBe('waited for the key');
    }, 60_000);

    it("runs of one organisation are still stored side by side: a run's lock does not stop another's", async () => {
      const key = testKey();
      let release = () => {};
      const released = new Promise<void>((r) => {
        release = r;
      });
      let holding = () => {};
      const held = new Promise<void>((r) => {
        holding = r;
      });
      // a transaction that stores a run, held open with the lock a run's storing takes
      const holder = t.store.db.transaction().execute(async (trx) => {
        await lockSignatures(trx, 'postgres', DEFAULT_ORGANISATION_ID, 'store');
        holding();
        await released;
      });
      await held;
      let done = false;
      const publishing = ingestFiles(t.store, signedFolderFiles(sampleConformance({ runTag: 'SIDE1' }), key));
      const first = await Promise.race([
        publishing.then(() => 'stored'),
        waiting(['advisory'], 1, () => done).then(() => 'waited'),
      ]);
      done = true;
      release();
      await holder;
      await publishing;
      expect(first).toBe('stored');
    }, 60_000);
  },
);
