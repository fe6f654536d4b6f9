import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Masker } from '@erpcert/client';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { sampleResults } from '../reports/testing.js';
import { writeReports } from '../reports/write-reports.js';

const root = mkdtempSync(join(tmpdir(), 'erpcert-index-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function report(args: string[], cwd = root) {
  const out = new PassThrough();
  const err = new PassThrough();
  let o = '';
  let e = '';
  out.on('data', (d) => {
    o += d;
  });
  err.on('data', (d) => {
    e += d;
  });
  const code = await main(['report', ...args], { out, err, env: {}, cwd });
  return { code, stdout: o, stderr: e };
}

describe('erpcert report', () => {
  const reports = join(root, 'reports');
  const older = sampleResults();
  const newer = sampleResults({ events: [{ type: 'run-end', at: 'x', reason: 'passed', errors: [] }] });
  writeReports(older, join(reports, 'conformance', '2025-03-01T10-00-00Z'), { docsBase: '', masker: new Masker() });
  writeReports(
    { ...newer, run: { ...newer.run, startedAt: '2025-03-02T08:00:00.000Z', shard: '2/3' } },
    join(reports, 'conformance', '2025-03-02T08-00-00Z'),
    {
      docsBase: '',
      masker: new Masker(),
    },
  );
  const load = join(reports, 'load', '2025-03-01T12-00-00Z');
  mkdirSync(load, { recursive: true });
  writeFileSync(
    join(load, 'results.json'),
    JSON.stringify({
      startedAt: '2025-03-01T12:00:00.000Z',
      target: 'http://127.0.0.1:8080',
      verdicts: [
        { scenario: 'read', pass: true },
        { scenario: 'write', verdict: 'fail' },
      ],
    }),
  );
  mkdirSync(join(reports, 'conformance', 'broken'), { recursive: true });
  writeFileSync(join(reports, 'conformance', 'broken', 'results.json'), '{ not json');

  it('lists every run newest first with date, target and verdicts, linked to its report', async () => {
    const r = await report([]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(join(reports, 'index.html'));
    const html = readFileSync(join(reports, 'index.html'), 'utf8');
    const rows = [...html.matchAll(/<tr data-kind="(\w+)" data-outcome="(\w+)"><td>([^<]*)<\/td>/g)].map((m) => [
      m[1],
      m[2],
      m[3],
    ]);
    // the unreadable run is dated by its folder, made just now: the newest
    expect(rows[0]!.slice(0, 2)).toEqual(['conformance', 'unknown']);
    expect(rows.slice(1)).toEqual([
      ['conformance', 'pass', '2025-03-02T08:00:00.000Z'],
      ['load', 'fail', '2025-03-01T12:00:00.000Z'],
      ['conformance', 'fail', '2025-03-01T10:00:00.000Z'],
    ]);
    expect(html).toContain('1 PASS, 1 FAIL, 1 ERROR, 1 WARN, 1 SKIP (full)');
    expect(html).toContain('0 PASS, 0 FAIL, 0 ERROR, 0 WARN, 0 SKIP (full, shard 2/3)');
    expect(html).toContain('1 scenario verdict(s) pass, 1 fail');
    expect(html).toContain('no readable results.json');
    expect(html).toContain('<a href="conformance/2025-03-01T10-00-00Z/report.html">');
  });

  it('takes the folder as an argument', async () => {
    const r = await report([reports], '/');
    expect(r.code).toBe(0);
  });

  it('a missing folder exits 2 and says what to do', async () => {
    const r = await report([join(root, 'nope')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('run erpcert conform or erpcert load first');
  });
});
