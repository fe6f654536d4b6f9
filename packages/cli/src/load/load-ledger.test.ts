import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@erpcert/refserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes, createForm, type TestTarget } from '../cleanup/testing.js';
import { readLedger } from '../reports/runner.js';
import { writeLoadLedger } from './load-ledger.js';

const TAG = 'erpcert-load-0a1b2c3d';
const work = mkdtempSync(join(tmpdir(), 'erpcert-load-ledger-'));
let server: RunningServer;
let t: TestTarget;
const mine: string[] = [];

beforeAll(async () => {
  server = await startServer({ port: 0, seed: 100, log: () => {} });
  t = { url: server.url, user: 'erpcert', password: 'erpcert' };
  const [customer] = await codes(t, 'CUVc', 'Code', 1);
  const [item] = await codes(t, 'INVc', 'Code', 1);
  const [debit, credit] = await codes(t, 'AccVc', 'AccNumber', 2);
  const invoice = (spec: string) =>
    createForm(t, 'IVVc', { CustCode: customer!, OKFlag: '1' }, [{ ArtCode: item!, Quant: '1', Spec: spec }]);
  const journal = (comment: string) =>
    createForm(t, 'TRVc', {}, [
      { AccNumber: debit!, DebVal: '1.00', Comment: comment },
      { AccNumber: credit!, CredVal: '1.00', Comment: comment },
    ]);
  // autocannon's tags (`<tag>-<n>`, saturation `<tag>-s<step>-<n>`) and k6's (`erpcert load <tag>[ <token>]`)
  mine.push(`IVVc ${await invoice(`${TAG}-1`)}`, `IVVc ${await invoice(`${TAG}-s2-7`)}`);
  mine.push(`IVVc ${await invoice(`erpcert load ${TAG}`)}`);
  mine.push(`TRVc ${await journal(`${TAG}-3`)}`, `TRVc ${await journal(`erpcert load ${TAG}`)}`);
  await createForm(t, 'ObjVc', { Code: 'LK3X9A0', Comment: `erpcert load ${TAG} k3x9a` });
  mine.push('ObjVc LK3X9A0');
  // another run's records
  await invoice('erpcert-load-0a1b2c3e-1');
  await journal('erpcert load erpcert-load-0a1b2c3');
  await createForm(t, 'ObjVc', { Code: 'LK3X9A1', Comment: `erpcert load ${TAG}0 k3x9a` });
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

const run = () => ({
  target: t.url,
  user: t.user,
  password: t.password,
  compcode: 1,
  companyIn: 'query' as const,
  runId: TAG,
});

describe('writeLoadLedger', () => {
  it('lists the records of both engines that carry the run tag, with the tag, in the ledger format', async () => {
    const outDir = join(work, 'all');
    const said: string[] = [];
    const problems: string[] = [];
    const scenarios = ['invoices', 'transactions', 'sync', 'read-raw'];
    await writeLoadLedger(run(), {
      embedded: false,
      scenarios,
      outDir,
      say: (l) => said.push(l),
      problems,
      pauseMs: 0,
    });
    const { entries, problems: unreadable } = readLedger(join(outDir, 'ledger.jsonl'));
    expect(unreadable).toEqual([]);
    expect(problems).toEqual([]);
    expect(entries.map((e) => `${e.register} ${e.key}`).sort()).toEqual([...mine].sort());
    expect(entries.every((e) => e.tag === TAG && e.company === 1)).toBe(true);
    expect(said.join('\n')).toContain(`run tag ${TAG}: ${mine.length} record(s)`);
  });

  it('reads only the registers the scenarios write into', async () => {
    const outDir = join(work, 'invoices');
    await writeLoadLedger(run(), {
      embedded: false,
      scenarios: ['invoices'],
      outDir,
      say: () => {},
      problems: [],
      pauseMs: 0,
    });
    const { entries } = readLedger(join(outDir, 'ledger.jsonl'));
    expect(entries.map((e) => e.register)).toEqual(['IVVc', 'IVVc', 'IVVc']);
  });

  it('no ledger for the embedded server; a target that cannot be read is a problem, not a crash', async () => {
    const embedded = join(work, 'embedded');
    await writeLoadLedger(run(), {
      embedded: true,
      scenarios: ['invoices'],
      outDir: embedded,
      say: () => {},
      problems: [],
    });
    expect(existsSync(join(embedded, 'ledger.jsonl'))).toBe(false);
    const problems: string[] = [];
    const dead = join(work, 'dead');
    await writeLoadLedger(
      { ...run(), target: 'http://127.0.0.1:9', timeoutMs: 2000 },
      { embedded: false, scenarios: ['invoices'], outDir: dead, say: () => {}, problems },
    );
    expect(problems).toEqual([expect.stringContaining(`erpcert cleanup --tag ${TAG}`)]);
    expect(existsSync(join(dead, 'ledger.jsonl'))).toBe(false);
  });
});
