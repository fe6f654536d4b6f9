import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Accounts } from '../auth/accounts.js';
import { DEFAULT_ORGANISATION_ID } from '../store/migrations/0003-accounts.js';
import { conformanceFolderFiles, loadFolderFiles, sampleConformance, sampleLoad } from '../testing/sample-runs.js';
import { signedFolderFiles, testKey } from '../testing/sign-files.js';
import { freshStore, type TestStore, testDialects } from '../testing/test-databases.js';
import { writeZip, zipFiles } from '../testing/zip-writer.js';
import { ingestFiles, ingestZip } from './ingest.js';
import { IngestError } from './ingest-error.js';
import { DEFAULT_LIMITS } from './limits.js';

const MIB = 1024 * 1024;
const results = (runTag: string) => Buffer.from(JSON.stringify(sampleConformance({ runTag })));

async function counts(t: TestStore) {
  const n = async (table: 'runs' | 'blobs' | 'run_files' | 'rule_verdicts' | 'targets') =>
    Number(
      (
        await t.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    runs: await n('runs'),
    blobs: await n('blobs'),
    files: await n('run_files'),
    verdicts: await n('rule_verdicts'),
    targets: await n('targets'),
  };
}

describe.each(testDialects)('ingest on %s', (dialect) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await freshStore(dialect);
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('stores a zipped report folder (with its top folder) once, however often it is published', async () => {
    const zip = zipFiles(conformanceFolderFiles(sampleConformance({ runTag: 'Z1' })), 'r1/');
    const first = await ingestZip(t.store, zip, { build: 'v1.2.3' });
    expect(first.created).toBe(true);
    expect(first.run).toMatchObject({ kind: 'conformance', build: 'v1.2.3', totals: { FAIL: 1 } });
    expect((await t.store.files(first.run.id)).map((f) => f.path)).toContain('results.json');
    const before = await counts(t);
    const again = await ingestZip(t.store, zip, { build: 'v1.2.3' });
    expect(again).toEqual({ run: first.run, created: false });
    expect(await counts(t)).toEqual(before);
  });

  it('stores a load run folder', async () => {
    const { run, created } = await ingestFiles(t.store, loadFolderFiles(sampleLoad({ rate: 9 })));
    expect(created).toBe(true);
    expect(run).toMatchObject({ kind: 'load', signature: { status: 'unsigned' } });
  });

  const refusals: [string, () => Buffer, RegExp, number][] = [
    ['not a zip', () => Buffer.from('just text'), /not a readable zip file/, 400],
    [
      'a folder without results.json',
      () => writeZip([{ name: 'summary.md', data: Buffer.from('# x') }]),
      /not a run folder: it holds no results\.json/,
      400,
    ],
    [
      'results.json that is not JSON',
      () => writeZip([{ name: 'results.json', data: Buffer.from('{oops') }]),
      /results\.json is not valid JSON/,
      422,
    ],
    [
      'results.json of another tool',
      () => writeZip([{ name: 'results.json', data: Buffer.from('{"kind":"other"}') }]),
      /neither an erpcert conformance results document nor a load results document/,
      422,
    ],
    [
      'a schema-invalid results.json',
      () => {
        const doc = { ...sampleConformance({ runTag: 'BAD' }), totals: { rules: 'three' } };
        return writeZip([{ name: 'results.json', data: Buffer.from(JSON.stringify(doc)) }]);
      },
      /results\.json does not match results\.schema\.json: \/totals/,
      422,
    ],
    [
      'a schema-invalid load results.json',
      () => {
        const doc = { ...sampleLoad(), scenarios: 'none' };
        return writeZip([{ name: 'results.json', data: Buffer.from(JSON.stringify(doc)) }]);
      },
      /results\.json does not match load-results\.schema\.json/,
      422,
    ],
    [
      'a path climbing out with ..',
      () =>
        writeZip([
          { name: 'results.json', data: results('S1') },
          { name: '../evil.sh', data: Buffer.from('x') },
        ]),
      /\.\./,
      400,
    ],
    [
      'an absolute path',
      () =>
        writeZip([
          { name: 'results.json', data: results('S2') },
          { name: '/etc/cron.d/x', data: Buffer.from('x') },
        ]),
      /absolute/,
      400,
    ],
    [
      'a backslash path',
      () =>
        writeZip([
          { name: 'results.json', data: results('S3') },
          { name: '..\\evil', data: Buffer.from('x') },
        ]),
      /backslash|invalid characters/,
      400,
    ],
    [
      'the same file twice',
      () =>
        writeZip([
          { name: 'results.json', data: results('S4') },
          { name: 'results.json', data: results('S4') },
        ]),
      /twice/,
      400,
    ],
    [
      'more bytes than the limit',
      () =>
        writeZip([
          { name: 'results.json', data: results('S5') },
          { name: 'big.bin', data: Buffer.alloc(70 * MIB, 1), store: true },
        ]),
      /too large: more than 64\.0 MiB/,
      413,
    ],
    [
      'a zip bomb (an entry inflating a thousand times)',
      () =>
        writeZip([
          { name: 'results.json', data: results('S6') },
          { name: 'zeros.bin', data: Buffer.alloc(20 * MIB) },
        ]),
      /zeros\.bin inflates more than 200 times its compressed size: refused as a zip bomb/,
      413,
    ],
    [
      'an entry whose header claims fewer bytes than it inflates to',
      () =>
        writeZip([
          { name: 'results.json', data: results('S7') },
          { name: 'liar.txt', data: Buffer.from('x'.repeat(5000)), declaredSize: 10 },
        ]),
      /refused/,
      400,
    ],
  ];

  it.each(refusals)('refuses %s, says why and stores nothing', async (_name, make, message, status) => {
    const before = await counts(t);
    const err = await ingestZip(t.store, make(), {}, DEFAULT_LIMITS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IngestError);
    expect((err as IngestError).message).toMatch(message);
    expect((err as IngestError).status).toBe(status);
    expect(await counts(t)).toEqual(before);
  });

  it('refuses a run with more files than the limit', async () => {
    const entries = [
      { name: 'results.json', data: results('F1') },
      ...Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from(`${i}`) })),
    ];
    await expect(ingestZip(t.store, writeZip(entries), {}, { ...DEFAULT_LIMITS, maxFiles: 3 })).rejects.toThrow(
      /more than 3 files/,
    );
  });

  it('refuses a build label with control characters', async () => {
    await expect(
      ingestFiles(t.store, conformanceFolderFiles(sampleConformance({ runTag: 'M1' })), { build: 'a\nb' }),
    ).rejects.toThrow(/the build must be at most 200 printable characters/);
  });

  describe('signature status, by the erpcert verify checks', () => {
    const key = testKey();
    const other = testKey();

    it('unsigned, then signed by a key not registered, then verified once the key is registered', async () => {
      const plain = await ingestFiles(t.store, conformanceFolderFiles(sampleConformance({ runTag: 'SIG0' })));
      expect(plain.run.signature).toMatchObject({ status: 'unsigned', text: 'unsigned' });
      const before = await ingestFiles(t.store, signedFolderFiles(sampleConformance({ runTag: 'SIG1' }), key));
      expect(before.run.signature).toMatchObject({ status: 'not-registered', text: 'signed, key not registered' });
      // signed by the same key, changed after signing: nothing tells it apart until the key is known
      const edited = signedFolderFiles(sampleConformance({ runTag: 'SIG1E' }), key);
      edited.set('summary.md', Buffer.from('# edited after signing\n'));
      const changed = await ingestFiles(t.store, edited);
      expect(changed.run.signature.status).toBe('not-registered');
      const byOther = await ingestFiles(t.store, signedFolderFiles(sampleConformance({ runTag: 'SIG3' }), other));
      expect(byOther.run.signature.status).toBe('not-registered');
      await t.store.registerKey(key.pem, 'vendor', DEFAULT_ORGANISATION_ID);
      const verified = {
        status: 'verified',
        key: key.info.fingerprint,
        text: `verified, key ${key.info.fingerprint}`,
        detail: null,
      };
      // the runs published before the key: checked again from their stored files
      expect((await t.store.run(before.run.id))?.signature).toEqual(verified);
      expect((await t.store.run(changed.run.id))?.signature).toMatchObject({
        status: 'invalid',
        text: 'signature INVALID',
      });
      expect((await t.store.run(changed.run.id))?.signature.detail).toMatch(/summary\.md: sha256/);
      expect((await t.store.run(byOther.run.id))?.signature.status).toBe('not-registered');
      expect((await t.store.run(plain.run.id))?.signature.status).toBe('unsigned');
      // and a run published after it
      const after = await ingestFiles(t.store, signedFolderFiles(sampleConformance({ runTag: 'SIG2' }), key));
      expect(after.run.signature).toEqual(verified);
      // the same run published again is the same run, verified
      expect(await ingestFiles(t.store, signedFolderFiles(sampleConformance({ runTag: 'SIG1' }), key))).toMatchObject({
        created: false,
        run: { id: before.run.id, signature: verified },
      });
    });

    it("a key registered in another organisation leaves this organisation's runs as they were", async () => {
      const third = testKey();
      const signed = await ingestFiles(t.store, signedFolderFiles(sampleConformance({ runTag: 'SIG6' }), third));
      const elsewhere = await new Accounts(t.store.db).createOrganisation('elsewhere', 'Elsewhere');
      await t.store.registerKey(third.pem, 'theirs', elsewhere.id);
      expect((await t.store.run(signed.run.id))?.signature.status).toBe('not-registered');
      await t.store.registerKey(third.pem, 'ours', DEFAULT_ORGANISATION_ID);
      expect((await t.store.run(signed.run.id))?.signature.status).toBe('verified');
    });

    it('signature INVALID when a signed file was changed', async () => {
      await t.store.registerKey(key.pem, 'vendor', DEFAULT_ORGANISATION_ID);
      const files = signedFolderFiles(sampleConformance({ runTag: 'SIG4' }), key);
      files.set('summary.md', Buffer.from('# edited after signing\n'));
      const { run } = await ingestFiles(t.store, files);
      expect(run.signature).toMatchObject({ status: 'invalid', text: 'signature INVALID' });
      expect(run.signature.detail).toMatch(/summary\.md: sha256/);
    });

    it('signature INVALID when the attestation is not an envelope', async () => {
      const files = conformanceFolderFiles(sampleConformance({ runTag: 'SIG5' }));
      files.set('attestation.intoto.jsonl', Buffer.from('not json\n'));
      const { run } = await ingestFiles(t.store, files);
      expect(run.signature.status).toBe('invalid');
    });
  });
});
