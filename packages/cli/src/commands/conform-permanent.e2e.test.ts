/**
 * End to end (issues 18 and 19, "It must leave nothing behind on staging"): the tests whose writes the documented
 * API cannot undo (registerapi registers a callback; createsigningsess makes an ErpSignSessVc session) against a
 * separately started `erpcert serve`, a target that stays: without the opt-in they SKIP and say what they would
 * leave; with `--allow-permanent-writes` they run and the report lists what they made as residue, with why.
 * Against the embedded server they run and leave no residue. Runs are kept short with `--only`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { repoRoot } from '@erpcert/contract';
import type { ResultsDocument } from '@erpcert/runs';
import { validateResults } from '@erpcert/runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';

const work = mkdtempSync(join(tmpdir(), 'erpcert-permanent-e2e-'));
const bin = join(repoRoot, 'packages', 'cli', 'bin', 'erpcert.mjs');
const ONLY = ['--only', 'PORTAL.EVENTS.REGISTERAPI,PORTAL.EVENTS.REGISTERAPI_REQUEST,PORTAL.SIGN.CREATESIGNINGSESS'];
const PERMANENT_RULES = [
  'PORTAL.EVENTS.REGISTERAPI',
  'PORTAL.EVENTS.REGISTERAPI_REQUEST',
  'PORTAL.SIGN.CREATESIGNINGSESS',
];
let serve: ChildProcess;
let url = '';

beforeAll(async () => {
  serve = spawn(process.execPath, [bin, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
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

async function conform(args: string[], out: string, env: Record<string, string> = {}) {
  const sink = new PassThrough();
  let text = '';
  sink.on('data', (d) => {
    text += d;
  });
  const code = await main(['conform', ...ONLY, '--out', out, ...args], { out: sink, err: sink, env, cwd: work });
  const doc = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsDocument;
  expect(validateResults(doc).errors).toEqual([]);
  return { code, doc, text, summary: readFileSync(join(out, 'summary.md'), 'utf8') };
}

const verdicts = (doc: ResultsDocument) =>
  Object.fromEntries(doc.rules.filter((r) => PERMANENT_RULES.includes(r.id)).map((r) => [r.id, r.verdict]));
const login = () => ['--target', url, '--user', 'erpcert', '--password', 'erpcert', '--usercode', 'ADMIN'];

describe('tests whose writes the documented API cannot undo', () => {
  it('against a target that stays, without the opt-in: they SKIP, say what they would leave, and leave nothing', async () => {
    const r = await conform(login(), join(work, 'refused'));
    expect(r.code, r.text).toBe(0);
    expect(verdicts(r.doc)).toEqual({
      'PORTAL.EVENTS.REGISTERAPI': 'SKIP',
      'PORTAL.EVENTS.REGISTERAPI_REQUEST': 'SKIP',
      'PORTAL.SIGN.CREATESIGNINGSESS': 'SKIP',
    });
    const reasons = Object.fromEntries(r.doc.rules.map((x) => [x.id, x.reason]));
    expect(reasons['PORTAL.EVENTS.REGISTERAPI']).toContain('would leave a callback registration (registerapi)');
    expect(reasons['PORTAL.SIGN.CREATESIGNINGSESS']).toContain('would leave a signing session (ErpSignSessVc');
    for (const id of PERMANENT_RULES) expect(reasons[id]).toContain('--allow-permanent-writes');
    expect(r.doc.cleanup.residue).toEqual([]);
  }, 300_000);

  it('against a target that stays, opted in (ERPCERT_ALLOW_PERMANENT_WRITES): they run; the report lists the residue', async () => {
    const r = await conform(login(), join(work, 'allowed'), { ERPCERT_ALLOW_PERMANENT_WRITES: '1' });
    expect(verdicts(r.doc)).toEqual({
      'PORTAL.EVENTS.REGISTERAPI': 'PASS',
      'PORTAL.EVENTS.REGISTERAPI_REQUEST': 'PASS',
      'PORTAL.SIGN.CREATESIGNINGSESS': 'PASS',
    });
    // the order is the order the tests ran in, which is not fixed
    const residue = [...r.doc.cleanup.residue].sort((a, b) => a.register.localeCompare(b.register));
    expect(residue.map((x) => [x.register, x.status])).toEqual([
      ['ErpSignSessVc', 'left'],
      ['registerapi', 'left'],
    ]);
    expect(residue[0]?.reason).toContain('the documented API cannot remove a signing session');
    expect(residue[1]?.reason).toContain('the documented API cannot remove a callback registration');
    expect(residue[1]?.reason).toContain(`callback registration to 127.0.0.1:9/erpcert/${r.doc.run.runTag}:`);
    expect(r.summary).toContain('the documented API cannot remove a callback registration');
    expect(r.text).toContain('2 record(s) of run');

    // erpcert cleanup of that report later: nothing to remove, the two are kept with their reasons
    const sink = new PassThrough();
    let text = '';
    sink.on('data', (d) => {
      text += d;
    });
    const code = await main(['cleanup', join(work, 'allowed'), '--password', 'erpcert'], {
      out: sink,
      err: sink,
      env: {},
      cwd: work,
    });
    expect(code, text).toBe(0);
    expect(text).toContain('0 deleted, 0 already gone, 0 closed, 2 kept');
    expect(text).toMatch(/kept +registerapi .*: callback registration .*the documented API cannot remove/);
    expect(text).toMatch(/kept +ErpSignSessVc .*: signing session of activity .*the documented API cannot remove/);
  }, 300_000);

  it('against the embedded reference server: they run, and nothing is residue (the server goes with the run)', async () => {
    const r = await conform(['--usercode', 'ADMIN'], join(work, 'embedded'));
    expect(r.code, r.text).toBe(0);
    expect(verdicts(r.doc)).toEqual({
      'PORTAL.EVENTS.REGISTERAPI': 'PASS',
      'PORTAL.EVENTS.REGISTERAPI_REQUEST': 'PASS',
      'PORTAL.SIGN.CREATESIGNINGSESS': 'PASS',
    });
    expect(r.doc.cleanup.residue).toEqual([]);
  }, 300_000);
});
