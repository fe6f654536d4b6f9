/**
 * Issue 11 §2: `erpcert cleanup` never touches a record without the run tag or the fixture prefix. A reference
 * server is seeded with a run's records and with look-alikes (codes that share a prefix substring, differ in case,
 * carry the tag in another field or as part of a longer word); after every kind of cleanup each look-alike is
 * exactly as it was (same fields, same @sequence), even when the ledger names it. Bad input touches nothing.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@erpcert/refserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CleanupDocument } from './cleanup-report.js';
import { codes, createForm, currentSequence, erpcert, readRecord, type TestTarget } from './testing.js';

const TAG = 'ECAB12';
const LOAD_TAG = 'erpcert-load-0a1b2c3d';
const work = mkdtempSync(join(tmpdir(), 'erpcert-cleanup-safety-'));
let server: RunningServer;
let t: TestTarget;
/** Reads without paging pauses, with the server's login and the un-confirm user of its demo data. */
let common: string[];

type Ref = { register: string; key: Record<string, string>; ledgerKey: string };
const run: Record<string, Ref> = {};
const lookAlikes: Ref[] = [];
const snapshots = new Map<Ref, unknown>();

const ref = (register: string, field: string, value: string): Ref => ({
  register,
  key: { [field]: value },
  ledgerKey: value,
});
const serRef = (register: string, key: string): Ref => ref(register, 'SerNr', key);

async function snapshotLookAlikes() {
  for (const r of lookAlikes) snapshots.set(r, await readRecord(t, r.register, r.key));
}

async function expectLookAlikesUntouched() {
  for (const r of lookAlikes) {
    const now = await readRecord(t, r.register, r.key);
    expect(now, `${r.register} ${r.ledgerKey}`).toBeDefined();
    expect(now, `${r.register} ${r.ledgerKey}`).toEqual(snapshots.get(r));
  }
}

function conformanceFolder(name: string, entries: readonly Ref[]): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const target = {
    url: t.url,
    embedded: false,
    user: t.user,
    compcode: 1,
    companyIn: 'query',
    portalPath: '/WebErpAPI.hal',
  };
  writeFileSync(
    join(dir, 'results.json'),
    JSON.stringify({ schemaVersion: 1, kind: 'erpcert-conformance', run: { runTag: TAG, target } }),
  );
  writeFileSync(
    join(dir, 'ledger.jsonl'),
    entries.map((e) => `${JSON.stringify({ register: e.register, key: e.ledgerKey, company: 1 })}\n`).join(''),
  );
  return dir;
}

beforeAll(async () => {
  server = await startServer({ port: 0, seed: 100, log: () => {} });
  t = { url: server.url, user: 'erpcert', password: 'erpcert' };
  common = ['--target', t.url, '--user', t.user, '--password', t.password, '--compcode', '1', '--read-pause', '0'];
  const [customer] = await codes(t, 'CUVc', 'Code', 1);
  const [item] = await codes(t, 'INVc', 'Code', 1);
  const accounts = await codes(t, 'AccVc', 'AccNumber', 2);
  const invoice = (spec: string, header: Record<string, string> = {}) =>
    createForm(t, 'IVVc', { CustCode: customer!, ...header }, [{ ArtCode: item!, Quant: '1', Spec: spec }]);
  const journal = (comment: string) =>
    createForm(t, 'TRVc', {}, [
      { AccNumber: accounts[0]!, DebVal: '1.00', Comment: comment },
      { AccNumber: accounts[1]!, CredVal: '1.00', Comment: comment },
    ]);
  const contact = async (code: string, name = 'contact') => {
    await createForm(t, 'CUVc', { Code: code, Name: name });
    return ref('CUVc', 'Code', code);
  };
  const article = async (code: string) => {
    await createForm(t, 'INVc', { Code: code, Name: 'item' });
    return ref('INVc', 'Code', code);
  };

  // the conformance run ECAB12: a contact and an item by code, a draft invoice by its row Spec
  run.contact = await contact(`${TAG}XYZ0001`);
  run.item = await article(`${TAG}XYZ0002`);
  run.invoice = serRef('IVVc', await invoice(`${TAG} credit`));
  // the load run: a confirmed invoice (row Spec) and a journal entry (row Comment, no documented delete)
  run.loadInvoice = serRef('IVVc', await invoice(`${LOAD_TAG}-1`, { OKFlag: '1' }));
  run.loadJournal = ref('TRVc', 'Number', '');
  const journalKey = await journal(`erpcert load ${LOAD_TAG}`);
  run.loadJournal = {
    register: 'TRVc',
    key: { IntYc: journalKey.split('/')[0]!, Number: journalKey.split('/')[1]! },
    ledgerKey: journalKey,
  };
  // the fixture set
  run.fixtureItem = await article('ERPCERT-FX-ITEM-01');
  run.fixtureContact = await contact('ERPCERT-FX-C-01');

  lookAlikes.push(
    await contact('ECAB1XYZ0001'), // shares the prefix substring ECAB1
    await contact('ecab12XYZ0003'), // the tag in lower case
    await contact('XECAB12YZ0004'), // the tag, not at the start
    await contact(TAG), // the tag alone, without the harness's 7 characters
    await contact('ECAB13XYZ0005'), // another run's tag of the same shape
    await contact('C7001', `${TAG} url`), // the tag in another field (Name)
    await article('ECAB12-X'), // the tag and 2 characters
    await article('erpcert-fx-item-02'), // the fixture prefix in lower case
    await article('X-ERPCERT-FX-ITEM-03'), // the fixture prefix, not at the start
    await article('ERPCERT-FXITEM-04'), // the fixture prefix without its dash
    serRef('IVVc', await invoice(`${TAG}1 credit`)), // a longer word
    serRef('IVVc', await invoice(`x${TAG} credit`)),
    serRef('IVVc', await invoice('bolt', { Addr0: TAG })), // the tag in a header field runs do not write
    serRef('IVVc', await invoice(`${LOAD_TAG}9-1`, { OKFlag: '1' })), // a longer load tag
    serRef('IVVc', await invoice(`${LOAD_TAG.toUpperCase()}-1`, { OKFlag: '1' })), // in upper case
    serRef('IVVc', await invoice('erpcert-load-0a1b2c3-1', { OKFlag: '1' })), // a shorter one
  );
  const other = await journal('erpcert load erpcert-load-0a1b2c3e');
  lookAlikes.push({
    register: 'TRVc',
    key: { IntYc: other.split('/')[0]!, Number: other.split('/')[1]! },
    ledgerKey: other,
  });
  await snapshotLookAlikes();
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('erpcert cleanup never touches a record without the tag or the fixture prefix', () => {
  it('bad input: exit 2 and nothing touched (not a report, tag matching nothing, refused credentials)', async () => {
    const before = await currentSequence(t);
    const empty = join(work, 'empty');
    mkdirSync(empty, { recursive: true });
    const notReport = await erpcert(['cleanup', empty, ...common], work);
    expect(notReport.code).toBe(2);
    expect(notReport.stderr).toContain('is not a report folder');
    const nothing = await erpcert(['cleanup', '--tag', 'EC0000', ...common], work);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('no record on the target carries run tag EC0000');
    const refused = await erpcert(['cleanup', '--tag', TAG, ...common, '--password', 'wrong'], work);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refused the credentials');
    expect(refused.stderr + refused.stdout).not.toContain('wrong');
    const badTag = await erpcert(['cleanup', '--tag', 'EC', ...common], work);
    expect(badTag.code).toBe(2);
    expect(await currentSequence(t)).toBe(before);
  });

  it('--dry-run lists the run records and touches nothing', async () => {
    const before = await currentSequence(t);
    const r = await erpcert(['cleanup', '--tag', LOAD_TAG, '--dry-run', '--unok-usercode', 'ACC', ...common], work);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`would delete  IVVc ${run.loadInvoice!.ledgerKey}`);
    expect(r.stdout).toContain(`would leave  TRVc ${run.loadJournal!.ledgerKey}`);
    expect(r.stdout).toContain('Nothing was touched');
    expect(await currentSequence(t)).toBe(before);
    expect(await readRecord(t, 'IVVc', run.loadInvoice!.key)).toBeDefined();
  });

  it('a report folder whose ledger also names look-alikes: only the tagged records go', async () => {
    const dir = conformanceFolder('conform', [run.contact!, run.item!, run.invoice!, ...lookAlikes]);
    const r = await erpcert(['cleanup', dir, '--user', t.user, '--password', t.password, '--read-pause', '0'], work);
    expect(r.stderr).toContain(`conformance report conform, run tag ${TAG}`);
    expect(r.code).toBe(0);
    expect(await readRecord(t, 'CUVc', run.contact!.key)).toBeUndefined();
    expect(await readRecord(t, 'IVVc', run.invoice!.key)).toBeUndefined();
    expect((await readRecord(t, 'INVc', run.item!.key))?.Terminated).toBe('1');
    await expectLookAlikesUntouched();
    const doc = JSON.parse(readFileSync(join(dir, 'cleanup.json'), 'utf8')) as CleanupDocument;
    expect(doc.totals).toMatchObject({ records: 3 + lookAlikes.length, deleted: 2, closed: 1, failed: 0 });
    expect(
      doc.residue
        .filter((x) => x.status === 'untouched')
        .map((x) => x.key)
        .sort(),
    ).toEqual(lookAlikes.map((x) => x.ledgerKey).sort());
    expect(doc.residue.find((x) => x.key === run.item!.ledgerKey)).toMatchObject({ status: 'closed' });
    expect(Object.keys(doc.target)).not.toContain('password');
  });

  it('--tag of a load run: un-confirms and deletes its invoice, lists its journal entry by key', async () => {
    const out = join(work, 'by-tag');
    const r = await erpcert(['cleanup', '--tag', LOAD_TAG, '--unok-usercode', 'ACC', '--out', out, ...common], work);
    expect(r.code).toBe(0);
    expect(await readRecord(t, 'IVVc', run.loadInvoice!.key)).toBeUndefined();
    expect(await readRecord(t, 'TRVc', run.loadJournal!.key)).toBeDefined();
    const doc = JSON.parse(readFileSync(join(out, 'cleanup.json'), 'utf8')) as CleanupDocument;
    expect(doc.residue).toEqual([
      expect.objectContaining({ register: 'TRVc', key: run.loadJournal!.ledgerKey, status: 'kept' }),
    ]);
    expect(r.stdout).toContain(`kept      TRVc ${run.loadJournal!.ledgerKey}`);
    await expectLookAlikesUntouched();
  });

  it('the fixture set stays unless --fixtures; --fixtures removes or closes it and nothing else', async () => {
    const again = await erpcert(['cleanup', '--tag', TAG, ...common], work);
    // the run's item is closed, not gone: it still carries the tag, so the tag matches; the fixtures are not touched
    expect(again.code).toBe(0);
    expect((await readRecord(t, 'INVc', run.fixtureItem!.key))?.Terminated).not.toBe('1');
    expect(await readRecord(t, 'CUVc', run.fixtureContact!.key)).toBeDefined();
    const r = await erpcert(['cleanup', '--fixtures', '--out', join(work, 'fixtures'), ...common], work);
    expect(r.code).toBe(0);
    expect((await readRecord(t, 'INVc', run.fixtureItem!.key))?.Terminated).toBe('1');
    expect(await readRecord(t, 'CUVc', run.fixtureContact!.key)).toBeUndefined();
    await expectLookAlikesUntouched();
  });
});
