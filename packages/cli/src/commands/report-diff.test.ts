import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Masker } from '@erpcert/client';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleLoadRun } from '../load/testing.js';
import { writeLoadReports } from '../load/write-load-reports.js';
import { sampleResults, testEvent } from '../reports/testing.js';
import { writeReports } from '../reports/write-reports.js';
import { erpcert } from '../testing/run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'erpcert-diff-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const report = (args: string[]) => erpcert(['report', ...args], root);

// old: the sample (SORT_ASCENDING PASS, FILTER_AND FAIL, ...); new: FILTER_AND fixed, SORT_ASCENDING broken
const old = sampleResults();
const now = sampleResults({
  events: [
    testEvent({
      rules: ['REST.QUERY.SORT_ASCENDING'],
      state: 'failed',
      verdicts: [{ rule: 'REST.QUERY.SORT_ASCENDING', verdict: 'FAIL' }],
      reason: 'sorted descending',
    }),
    testEvent({
      rules: ['REST.QUERY.FILTER_AND'],
      state: 'passed',
      verdicts: [{ rule: 'REST.QUERY.FILTER_AND', verdict: 'PASS' }],
    }),
    { type: 'run-end', at: '2025-03-01T10:00:42.000Z', reason: 'failed', errors: [] },
  ],
});
writeReports(old, join(root, 'reports', 'old'), { docsBase: '', masker: new Masker() });
writeReports(now, join(root, 'reports', 'new'), { docsBase: '', masker: new Masker() });
writeLoadReports(sampleLoadRun(), join(root, 'load-old'));
const slower = structuredClone(sampleLoadRun());
Object.assign(slower.scenarios.find((e) => e.scenario === 'transactions')!, {
  latencyMs: { p50: 6, p90: 11, p95: 14, p99: 60, max: 80 },
  verdict: 'fail',
});
writeLoadReports(slower, join(root, 'load-new'));

describe('erpcert report diff, conformance', () => {
  it('prints the rules whose verdict changed: the new FAIL first, then the fixed', async () => {
    const r = await report(['diff', 'reports/old', 'reports/new']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('erpcert report diff: reports/old -> reports/new (conformance)');
    expect(lines[1]).toMatch(/^1 new FAIL\(s\), 1 fixed, /);
    const rows = lines.filter((l) => /^(NEW FAIL|fixed|changed) /.test(l));
    expect(rows[0]).toMatch(/^NEW FAIL\s+REST\.QUERY\.SORT_ASCENDING\s+PASS\s+FAIL$/);
    expect(rows[1]).toMatch(/^fixed\s+REST\.QUERY\.FILTER_AND\s+FAIL\s+PASS$/);
  });

  it('--md writes Markdown for a job summary; --format json is the same diff for machines', async () => {
    const r = await report(['diff', 'reports/old', 'reports/new', '--md', 'diff.md', '--format', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({
      schema: 'erpcert-report-diff/1',
      kind: 'conformance',
      newFails: ['REST.QUERY.SORT_ASCENDING'],
      fixed: ['REST.QUERY.FILTER_AND'],
      folders: { old: 'reports/old', new: 'reports/new' },
    });
    const md = readFileSync(join(root, 'diff.md'), 'utf8');
    expect(md).toContain('**New FAILs**: `REST.QUERY.SORT_ASCENDING`');
    expect(md).toContain('| NEW FAIL | REST.QUERY.SORT_ASCENDING | PASS | FAIL | sorted descending |');
    expect(md).not.toContain(root);
  });
});

describe('erpcert report diff, load', () => {
  it('prints the scenario verdict that changed and the figure that moved beyond its spread', async () => {
    const r = await report(['diff', 'load-old', 'load-new']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/transactions\s+pass\s+fail/);
    expect(r.stdout).toMatch(/transactions\s+latencyMs\.p99\s+19\s+60\s+\+215\.8 %\s+±10 %\s+worse/);
    expect(r.stdout).not.toMatch(/latencyMs\.p50/);
    expect(r.stdout).not.toMatch(/not recorded/);
  });

  it('against a folder of an erpcert that did not measure p95: p95 not recorded, never compared with 0', async () => {
    const older = JSON.parse(readFileSync(join(root, 'load-old', 'results.json'), 'utf8'));
    for (const s of older.scenarios) delete s.latencyMs.p95;
    mkdirSync(join(root, 'load-before-p95'), { recursive: true });
    writeFileSync(join(root, 'load-before-p95', 'results.json'), JSON.stringify(older));
    const r = await report(['diff', 'load-before-p95', 'load-new']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /p95 not recorded in the old run \(erpcert [^)]+ did not measure it\): not compared for invoices, /,
    );
    expect(r.stdout).toMatch(/transactions\s+latencyMs\.p99\s+19\s+60/);
    expect(r.stdout).not.toMatch(/latencyMs\.p95/);
  });
});

describe('erpcert report diff: bad input is exit 2 with a message', () => {
  mkdirSync(join(root, 'empty'), { recursive: true });
  mkdirSync(join(root, 'broken'), { recursive: true });
  writeFileSync(join(root, 'broken', 'results.json'), '{ "kind": ');
  it.each([
    [['diff', 'reports/old'], /missing NEW: usage: erpcert report diff OLD NEW \[options\]/],
    [['diff', 'reports/old', 'nowhere'], /nowhere is not a folder/],
    [['diff', 'reports/old', 'empty'], /empty holds no results\.json/],
    [['diff', 'reports/old', 'broken'], /broken\/results\.json is not valid JSON/],
    [['diff', 'reports/old', 'load-new'], /reports\/old is a conformance run and load-new a load run/],
    [['diff', 'load-old', 'load-new', '--spread', 'x'], /--spread must be a percentage/],
    [
      ['reports', '--md', 'x.md'],
      /--md is an option of "erpcert report diff OLD NEW \[options\]", not of "erpcert report"/,
    ],
    [['diff', 'a', 'b', 'c'], /unexpected argument "c": erpcert report diff takes OLD NEW/],
  ])('%j', async (args, message) => {
    const r = await report(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
