/**
 * End to end (issue 11 §1 and §3): three whole-suite runs against one `erpcert serve --db FILE` leave no more
 * records than one run does. The first run creates the fixture set; later runs reuse it, repair what a person
 * changed, and add nothing. A readonly run with another fixture prefix creates nothing and skips what needs it.
 * Records are counted over every register of the table through `/api/1/<register>`. Runs use `--runs 1` to keep
 * the test affordable: every test of the suite runs, each property fewer times.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { registers, repoRoot } from '@erpcert/contract';
import type { ResultsDocument } from '@erpcert/runs';
import { validateResults } from '@erpcert/runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { DEFAULT_FIXTURE_PREFIX, FIXTURE_SETS } from '../reports/runner.js';

const work = mkdtempSync(join(tmpdir(), 'erpcert-fixtures-e2e-'));
const bin = join(repoRoot, 'packages', 'cli', 'bin', 'erpcert.mjs');
const auth = `Basic ${Buffer.from('erpcert:erpcert').toString('base64')}`;
let serve: ChildProcess;
let url = '';

beforeAll(async () => {
  serve = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', join(work, 'erp.sqlite')], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: serve.stdout! }).once('line', resolve);
    serve.once('exit', (code) => reject(new Error(`erpcert serve exited with ${code} before printing its URL`)));
  });
}, 120_000);

afterAll(async () => {
  serve.kill('SIGTERM');
  await new Promise((resolve) => (serve.exitCode !== null ? resolve(null) : serve.once('exit', resolve)));
  rmSync(work, { recursive: true, force: true });
});

async function conform(args: string[], out: string): Promise<{ code: number; doc: ResultsDocument }> {
  const sink = new PassThrough();
  let text = '';
  sink.on('data', (d) => {
    text += d;
  });
  const login = ['--user', 'erpcert', '--password', 'erpcert'];
  const code = await main(['conform', '--target', url, ...login, '--out', out, ...args], {
    out: sink,
    err: sink,
    env: {},
    cwd: work,
  });
  expect(existsSync(join(out, 'results.json')), text).toBe(true);
  const doc = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsDocument;
  expect(validateResults(doc).errors).toEqual([]);
  return { code, doc };
}

async function get(path: string): Promise<unknown> {
  const res = await fetch(`${url}${path}`, { headers: { authorization: auth, accept: 'application/json' } });
  expect(res.status, path).toBe(200);
  return res.json();
}

/** Records per register of the table, through `/api/1/<register>`. */
async function countRecords(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const r of registers) {
    const body = (await get(`/api/1/${r.name}?limit=100000`)) as { data: Record<string, unknown> };
    const list = body.data[r.name];
    counts[r.name] = Array.isArray(list) ? list.length : 0;
  }
  return counts;
}

/** Registers whose count changed, and by how much. */
function grown(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after).flatMap(([r, n]) => (n !== (before[r] ?? 0) ? [[r, n - (before[r] ?? 0)]] : [])),
  );
}

/** The fixture records per register. */
const fixtureRecords: Record<string, number> = {};
for (const s of FIXTURE_SETS) fixtureRecords[s.register] = (fixtureRecords[s.register] ?? 0) + s.count;

describe('three full runs against one erpcert serve --db', () => {
  it('leave no more records than one run; the fixture set is created once, then reused and repaired', async () => {
    const before = await countRecords();
    const first = await conform(['--runs', '1'], join(work, 'run1'));
    // the verdicts are the other e2e tests' business: here what the runs leave on the target
    expect(first.doc.run.interrupted).toBe(false);
    const afterOne = await countRecords();
    // what the first run leaves is the fixture set, nothing else
    expect(grown(before, afterOne)).toEqual(fixtureRecords);
    expect(first.doc.cleanup.residue).toEqual([]);
    expect(first.doc.fixtures).toMatchObject({
      prefix: DEFAULT_FIXTURE_PREFIX,
      sets: [{ id: 'lookup-items', status: 'complete', present: 55, created: 55, repaired: 0, missing: [] }],
    });

    // a person renames one fixture item and terminates another
    const fx = (n: number) => `${DEFAULT_FIXTURE_PREFIX}LK${String(n).padStart(2, '0')}`;
    for (const [code, body] of [
      [fx(7), 'set_field.Name=renamed%20by%20a%20person'],
      [fx(8), 'set_field.Terminated=1'],
    ] as const) {
      const res = await fetch(`${url}/api/1/INVc/${code}`, {
        method: 'PATCH',
        headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        body,
      });
      expect(res.status).toBe(200);
    }

    const second = await conform(['--runs', '1'], join(work, 'run2'));
    expect(second.doc.fixtures?.sets[0]).toMatchObject({ status: 'complete', created: 0, repaired: 2 });
    const repaired = (await get(`/api/1/INVc?filter.Code=${fx(7)}`)) as { data: { INVc: Record<string, string>[] } };
    expect(repaired.data.INVc[0]?.Name).toBe(`${DEFAULT_FIXTURE_PREFIX}LK erpcert lookup fixture 07`);

    const third = await conform(['--runs', '1'], join(work, 'run3'));
    expect(third.doc.fixtures?.sets[0]).toMatchObject({ status: 'complete', created: 0, repaired: 0 });
    expect(grown(afterOne, await countRecords())).toEqual({});
  }, 900_000);

  it('readonly with a prefix the target lacks: nothing created, the lookup paging rule SKIPs and says why', async () => {
    const before = await countRecords();
    const r = await conform(
      ['--profile', 'readonly', '--fixture-prefix', 'TEAMB-FX-', '--only', 'PORTAL.LIMITS.LOOKUP_NO_PAGINATION'],
      join(work, 'readonly'),
    );
    expect(r.code).not.toBe(2);
    expect(grown(before, await countRecords())).toEqual({});
    const cap = r.doc.rules.find((x) => x.id === 'PORTAL.LIMITS.LOOKUP_NO_PAGINATION');
    expect(cap?.verdict).toBe('SKIP');
    expect(cap?.reason).toContain('readonly profile: the fixture set TEAMB-FX-LK..');
    expect(r.doc.fixtures).toMatchObject({
      prefix: 'TEAMB-FX-',
      sets: [{ status: 'incomplete', present: 0, created: 0 }],
    });
  }, 300_000);
});
