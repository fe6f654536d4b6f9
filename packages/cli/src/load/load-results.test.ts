import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoadRunReadError, readLoadRun, validateLoadResults } from '@erpcert/runs';
import { afterAll, describe, expect, it } from 'vitest';
import { runMasker } from '../reports/secrets.js';
import { sampleLoadRun } from './testing.js';
import { writeLoadReports } from './write-load-reports.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests break a parsed JSON fixture in place
type JsonFixture = Record<string, any>;

const dir = mkdtempSync(join(tmpdir(), 'erpcert-load-results-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('results.json and load-results.schema.json', () => {
  it('the sample run matches the schema', () => {
    expect(validateLoadResults(sampleLoadRun())).toEqual({ valid: true, errors: [] });
  });

  const broken: [string, (doc: JsonFixture) => void, string][] = [
    ['a verdict the schema does not know', (d) => (d.scenarios[0].verdict = 'ok'), '/scenarios/0/verdict'],
    ['a missing latency percentile', (d) => delete d.scenarios[1].latencyMs.p99, '/scenarios/1/latencyMs'],
    ['a negative p95', (d) => (d.scenarios[1].latencyMs.p95 = -1), '/scenarios/1/latencyMs/p95'],
    ['an unknown scenario', (d) => (d.scenarios[2].scenario = 'deletes'), '/scenarios/2/scenario'],
    ['an exit code outside 0-2', (d) => (d.run.exitCode = 3), '/run/exitCode'],
    ['a wrong schema id', (d) => (d.schema = 'erpcert-load-results/2'), '/schema'],
    ['a saturation step without p99', (d) => delete d.scenarios[0].saturation[0].p99, '/scenarios/0/saturation/0'],
    ['a negative ratio', (d) => (d.scenarios[0].comparison.ratio = -1), '/scenarios/0/comparison/ratio'],
    [
      'a limitedBy the schema does not know',
      (d) => (d.scenarios[0].saturationVerdict.limitedBy = 'network'),
      '/scenarios/0/saturationVerdict/limitedBy',
    ],
    [
      'a saturation verdict without evidence',
      (d) => delete d.scenarios[1].saturationVerdict.evidence,
      '/scenarios/1/saturationVerdict',
    ],
  ];
  it.each(broken)('refuses %s', (_name, breakIt, where) => {
    const doc = structuredClone(sampleLoadRun()) as JsonFixture;
    breakIt(doc);
    const check = validateLoadResults(doc);
    expect(check.valid).toBe(false);
    expect(check.errors.join('\n')).toContain(where);
  });

  it('writes the three files, and readLoadRun reads results.json back', () => {
    const out = join(dir, 'run-1');
    const written = writeLoadReports(sampleLoadRun(), out);
    expect(written.schemaErrors).toEqual([]);
    expect(readFileSync(written.summary, 'utf8')).toContain('| invoices | 3 to 4 per second |');
    expect(readFileSync(written.html, 'utf8')).toContain('<svg class="saturation-chart" data-scenario="invoices"');
    const back = readLoadRun(out);
    expect(back.scenarios.map((s) => [s.scenario, s.verdict])).toEqual([
      ['invoices', 'fail'],
      ['transactions', 'pass'],
      ['read-raw', 'pass'],
      ['read-fields', 'pass'],
      ['sync', 'info'],
      ['portal-mix', 'info'],
    ]);
  });

  it('says what limited each saturation run, with the evidence and what to do, in all three files', () => {
    const out = join(dir, 'run-limited');
    const written = writeLoadReports(sampleLoadRun(), out);
    const json = JSON.parse(readFileSync(written.results, 'utf8'));
    expect(json.scenarios[0].saturationVerdict).toMatchObject({ limitedBy: 'generator', verdict: 'pass' });
    expect(json.scenarios[0].saturationVerdict.advice).toContain('second machine');
    expect(json.scenarios[1].saturationVerdict).toMatchObject({ limitedBy: 'target' });
    expect(json.scenarios[1].saturationVerdict.advice).toBeUndefined();
    const md = readFileSync(written.summary, 'utf8');
    expect(md).toContain('**Limited by: generator** (the load generator was the limit');
    expect(md).toContain('Evidence: at 232/s the generator was the limit');
    expect(md).toContain('What to do: the knee is the load generator');
    expect(md).toContain('**Limited by: target**');
    // the steps table: the generator's CPU beside the whole machine's, where it was measured
    expect(md).toContain('| Generator CPU | Target CPU | Machine CPU busy |');
    expect(md).toContain('| 0.98 of 1 | 0.71 | 1.96 of 2 |');
    // a step whose target CPU was not measured shows a dash, not a zero
    expect(md).toContain('| 0.61 of 1 | - | 1.42 of 2 |');
    const html = readFileSync(written.html, 'utf8');
    expect(html).toContain('<td>1.96 of 2</td>');
    expect(html).toContain('<td>0.71</td>');
    expect(html).toContain('<g class="limited-by" data-limited-by="generator">');
    expect(html).toContain('>limited by generator</text>');
    expect(html).toContain('<p class="advice"><strong>What to do:</strong>');
    expect(html).toContain('<g class="limited-by" data-limited-by="target">');
  });

  it('masks secrets in every file it writes', () => {
    const out = join(dir, 'run-secret');
    const doc = sampleLoadRun({ command: 'erpcert load --password s3cret-Pw' });
    const written = writeLoadReports(doc, out, runMasker('ci', 's3cret-Pw'));
    for (const f of [written.results, written.summary, written.html]) {
      expect(readFileSync(f, 'utf8')).not.toContain('s3cret-Pw');
      expect(readFileSync(f, 'utf8')).toContain('***');
    }
  });

  it('shows p95 beside p50, p90 and p99 in summary.md and report.html', () => {
    const written = writeLoadReports(sampleLoadRun(), join(dir, 'run-p95'));
    const md = readFileSync(written.summary, 'utf8');
    expect(md).toContain('| Scenario | Requests | p50 ms | p90 ms | p95 ms | p99 ms | max ms |');
    expect(md).toContain('| transactions | 100 | 6 | 11 | 14 | 19 | 25 |');
    const html = readFileSync(written.html, 'utf8');
    expect(html).toContain('<th class="n">p95 ms</th>');
    expect(html).toContain(
      '<tr data-scenario="transactions"><td>transactions</td><td class="n">100</td><td class="n">6</td><td class="n">11</td><td class="n">14</td><td class="n">19</td>',
    );
  });

  it('reads a run of an erpcert that did not measure p95: valid, and its p95 is "not recorded", never 0', () => {
    const older = structuredClone(sampleLoadRun()) as JsonFixture;
    for (const s of older.scenarios) delete s.latencyMs.p95;
    expect(validateLoadResults(older)).toEqual({ valid: true, errors: [] });
    const out = join(dir, 'run-before-p95');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'results.json'), JSON.stringify(older));
    const back = readLoadRun(out);
    expect(back.scenarios[1]!.latencyMs.p95).toBeUndefined();
    const written = writeLoadReports(back, join(dir, 'run-before-p95-again'));
    const md = readFileSync(written.summary, 'utf8');
    expect(md).toContain('| transactions | 100 | 6 | 11 | not recorded | 19 | 25 |');
    expect(md).not.toMatch(/\| transactions \| 100 \| 6 \| 11 \| 0 \|/);
    expect(readFileSync(written.html, 'utf8')).toContain('<td class="n">11</td><td class="n">not recorded</td>');
  });

  it('readLoadRun refuses a folder without results.json, a conformance run and a broken document', () => {
    expect(() => readLoadRun(join(dir, 'nothing-here'))).toThrow(LoadRunReadError);
    const conf = join(dir, 'conformance-run');
    mkdirSync(conf, { recursive: true });
    writeFileSync(join(conf, 'results.json'), JSON.stringify({ run: { startedAt: 'x' }, rules: [] }));
    expect(() => readLoadRun(conf)).toThrow(/not a load run/);
    const bad = join(dir, 'bad-run');
    mkdirSync(bad, { recursive: true });
    writeFileSync(join(bad, 'results.json'), JSON.stringify({ ...sampleLoadRun(), scenarios: 'none' }));
    expect(() => readLoadRun(bad)).toThrow(/does not match load-results.schema.json/);
  });
});
