/**
 * End to end (issue 5 "Done means"): the whole suite, default options, against the embedded reference
 * server and against a separately started `erpcert serve --port 0 --user U --password W`: zero FAILs, the
 * four report files, results.json valid against its schema, junit.xml well-formed, no password anywhere.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { repoRoot } from '@erpcert/contract';
import type { ResultsDocument } from '@erpcert/runs';
import { validateResults } from '@erpcert/runs';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { filesContaining, xmlWellFormed } from '../reports/testing.js';

const work = mkdtempSync(join(tmpdir(), 'erpcert-e2e-'));
const bin = join(repoRoot, 'packages', 'cli', 'bin', 'erpcert.mjs');
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function conform(args: string[], out: string) {
  const o = new PassThrough();
  const e = new PassThrough();
  let stdout = '';
  let stderr = '';
  o.on('data', (d) => {
    stdout += d;
  });
  e.on('data', (d) => {
    stderr += d;
  });
  const code = await main(['conform', ...args, '--out', out], { out: o, err: e, env: {}, cwd: work });
  const doc = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsDocument;
  return { code, doc, stdout, stderr };
}

function expectCompleteReport(out: string, doc: ResultsDocument, secrets: string[]) {
  for (const f of ['junit.xml', 'results.json', 'summary.md', 'report.html'])
    expect(existsSync(join(out, f)), f).toBe(true);
  expect(validateResults(doc).errors).toEqual([]);
  expect(xmlWellFormed(readFileSync(join(out, 'junit.xml'), 'utf8'))).toBe(true);
  expect(doc.failures.map((f) => `${f.rules.join(',')}: ${f.message}`)).toEqual([]);
  expect(doc.problems).toEqual([]);
  expect(doc.totals.PASS).toBeGreaterThan(0);
  expect(filesContaining(out, secrets)).toEqual([]);
}

describe('erpcert conform, whole suite, default options', () => {
  it('against the embedded reference server: exit 0, zero FAILs, four report files', async () => {
    const out = join(work, 'embedded');
    const r = await conform([], out);
    expect(r.stderr).toContain('no --target: running against the embedded reference server');
    expectCompleteReport(out, r.doc, []);
    expect(r.code).toBe(0);
    expect(r.doc.run.target.embedded).toBe(true);
  }, 600_000);

  it('against a separately started erpcert serve with its own user and password: exit 0', async () => {
    const user = 'e2e-ci';
    const password = 'pw-E2e-7f3!';
    const serve: ChildProcess = spawn(
      process.execPath,
      [bin, 'serve', '--port', '0', '--user', user, '--password', password],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    try {
      // the first stdout line is the base URL, printed once the server accepts requests
      const url = await new Promise<string>((resolve, reject) => {
        const lines = createInterface({ input: serve.stdout! });
        lines.once('line', resolve);
        serve.once('exit', (code) => reject(new Error(`erpcert serve exited with ${code} before printing its URL`)));
      });
      const out = join(work, 'served');
      const r = await conform(['--target', url, '--user', user, '--password', password], out);
      expectCompleteReport(out, r.doc, [password, Buffer.from(`${user}:${password}`).toString('base64')]);
      expect(r.code).toBe(0);
      expect(r.doc.run.target).toMatchObject({ url, embedded: false, user });
      expect(`${r.stdout}${r.stderr}`).not.toContain(password);
    } finally {
      serve.kill('SIGTERM');
      await new Promise((resolve) => (serve.exitCode !== null ? resolve(null) : serve.once('exit', resolve)));
    }
  }, 600_000);

  it('Ctrl-C (SIGINT) in the middle: tests stop, the ledger is cleaned up, the reports say so, exit 2', async () => {
    const out = join(work, 'interrupted');
    const child = spawn(process.execPath, [bin, 'conform', '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (d) => {
        stderr += d;
        // the run has started once the first test file has finished
        if (/^ {2}\S+ +properties\//m.test(stderr)) resolve();
      });
      child.once('exit', () => reject(new Error(`conform ended before it could be interrupted:\n${stderr}`)));
    });
    child.kill('SIGINT');
    expect(await exited).toBe(2);
    expect(stderr).toContain('SIGINT: stopping the tests, then cleaning up and writing what is known');
    const doc = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsDocument;
    expect(doc.run).toMatchObject({ interrupted: true, outcome: 'error', exitCode: 2 });
    const c = doc.cleanup;
    expect(c.deleted + c.alreadyGone + c.residue.length).toBe(c.ledgerEntries);
    expect(validateResults(doc).errors).toEqual([]);
  }, 600_000);
});
