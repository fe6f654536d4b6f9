import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { erpcertVersion, Masker } from '@erpcert/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from '../load/run-load.js';
import { sampleLoadRun } from '../load/testing.js';
import { writeLoadReports } from '../load/write-load-reports.js';
import { main } from '../main.js';
import { parseArgs } from '../options.js';
import { sampleResults } from '../reports/testing.js';
import { writeReports } from '../reports/write-reports.js';
import { load as loadCommand } from './load.js';

const root = mkdtempSync(join(tmpdir(), 'erpcert-index-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function sink() {
  const stream = new PassThrough();
  const seen = { text: '' };
  stream.on('data', (d) => {
    seen.text += d;
  });
  return { stream, seen };
}

async function report(args: string[], cwd = root) {
  const out = sink();
  const err = sink();
  const code = await main(['report', ...args], { out: out.stream, err: err.stream, env: {}, cwd });
  return { code, stdout: out.seen.text, stderr: err.seen.text };
}

/** A port nothing listens on: one the system gave and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The rows of index.html by folder name: kind, outcome, date, target and verdicts. */
function rows(html: string) {
  return [
    ...html.matchAll(
      /<tr data-kind="(\w+)" data-outcome="(\w+)"><td>([^<]*)<\/td><td>\w+<\/td><td><code>([^<]*)<\/code><\/td><td>.*?<\/td><td>([^<]*)<\/td><td><a href="[^"]*">([^<]*)<\/a><\/td><\/tr>/g,
    ),
  ].map((m) => ({ kind: m[1], outcome: m[2], date: m[3], target: m[4], summary: m[5], name: m[6] }));
}

describe('erpcert report', () => {
  const reports = join(root, 'reports');
  const conformance = (name: string) => join(reports, 'conformance', name);
  const loadDir = (name: string) => join(reports, 'load', name);
  const older = sampleResults();
  const newer = sampleResults({ events: [{ type: 'run-end', at: 'x', reason: 'passed', errors: [] }] });
  const masked = { docsBase: '', masker: new Masker() };

  beforeAll(async () => {
    writeReports(older, conformance('2025-03-01T10-00-00Z'), masked);
    writeReports(
      { ...newer, run: { ...newer.run, startedAt: '2025-03-02T08:00:00.000Z', shard: '2/3' } },
      conformance('2025-03-02T08-00-00Z'),
      masked,
    );
    // a conformance run of an older erpcert: results schema version 2
    writeReports(
      { ...older, tool: { name: 'erpcert', version: '0.0.9' }, schemaVersion: 2 as unknown as 3 },
      conformance('older-erpcert'),
      masked,
    );
    mkdirSync(conformance('broken'), { recursive: true });
    writeFileSync(join(conformance('broken'), 'results.json'), '{ not json');

    // load runs as erpcert load writes them: the writer over the sample scenarios ...
    writeLoadReports(sampleLoadRun(), loadDir('2026-01-02T03-04-05Z'));
    // ... the same run as a later erpcert wrote it, in the same schema ...
    writeLoadReports(
      { ...sampleLoadRun({ startedAt: '2026-01-03T00:00:00.000Z' }), tool: { name: 'erpcert', version: '9.1.0' } },
      loadDir('later-same-schema'),
    );
    // ... and a whole run of erpcert load against a target that is not there (exit 2, no scenario)
    const url = `http://127.0.0.1:${await closedPort()}`;
    const args = ['--target', url, '--engine', 'autocannon', '--scenario', 'invoices', '--out', loadDir('unreachable')];
    const io = { out: sink().stream, err: sink().stream, env: {}, cwd: root };
    expect(await runLoad(parseArgs('load', loadCommand.flags, args, {}, root).values, io, { signals: false })).toBe(2);

    // not readable: another erpcert's schema, a document that breaks the schema, and one of guessed keys
    const laterSchema: Record<string, unknown> = { ...structuredClone(sampleLoadRun()) };
    Object.assign(laterSchema, { schema: 'erpcert-load-results/2', tool: { name: 'erpcert', version: '9.0.0' } });
    mkdirSync(loadDir('later-schema'), { recursive: true });
    writeFileSync(join(loadDir('later-schema'), 'results.json'), JSON.stringify(laterSchema));
    mkdirSync(loadDir('schema-invalid'), { recursive: true });
    writeFileSync(
      join(loadDir('schema-invalid'), 'results.json'),
      JSON.stringify({ ...sampleLoadRun(), scenarios: 'none' }),
    );
    mkdirSync(loadDir('guessed-keys'), { recursive: true });
    writeFileSync(
      join(loadDir('guessed-keys'), 'results.json'),
      JSON.stringify({ startedAt: '2025-03-01T12:00:00.000Z', verdicts: [{ scenario: 'read', pass: true }] }),
    );
  }, 60_000);

  it('lists every run newest first with date, target and verdicts, read through its schema', async () => {
    const r = await report([]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(join(reports, 'index.html'));
    const html = readFileSync(join(reports, 'index.html'), 'utf8');
    const listed = rows(html);
    expect(listed.map((x) => x.name).sort()).toEqual(
      [
        '2025-03-01T10-00-00Z',
        '2025-03-02T08-00-00Z',
        'older-erpcert',
        'broken',
        '2026-01-02T03-04-05Z',
        'later-same-schema',
        'unreachable',
        'later-schema',
        'schema-invalid',
        'guessed-keys',
      ].sort(),
    );
    const row = (name: string) => listed.find((x) => x.name === name)!;
    expect(row('2025-03-02T08-00-00Z')).toMatchObject({
      kind: 'conformance',
      outcome: 'pass',
      date: '2025-03-02T08:00:00.000Z',
      target: 'https://erp.example.com',
      summary: '0 PASS, 0 FAIL, 0 ERROR, 0 WARN, 0 SKIP (full, shard 2/3)',
    });
    expect(row('2025-03-01T10-00-00Z')).toMatchObject({
      outcome: 'fail',
      summary: '1 PASS, 1 FAIL, 1 ERROR, 1 WARN, 1 SKIP (full)',
    });
    const sample = sampleLoadRun();
    expect(row('2026-01-02T03-04-05Z')).toMatchObject({
      kind: 'load',
      outcome: sample.run.outcome,
      date: sample.run.startedAt,
      target: sample.run.target.url,
      summary: '6 scenario(s): 3 pass, 1 fail, 2 info (autocannon)',
    });
    expect(row('later-same-schema').summary).toBe(
      '6 scenario(s): 3 pass, 1 fail, 2 info (autocannon) (written by erpcert 9.1.0)',
    );
    expect(row('unreachable')).toMatchObject({
      kind: 'load',
      outcome: 'error',
      target: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      summary: '0 scenario(s): 0 pass, 0 fail, 0 info (autocannon)',
    });
    // the dated runs newest first
    const dated = listed.filter((x) => x.outcome !== 'unknown').map((x) => x.date);
    expect(dated).toEqual([...dated].sort().reverse());
    expect(html).toContain('<a href="conformance/2025-03-01T10-00-00Z/report.html">');
    expect(html).toContain('<a href="load/2026-01-02T03-04-05Z/report.html">');
  });

  it('a run this erpcert cannot read is listed as written by another version, or as not readable, never guessed', async () => {
    expect((await report([])).code).toBe(0);
    const listed = rows(readFileSync(join(reports, 'index.html'), 'utf8'));
    const row = (name: string) => listed.find((x) => x.name === name)!;
    const current = erpcertVersion();
    expect(row('older-erpcert')).toMatchObject({
      outcome: 'unknown',
      target: 'unknown',
      summary: `written by erpcert 0.0.9: results schema version 2; this erpcert (${current}) reads version 3`,
    });
    expect(row('later-schema')).toMatchObject({
      outcome: 'unknown',
      target: 'unknown',
      summary:
        'written by erpcert 9.0.0: results.json is not a load run (schema &quot;erpcert-load-results/2&quot;, want erpcert-load-results/1)',
    });
    expect(row('schema-invalid')).toMatchObject({ outcome: 'unknown', target: 'unknown' });
    expect(row('schema-invalid').summary).toMatch(
      /^not readable: results\.json does not match load-results\.schema\.json: \/scenarios must be array/,
    );
    expect(row('guessed-keys')).toMatchObject({
      outcome: 'unknown',
      summary: 'not readable: results.json is not a load run (schema undefined, want erpcert-load-results/1)',
    });
    expect(row('guessed-keys').date).not.toBe('2025-03-01T12:00:00.000Z');
    expect(row('broken').summary).toMatch(/^not readable: results\.json is not valid JSON/);
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
