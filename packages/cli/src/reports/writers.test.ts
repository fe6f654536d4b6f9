import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateResults } from '@erpcert/runs';
import { afterAll, describe, expect, it } from 'vitest';
import { esc } from './html.js';
import { renderJunit } from './junit.js';
import { renderReportHtml } from './report-html.js';
import { runMasker } from './secrets.js';
import { renderSummaryMd } from './summary-md.js';
import { renderSummaryTable } from './summary-table.js';
import { filesContaining, sampleEvents, sampleResults, testEvent, xmlWellFormed } from './testing.js';
import { REPORT_FILES, writeReports } from './write-reports.js';

const doc = sampleResults();

describe('renderJunit', () => {
  const xml = renderJunit(doc);
  it('is well-formed XML even with markup, control characters and ]]> in messages', () => {
    expect(xmlWellFormed(xml)).toBe(true);
  });

  it('has one testsuite per area and one testcase per judged rule', () => {
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
    expect(xml.match(/<testcase /g)).toHaveLength(5);
    expect(xml).toMatch(
      /<testsuites name="erpcert conform https:\/\/erp.example.com" tests="5" failures="1" errors="1" skipped="1"/,
    );
    expect(xml).toMatch(/<testsuite name="REST.QUERY" tests="4" failures="1" errors="1" skipped="1"/);
  });

  it.each([
    [
      'FAIL as failure with counterexample and replay',
      /<testcase classname="REST.QUERY" name="REST.QUERY.FILTER_AND: [^"]*"[^>]*>\s*<failure message="filters were ORed &lt;b&gt;&amp;&lt;\/b&gt;[^"]*" type="semantic">[^<]*Counterexample: \[\{&quot;CustCode&quot;:&quot;C&lt;1&gt;&quot;[^<]*Reproduce with: erpcert conform --user ci --only REST.QUERY.FILTER_AND --seed -1234567 --path 3:1:0/,
    ],
    [
      'SKIP as skipped with the reason',
      /name="REST.QUERY.LIMIT: [^"]*"[^>]*>\s*<skipped message="the target has no IVVc records"\/>/,
    ],
    [
      'WARN passes with the advisory',
      /name="REST.ERRORS.STATUS_CODES_NOT_SHOWN: [^"]*"[^>]*>\s*<system-out>WARN \(advisory, unspecified\): answers 200 with an error body<\/system-out>/,
    ],
    ['PASS as an empty testcase', /name="REST.QUERY.SORT_ASCENDING: [^"]*" time="0.012"\/>/],
    [
      'ERROR as error with the message, the request and replay',
      /name="REST.QUERY.RANGE_FROM_TO: [^"]*"[^>]*>\s*<error message="TransportError: list IVVc: transport timeout[^"]*" type="not judged">[^<]*Last request: curl [^<]*Reproduce with: erpcert conform --user ci --only REST.QUERY.RANGE_FROM_TO\n/,
    ],
  ])('%s', (_name, pattern) => {
    expect(xml).toMatch(pattern);
  });

  it('leaves out rules nothing judged', () => {
    expect(xml).not.toContain('REST.QUERY.OFFSET:');
  });
});

describe('renderSummaryMd', () => {
  const md = renderSummaryMd(doc);
  it('states the outcome, the totals and every area', () => {
    // the first line states coverage: documented observable rules judged, of how many (issue 18)
    expect(md.split('\n')[0]).toMatch(/^\*\*Coverage: \d+ of \d+ documented observable rules judged/);
    expect(md.split('\n')[2]).toBe('## erpcert conform: FAIL (1 rule failed, 1 rule could not be judged)');
    expect(md).toContain('| Area | Rules | PASS | FAIL | ERROR | WARN | SKIP | not judged |');
    expect(md).toContain(`| **Total** | ${doc.totals.rules} | 1 | 1 | 1 | 1 | 1 | ${doc.totals.NONE} |`);
    expect(md).toMatch(/\| REST\.ERRORS \| 3 \| 0 \| 0 \| 0 \| 1 \| 0 \| 2 \|/);
    expect(md).toContain('#### ERROR REST.QUERY.RANGE_FROM_TO: ');
  });

  it('shows each failure with a fenced replay command and the residue', () => {
    expect(md).toContain(
      '```sh\nerpcert conform --user ci --only REST.QUERY.FILTER_AND --seed -1234567 --path 3:1:0\n```',
    );
    expect(md).toContain('| PDVc | ECAB12P | 1 | left | no documented delete for PDVc and no field that closes it |');
    expect(md).toContain('3 record(s) created: 1 deleted, 0 already gone, 1 closed, 1 left behind.');
  });

  it('writes out at most 50 failures and counts the rest', () => {
    const many = Array.from({ length: 55 }, () =>
      testEvent({
        rules: ['REST.QUERY.LIMIT'],
        state: 'failed',
        verdicts: [{ rule: 'REST.QUERY.LIMIT', verdict: 'FAIL' }],
        reason: 'x',
      }),
    );
    const big = renderSummaryMd(sampleResults({ events: [...sampleEvents().slice(0, -1), ...many] }));
    expect(big.match(/^#### /gm)).toHaveLength(50);
    expect(big).toContain('... and 7 more failures and errors: see report.html or results.json.');
  });
});

describe('renderReportHtml', () => {
  const html = renderReportHtml(doc, { docsBase: '../../../docs/' });
  it.each<[string | number | null | undefined, string]>([
    ['<b>', '&lt;b&gt;'],
    ['"x" & \'y\'', '&quot;x&quot; &amp; &apos;y&apos;'],
    [42, '42'],
    [null, ''],
    [undefined, ''],
  ])('esc %j', (input, want) => {
    expect(esc(input)).toBe(want);
  });

  it('is self-contained: no scripts, no external stylesheets, images or fonts', () => {
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
    expect(html).toMatch(/^<!DOCTYPE html>/);
  });

  it('has one matrix row per rule with a link to its doc section', () => {
    expect(html.match(/<tr id="rule-/g)).toHaveLength(doc.rules.length);
    expect(html).toContain(
      '<a href="../../../docs/record-rest-api.md#query-parameters">record-rest-api.md § Query parameters</a>',
    );
  });

  it('shows ERROR in the area table and the matrix, and the observations of every rule', () => {
    expect(html).toContain('<th class="n">FAIL</th><th class="n">ERROR</th>');
    const row = html.split('\n').find((l) => l.includes('data-rule="REST.QUERY.RANGE_FROM_TO"'))!;
    expect(row).toContain('data-verdict="ERROR"');
    expect(row).toContain('<span class="v v-error">ERROR</span>');
    expect(row).toContain('<td class="n observations">2</td>');
    expect(row).toMatch(/<a href="#failure-2">error 2<\/a>/);
    expect(html).toContain(
      '<section class="failure" id="failure-2" data-rules="REST.QUERY.RANGE_FROM_TO" data-verdict="ERROR">',
    );
    expect(html.match(/<td class="n observations">/g)).toHaveLength(doc.rules.length);
  });

  it("says how many of a rule's observations were decisive where some were not (issue 28), and validates", () => {
    const rules = doc.rules.map((r) =>
      r.id === 'REST.QUERY.RANGE_FROM_TO' ? { ...r, observations: 3, decisiveObservations: 1 } : r,
    );
    const out = renderReportHtml({ ...doc, rules }, { docsBase: '../../../docs/' });
    const row = out.split('\n').find((l) => l.includes('data-rule="REST.QUERY.RANGE_FROM_TO"'))!;
    expect(row).toContain('1 of 3 observations decisive');
    expect(validateResults({ ...doc, rules })).toEqual({ valid: true, errors: [] });
  });

  it('shows the failure escaped, with exchange, curl line and replay command', () => {
    expect(html).toContain('filters were ORed &lt;b&gt;&amp;&lt;/b&gt;');
    expect(html).toContain(
      '<pre class="replay">erpcert conform --user ci --only REST.QUERY.FILTER_AND --seed -1234567 --path 3:1:0</pre>',
    );
    expect(html).toMatch(/<pre class="curl">curl -sS -i /);
    expect(html).toContain('authorization: Basic ***');
  });

  it('states target, date, versions, hash, profile, seed and residue', () => {
    for (const text of [
      'https://erp.example.com',
      '2025-03-01T10:00:00.000Z',
      'REST 1, portal 1.0.1',
      'a'.repeat(64),
      'ECAB12P',
    ]) {
      expect(html).toContain(text);
    }
    expect(html).toMatch(/<dt>Profile<\/dt><dd>full<\/dd>/);
  });
});

describe('renderSummaryTable', () => {
  it('has a line per area and a total', () => {
    const lines = renderSummaryTable(doc).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Area\s+Rules\s+PASS\s+FAIL\s+ERROR\s+WARN\s+SKIP\s+Not judged$/);
    expect(lines.at(-1)).toMatch(
      new RegExp(`^Total\\s+${doc.totals.rules}\\s+1\\s+1\\s+1\\s+1\\s+1\\s+${doc.totals.NONE}$`),
    );
    expect(lines.filter((l) => l.startsWith('REST.'))).toHaveLength(2);
  });
});

describe('writeReports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'erpcert-reports-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the four files, results.json valid against its schema, secrets masked in all of them', () => {
    const secret = 'hunter2-Secret';
    const leaky = sampleResults({ context: { errors: [`failed with ${secret}`] } });
    const written = writeReports(leaky, dir, { docsBase: '', masker: runMasker('ci', secret) });
    expect(written.files.map((f) => f.slice(dir.length + 1))).toEqual([...REPORT_FILES]);
    expect(written.schemaErrors).toEqual([]);
    expect(validateResults(JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'))).errors).toEqual([]);
    expect(filesContaining(dir, [secret])).toEqual([]);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain('failed with ***');
  });
});
