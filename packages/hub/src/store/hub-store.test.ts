import type { LoadRunDocument } from '@erpcert/runs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { prepareRun } from '../ingest/prepare-run.js';
import { conformanceFolderFiles, loadFolderFiles, sampleConformance, sampleLoad } from '../testing/sample-runs.js';
import { freshStore, type TestStore, testDialects } from '../testing/test-databases.js';
import { DEFAULT_ORGANISATION_ID as ORG } from './migrations/0003-accounts.js';

const unsigned = { status: 'unsigned', key: null, detail: null } as const;

/** A load run against a target of its own (the sample's is the embedded server). */
const notEmbedded = (doc: LoadRunDocument): LoadRunDocument => ({
  ...doc,
  run: { ...doc.run, target: { ...doc.run.target, embedded: false } },
});

describe.each(testDialects)('the store on %s', (dialect) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await freshStore(dialect);
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('stores a conformance run with its target, metadata, verdicts and files', async () => {
    const doc = sampleConformance({ url: 'https://erp.example.com/', embedded: false, seed: 77, runTag: 'A' });
    const files = conformanceFolderFiles(doc);
    const { id, created } = await t.store.insertRun(
      prepareRun(files, { build: 'abc123', label: 'nightly' }),
      unsigned,
      ORG,
    );
    expect(created).toBe(true);
    const run = await t.store.run(id);
    expect(run).toMatchObject({
      kind: 'conformance',
      build: 'abc123',
      label: 'nightly',
      profile: 'full',
      seed: 77,
      erpcertVersion: '0.1.0',
      specSha256: doc.spec.sha256,
      signature: { status: 'unsigned', text: 'unsigned' },
      status: 'published',
      totals: { rules: 3, PASS: 1, FAIL: 1, SKIP: 1 },
    });
    const target = await t.store.target(run?.targetId ?? -1);
    expect(target).toEqual({
      id: run?.targetId,
      name: 'https://erp.example.com',
      url: 'https://erp.example.com',
      organisationId: ORG,
      embedded: false,
    });
    expect(await t.store.ruleVerdicts(id)).toEqual([
      { rule: 'PORTAL.LOOKUP.CAP50', area: 'PORTAL.LOOKUP', verdict: 'SKIP', observations: 0 },
      { rule: 'REST.VERSION.PATH', area: 'REST.VERSION', verdict: 'PASS', observations: 3 },
      { rule: 'REST.VERSION.SYSTEMVERSION', area: 'REST.VERSION', verdict: 'FAIL', observations: 3 },
    ]);
    expect((await t.store.files(id)).map((f) => f.path)).toEqual([
      'junit.xml',
      'report.html',
      'results.json',
      'summary.md',
    ]);
    expect((await t.store.readFile(id, 'summary.md'))?.equals(files.get('summary.md') as Buffer)).toBe(true);
    expect(await t.store.readFile(id, 'absent.txt')).toBeUndefined();
  });

  it('answers the verdicts of several runs by rule, a cell per run in the order asked (the matrix)', async () => {
    const insert = async (runTag: string, verdicts: Record<string, 'PASS' | 'FAIL' | 'SKIP'>) =>
      (
        await t.store.insertRun(
          prepareRun(conformanceFolderFiles(sampleConformance({ runTag, verdicts }))),
          unsigned,
          ORG,
        )
      ).id;
    const a = await insert('MATRIX-A', { 'REST.VERSION.PATH': 'PASS', 'PORTAL.LOOKUP.CAP50': 'FAIL' });
    const b = await insert('MATRIX-B', { 'REST.VERSION.PATH': 'FAIL', 'REST.ENVELOPE.DATA': 'SKIP' });
    const got = (await t.store.verdictsOf([b, a])).sort((x, y) => (x.rule < y.rule ? -1 : 1));
    // a cell per run asked for, in that order (b, then a); null where the run does not hold the rule
    expect(got).toEqual([
      { rule: 'PORTAL.LOOKUP.CAP50', area: 'PORTAL.LOOKUP', verdicts: [null, 'FAIL'] },
      { rule: 'REST.ENVELOPE.DATA', area: 'REST.ENVELOPE', verdicts: ['SKIP', null] },
      { rule: 'REST.VERSION.PATH', area: 'REST.VERSION', verdicts: ['FAIL', 'PASS'] },
    ]);
    // a run asked for twice fills both of its columns
    expect((await t.store.verdictsOf([a, b, a])).find((r) => r.rule === 'REST.VERSION.PATH')?.verdicts).toEqual([
      'PASS',
      'FAIL',
      'PASS',
    ]);
    expect(await t.store.verdictsOf([])).toEqual([]);
  });

  it('offers the matrix the targets by name, each saying whether it has a conformance run', async () => {
    const targetOf = async (id: number) => (await t.store.run(id))?.targetId ?? -1;
    const withLoad = await targetOf(
      (
        await t.store.insertRun(
          prepareRun(loadFolderFiles(notEmbedded(sampleLoad({ url: 'https://choice-a.example' })))),
          unsigned,
          ORG,
        )
      ).id,
    );
    const withConformance = await targetOf(
      (
        await t.store.insertRun(
          prepareRun(
            conformanceFolderFiles(
              sampleConformance({ url: 'https://choice-b.example', embedded: false, runTag: 'CHOICE' }),
            ),
          ),
          unsigned,
          ORG,
        )
      ).id,
    );
    const choices = (await t.store.targetChoices([ORG])).filter((c) => [withLoad, withConformance].includes(c.id));
    expect(choices.map((c) => [c.id, c.hasConformanceRun])).toEqual([
      [withLoad, false],
      [withConformance, true],
    ]);
    expect(choices.map((c) => c.name)).toEqual(['https://choice-a.example', 'https://choice-b.example']);
    expect(await t.store.targetChoices([ORG + 1000])).toEqual([]);
    expect(await t.store.targetChoices([])).toEqual([]);
  });

  it('answers a run whose rule ids hold the separators of its joined verdicts row by row, intact', async () => {
    const id = (
      await t.store.insertRun(
        prepareRun(
          conformanceFolderFiles(sampleConformance({ runTag: 'ODD', verdicts: { 'REST.VERSION.PATH': 'PASS' } })),
        ),
        unsigned,
        ORG,
      )
    ).id;
    // not a rule id the results schema lets in; a row written some other way must still come back as it is
    await t.store.db
      .insertInto('rule_verdicts')
      .values({ run_id: id, rule_id: 'ODD,RULE:X', area: 'ODD:AREA', verdict: 'FAIL', observations: 1 })
      .execute();
    const got = new Map((await t.store.verdictsOf([id])).map((r) => [r.rule, r]));
    expect(got.get('ODD,RULE:X')).toEqual({ rule: 'ODD,RULE:X', area: 'ODD:AREA', verdicts: ['FAIL'] });
    expect(got.get('REST.VERSION.PATH')?.verdicts).toEqual(['PASS']);
    expect(got.size).toBe((await t.store.ruleVerdicts(id)).length);
  });

  it('stores the same folder once: the second insert finds the first run', async () => {
    const files = conformanceFolderFiles(sampleConformance({ runTag: 'SAME' }));
    const first = await t.store.insertRun(prepareRun(files), unsigned, ORG);
    const second = await t.store.insertRun(prepareRun(files, { build: 'other' }), unsigned, ORG);
    expect(second).toEqual({ id: first.id, created: false });
    expect((await t.store.run(first.id))?.build).toBeNull();
  });

  it('stores a run published twice at the same moment once', async () => {
    const prepared = prepareRun(conformanceFolderFiles(sampleConformance({ runTag: 'RACE' })));
    const results = await Promise.all([1, 2, 3].map(() => t.store.insertRun(prepared, unsigned, ORG)));
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const rows = await t.store.db.selectFrom('runs').select('id').where('digest', '=', prepared.digest).execute();
    expect(rows).toHaveLength(1);
  });

  it('shares a blob between runs holding the same file', async () => {
    const a = await t.store.insertRun(
      prepareRun(conformanceFolderFiles(sampleConformance({ runTag: 'B1' }))),
      unsigned,
      ORG,
    );
    const b = await t.store.insertRun(
      prepareRun(conformanceFolderFiles(sampleConformance({ runTag: 'B2' }))),
      unsigned,
      ORG,
    );
    const fa = await t.store.files(a.id);
    const fb = await t.store.files(b.id);
    const junit = (fs: typeof fa) => fs.find((f) => f.path === 'junit.xml')?.sha256;
    expect(junit(fa)).toBe(junit(fb));
    const blobs = await t.store.db
      .selectFrom('blobs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('sha256', '=', junit(fa) ?? '')
      .executeTakeFirstOrThrow();
    expect(Number(blobs.n)).toBe(1);
  });

  it("filters a target's history by profile, build and label, newest first", async () => {
    const url = 'https://history.example.com';
    const put = (runTag: string, profile: 'full' | 'gate', build: string, label: string | null) =>
      t.store.insertRun(
        prepareRun(conformanceFolderFiles(sampleConformance({ url, embedded: false, runTag, profile })), {
          build,
          label,
        }),
        unsigned,
        ORG,
      );
    const r1 = await put('H1', 'full', 'b1', 'nightly');
    const r2 = await put('H2', 'gate', 'b2', null);
    const r3 = await put('H3', 'gate', 'b3', 'nightly');
    const targetId = (await t.store.run(r1.id))?.targetId ?? -1;
    const ids = async (f: Parameters<typeof t.store.targetRuns>[1]) =>
      (await t.store.targetRuns(targetId, f)).map((r) => r.id);
    expect(await ids({})).toEqual([r3.id, r2.id, r1.id]);
    expect(await ids({ profile: 'gate' })).toEqual([r3.id, r2.id]);
    expect(await ids({ build: 'b1' })).toEqual([r1.id]);
    expect(await ids({ label: 'nightly' })).toEqual([r3.id, r1.id]);
    expect(await ids({ limit: 1 })).toEqual([r3.id]);
    expect(await ids({ before: r3.id })).toEqual([r2.id, r1.id]);
    const targets = await t.store.targets([ORG]);
    const h = targets.find((x) => x.id === targetId);
    expect(h?.runCount).toBe(3);
    expect(h?.latest?.id).toBe(r3.id);
    expect(h?.recent.map((r) => r.id)).toEqual([r3.id, r2.id, r1.id]);
  });

  it("stores a load run's figures per scenario", async () => {
    const { id } = await t.store.insertRun(prepareRun(loadFolderFiles(sampleLoad({ rate: 12 }))), unsigned, ORG);
    const run = await t.store.run(id);
    expect(run).toMatchObject({ kind: 'load', profile: 'autocannon', specSha256: null, totals: { rules: 1, PASS: 1 } });
    const { figures } = await t.store.loadFigures(run?.targetId ?? -1);
    expect(figures.find((f) => Number(f.run_id) === id)).toMatchObject({
      scenario: 'transactions',
      throughput: 12,
      p90_ms: 11,
      p95_ms: 14,
      p99_ms: 19,
      knee: 229,
      limiter: 'target',
      verdict: 'pass',
    });
  });

  it('stores p95 as null, not 0, for a load run of an erpcert that did not measure it', async () => {
    const files = loadFolderFiles(sampleLoad({ rate: 13, p95: null, startedAt: '2026-11-20T08:00:00.000Z' }));
    const { id } = await t.store.insertRun(prepareRun(files), unsigned, ORG);
    const run = await t.store.run(id);
    const { figures } = await t.store.loadFigures(run?.targetId ?? -1);
    expect(figures.find((f) => Number(f.run_id) === id)).toMatchObject({ throughput: 13, p90_ms: 11, p95_ms: null });
  });

  it('finds the newest run of each target at one erpcert version', async () => {
    const put = (url: string, runTag: string, version: string) =>
      t.store.insertRun(
        prepareRun(conformanceFolderFiles(sampleConformance({ url, embedded: false, runTag, version }))),
        unsigned,
        ORG,
      );
    await put('https://v1.example.com', 'V1', '9.9.0');
    const newest = await put('https://v1.example.com', 'V2', '9.9.0');
    const other = await put('https://v2.example.com', 'V3', '9.9.0');
    await put('https://v2.example.com', 'V4', '9.8.0');
    expect((await t.store.latestRunsAtVersion('9.9.0', [ORG])).map((r) => r.id).sort()).toEqual(
      [newest.id, other.id].sort(),
    );
  });

  it("leaves nothing behind when a run's transaction fails", async () => {
    const files = conformanceFolderFiles(sampleConformance({ runTag: 'BROKEN' }));
    const prepared = prepareRun(files);
    const before = await t.store.db
      .selectFrom('blobs')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    // a verdict row without a rule id violates NOT NULL after the blobs and the run were written
    const broken = {
      ...prepared,
      verdicts: [
        ...prepared.verdicts,
        { rule_id: null as unknown as string, area: 'X', verdict: 'PASS', observations: 1 },
      ],
    };
    await expect(t.store.insertRun(broken, unsigned, ORG)).rejects.toThrow();
    const after = await t.store.db
      .selectFrom('blobs')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const runs = await t.store.db.selectFrom('runs').select('id').where('digest', '=', prepared.digest).execute();
    expect(runs).toEqual([]);
  });

  it('registers a public key once and refuses what is not one', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const pem = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const k = await t.store.registerKey(pem, 'vendor', ORG);
    expect(k.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    await t.store.registerKey(pem, 'again', ORG);
    expect((await t.store.keys([ORG])).filter((x) => x.fingerprint === k.fingerprint)).toHaveLength(1);
    await expect(t.store.registerKey('not a key', 'x', ORG)).rejects.toThrow(/not a public key/);
  });
});

describe.runIf(testDialects.includes('postgres'))('the store on postgres, when the server ends its connections', () => {
  it('logs it, stays up, and serves the next request on a new connection', async () => {
    const { freshDatabase } = await import('../testing/test-databases.js');
    const { HubStore } = await import('./hub-store.js');
    const pg = (await import('pg')).default;
    const { database, drop } = await freshDatabase('postgres');
    const logged: string[] = [];
    const store = await HubStore.open(database, { log: (l) => logged.push(l) });
    try {
      expect(await store.targets([ORG])).toEqual([]);
      const name = new URL(database).pathname.slice(1);
      const admin = new pg.Client({ connectionString: database.replace(`/${name}`, '/postgres') });
      await admin.connect();
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      await admin.end();
      await vi.waitFor(() =>
        expect(logged.join('\n')).toMatch(/a PostgreSQL connection to .* failed: terminating connection/),
      );
      expect(await store.targets([ORG])).toEqual([]);
    } finally {
      await store.close();
      await drop();
    }
  });
});
