import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunChanges } from '../certification/run-changes.js';
import { ingestFiles } from '../ingest/ingest.js';
import { checkSignature } from '../ingest/signature-status.js';
import { FROZEN_MESSAGE } from '../store/migrations/0004-certification.js';
import {
  type CertificationFixture,
  HOSTILE_NAME,
  seedCertification,
  VENDOR_URL,
} from '../testing/certification-fixture.js';
import { conformanceFolderFiles, sampleConformance } from '../testing/sample-runs.js';
import { signedFolderFiles, testKey } from '../testing/sign-files.js';
import { freshStore, type TestStore, testDialects } from '../testing/test-databases.js';
import { CertificationError } from './certification-store.js';
import { FrozenRunError } from './frozen-runs.js';
import { reviewSignature } from './review-signature.js';

const BY = 'user:1 vendor@example.com';
const CERTIFIER = 'user:2 certifier@example.com';

describe.each(testDialects)('certification in the store on %s', (dialect) => {
  let t: TestStore;
  let f: CertificationFixture;
  beforeEach(async () => {
    t = await freshStore(dialect);
    f = await seedCertification(t.store);
  });
  afterEach(async () => t.dispose());

  it('refuses what cannot be submitted, each with its reason', async () => {
    const c = f.certification;
    const cases: [string, () => Promise<unknown>, number, RegExp][] = [
      ['unsigned', () => c.submit(f.unsigned, 'certbody', BY), 400, /unsigned: sign its folder with `erpcert certify`/],
      ['a load run', () => c.submit(f.load, 'certbody', BY), 400, /only a conformance run/],
      ['no such body', () => c.submit(f.signed, 'nobody', BY), 404, /no certifying body nobody/],
      ['to itself', () => c.submit(f.signed, 'vendor', BY), 404, /no certifying body vendor/],
    ];
    for (const [name, act, status, message] of cases) {
      const err = await act().catch((e: unknown) => e);
      expect([name, err instanceof CertificationError && err.status]).toEqual([name, status]);
      expect((err as Error).message).toMatch(message);
    }
    // a body that certifies others still does not certify its own runs
    await c.setCertifyingBody(f.vendor, true);
    await expect(c.submit(f.signed, 'vendor', BY)).rejects.toThrow(/does not certify its own runs/);
    expect(await c.submissions({ by: [f.vendor] })).toEqual([]);
  });

  it('takes a signed run once while it waits, and the certifier decides it once', async () => {
    const c = f.certification;
    const s = await c.submit(f.signed, 'certbody', BY);
    expect(s).toMatchObject({ runId: f.signed.id, state: 'submitted', submittedBy: BY, reviewedSignature: null });
    expect(s.certifier.slug).toBe('certbody');
    await expect(c.submit(f.signed, 'certbody', BY)).rejects.toThrow(/already waits/);
    expect((await c.submissions({ to: [f.body] })).map((x) => x.id)).toEqual([s.id]);
    expect((await c.submissions({ by: [f.vendor] })).map((x) => x.id)).toEqual([s.id]);
    expect(await c.submissions({ to: [f.vendor] })).toEqual([]);

    const check = await reviewSignature(t.store, f.signed);
    expect(check.status).toBe('verified');
    await expect(c.decide(s.id, 'certified', 'ok', CERTIFIER, { ...check, status: 'not-registered' })).rejects.toThrow(
      /does not verify \(not-registered\)/,
    );
    expect(await c.certificationOf(f.signed.id)).toBeUndefined();
    const done = await c.decide(s.id, 'certified', 'Reviewed: all rules judged.', CERTIFIER, check);
    expect(done).toMatchObject({ state: 'certified', decidedBy: CERTIFIER, note: 'Reviewed: all rules judged.' });
    expect(done.reviewedSignature).toEqual({ status: 'verified', key: check.key });
    await expect(c.decide(s.id, 'rejected', 'no', CERTIFIER, check)).rejects.toThrow(/already certified/);
    const listed = await c.certified();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      runId: f.signed.id,
      version: 'v2.4.1',
      erpcertVersion: f.signed.erpcertVersion,
      specSha256: f.signed.specSha256,
      passed: f.signed.totals.PASS,
      rules: f.signed.totals.rules,
      name: HOSTILE_NAME,
    });
    // a saved target renamed afterwards does not rename what was certified
    await t.store.db.updateTable('targets').set({ name: 'Renamed' }).where('id', '=', f.signed.targetId).execute();
    expect((await c.certificationOf(f.signed.id))?.name).toBe(HOSTILE_NAME);
  });

  it('a rejected run is not frozen and may be submitted again', async () => {
    const c = f.certification;
    const s = await c.submit(f.signed, 'certbody', BY);
    await c.decide(s.id, 'rejected', 'Two rules were skipped.', CERTIFIER, await reviewSignature(t.store, f.signed));
    expect(await c.certified()).toEqual([]);
    expect(await new RunChanges(t.store.db).relabelRun(f.signed.id, { label: 'retry' })).toBe(true);
    expect((await c.submit(f.signed, 'certbody', BY)).state).toBe('submitted');
  });

  it('deleting a run whose rerun is certified is refused naming the certified rerun, and changes nothing', async () => {
    // the signed run reruns the unsigned one (a rerun records its parent), then is certified
    await t.store.db.updateTable('runs').set({ parent_run_id: f.unsigned.id }).where('id', '=', f.signed.id).execute();
    const s = await f.certification.submit(f.signed, 'certbody', BY);
    await f.certification.decide(s.id, 'certified', 'ok', CERTIFIER, await reviewSignature(t.store, f.signed));
    const err = await new RunChanges(t.store.db).deleteRun(f.unsigned.id).catch((e: unknown) => e);
    expect(err instanceof FrozenRunError && err.status).toBe(409);
    expect((err as Error).message).toBe(
      `run ${f.unsigned.id} has a certified rerun #${f.signed.id}: it cannot be deleted, because a certified run is frozen, the run it reruns included`,
    );
    expect((await t.store.run(f.unsigned.id))?.id).toBe(f.unsigned.id);
    expect((await t.store.run(f.signed.id))?.parentRunId).toBe(f.unsigned.id);
    // its relabelling is no write to the certified run: it goes through
    expect(await new RunChanges(t.store.db).relabelRun(f.unsigned.id, { label: 'kept' })).toBe(true);
  });

  describe('a certified run is frozen', () => {
    let runId: number;
    beforeEach(async () => {
      runId = f.signed.id;
      const s = await f.certification.submit(f.signed, 'certbody', BY);
      await f.certification.decide(s.id, 'certified', 'ok', CERTIFIER, await reviewSignature(t.store, f.signed));
    });

    it('in the store: delete, relabel and submitting again are refused with 409 naming the rule', async () => {
      const changes = new RunChanges(t.store.db);
      const attempts: [string, () => Promise<unknown>][] = [
        ['delete', () => changes.deleteRun(runId)],
        ['relabel build', () => changes.relabelRun(runId, { build: 'v9' })],
        ['relabel label', () => changes.relabelRun(runId, { label: null })],
        ['submit again', () => f.certification.submit(f.signed, 'certbody', BY)],
      ];
      for (const [name, act] of attempts) {
        const err = await act().catch((e: unknown) => e);
        expect([name, err instanceof FrozenRunError && err.status]).toEqual([name, 409]);
        expect((err as Error).message).toContain(FROZEN_MESSAGE);
      }
      const after = await t.store.run(runId);
      expect([after?.build, after?.label]).toEqual(['v2.4.1', null]);
      // the same run's other, uncertified runs still change
      expect(await changes.relabelRun(f.unsigned.id, { label: 'x' })).toBe(true);
      expect(await changes.deleteRun(f.unsigned.id)).toBe(true);
      expect(await t.store.run(f.unsigned.id)).toBeUndefined();
    });

    it('in the database: every write to the run, its files, verdicts, figures and its freeze is aborted', async () => {
      const db = t.store.db;
      const [file] = await t.store.files(runId);
      const writes: [string, () => Promise<unknown>][] = [
        ['update runs', () => db.updateTable('runs').set({ label: 'x' }).where('id', '=', runId).execute()],
        ['delete runs', () => db.deleteFrom('runs').where('id', '=', runId).execute()],
        ['replace a file', () => db.updateTable('run_files').set({ size: 1 }).where('run_id', '=', runId).execute()],
        ['delete a file', () => db.deleteFrom('run_files').where('run_id', '=', runId).execute()],
        [
          'add a file',
          () =>
            db
              .insertInto('run_files')
              .values({ run_id: runId, path: 'extra.txt', sha256: file?.sha256 ?? '', size: file?.size ?? 0 })
              .execute(),
        ],
        [
          'move a file of another run into it',
          () => db.updateTable('run_files').set({ run_id: runId }).where('run_id', '=', f.unsigned.id).execute(),
        ],
        [
          'change a verdict',
          () => db.updateTable('rule_verdicts').set({ verdict: 'PASS' }).where('run_id', '=', runId).execute(),
        ],
        ['delete verdicts', () => db.deleteFrom('rule_verdicts').where('run_id', '=', runId).execute()],
        [
          'add a verdict',
          () =>
            db
              .insertInto('rule_verdicts')
              .values({ run_id: runId, rule_id: 'X.Y', area: 'X', verdict: 'PASS', observations: 1 })
              .execute(),
        ],
        [
          'add a load figure',
          () =>
            db
              .insertInto('load_figures')
              .values({
                run_id: runId,
                scenario: 's',
                throughput: 1,
                p50_ms: 1,
                p90_ms: 1,
                p99_ms: 1,
                read_seconds: null,
                documented: '',
                documented_rate_min: null,
                documented_rate_max: null,
                knee: null,
                limiter: null,
                verdict: 'pass',
              })
              .execute(),
        ],
        ['unfreeze', () => db.deleteFrom('frozen_runs').where('run_id', '=', runId).execute()],
        [
          'move the freeze',
          () => db.updateTable('frozen_runs').set({ run_id: f.unsigned.id }).where('run_id', '=', runId).execute(),
        ],
      ];
      for (const [name, write] of writes) {
        const err = await write().catch((e: unknown) => e);
        expect([name, err instanceof Error && err.message.includes(FROZEN_MESSAGE)]).toEqual([name, true]);
      }
      expect((await t.store.files(runId)).length).toBeGreaterThan(0);
      expect((await t.store.ruleVerdicts(runId)).length).toBe(f.signed.totals.rules);
      expect((await f.certification.certificationOf(runId))?.runId).toBe(runId);
    });

    it('a correction is a new run: other files publish beside the frozen run, which stays as it was', async () => {
      const again = await ingestFiles(
        t.store,
        conformanceFolderFiles(sampleConformance({ url: 'https://erp.vendor.example', embedded: false, runTag: 'S2' })),
        { build: 'v2.4.1', organisationId: f.vendor },
      );
      expect(again.created).toBe(true);
      expect(again.run.id).not.toBe(runId);
      expect((await t.store.run(runId))?.build).toBe('v2.4.1');
    });
  });

  it("a key registered after a signed run was certified leaves the certified run's status as it was frozen", async () => {
    const late = testKey();
    const doc = (tag: string) => sampleConformance({ url: VENDOR_URL, embedded: false, runTag: tag });
    const files = signedFolderFiles(doc('LATE1'), late);
    const certified = (await ingestFiles(t.store, files, { organisationId: f.vendor })).run;
    const open = (await ingestFiles(t.store, signedFolderFiles(doc('LATE2'), late), { organisationId: f.vendor })).run;
    expect([certified.signature.status, open.signature.status]).toEqual(['not-registered', 'not-registered']);
    // the certifier checked it with the vendor's public key it was given
    const s = await f.certification.submit(certified, 'certbody', BY);
    await f.certification.decide(s.id, 'certified', 'ok', CERTIFIER, checkSignature(files, [late.info]));
    await t.store.registerKey(late.pem, 'late key', f.vendor);
    expect((await t.store.run(certified.id))?.signature).toEqual(certified.signature);
    expect((await t.store.run(open.id))?.signature).toMatchObject({ status: 'verified', key: late.info.fingerprint });
    // the freeze still holds
    await expect(
      t.store.db.updateTable('runs').set({ signature_status: 'verified' }).where('id', '=', certified.id).execute(),
    ).rejects.toThrow(FROZEN_MESSAGE);
  });
});

describe('the store refuses a frozen run by itself, without the triggers (sqlite)', () => {
  it('deleteRun and relabelRun check the freeze before writing', async () => {
    const t = await freshStore('sqlite');
    try {
      const f = await seedCertification(t.store);
      const s = await f.certification.submit(f.signed, 'certbody', BY);
      await f.certification.decide(s.id, 'certified', 'ok', CERTIFIER, await reviewSignature(t.store, f.signed));
      for (const trigger of ['runs_frozen_update', 'runs_frozen_delete'])
        await sql.raw(`drop trigger ${trigger}`).execute(t.store.db);
      const changes = new RunChanges(t.store.db);
      await expect(changes.deleteRun(f.signed.id)).rejects.toBeInstanceOf(FrozenRunError);
      await expect(changes.relabelRun(f.signed.id, { build: 'x' })).rejects.toBeInstanceOf(FrozenRunError);
      expect((await t.store.run(f.signed.id))?.build).toBe('v2.4.1');
    } finally {
      await t.dispose();
    }
  });
});
