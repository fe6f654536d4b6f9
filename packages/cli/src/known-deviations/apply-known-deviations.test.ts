import { validateResults } from '@erpcert/runs';
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../reports/junit.js';
import { renderReportHtml } from '../reports/report-html.js';
import { renderSummaryMd } from '../reports/summary-md.js';
import { renderSummaryTable } from '../reports/summary-table.js';
import { sampleResults, xmlWellFormed } from '../reports/testing.js';
import { applyKnownDeviations } from './apply-known-deviations.js';
import type { KnownDeviation } from './known-deviations-file.js';

// sampleResults: SORT_ASCENDING PASS, FILTER_AND FAIL, LIMIT SKIP, RANGE_FROM_TO ERROR, STATUS_CODES_NOT_SHOWN WARN
const FAIL = 'REST.QUERY.FILTER_AND';
const ERROR = 'REST.QUERY.RANGE_FROM_TO';
const PASS = 'REST.QUERY.SORT_ASCENDING';
const SKIP = 'REST.QUERY.LIMIT';

const entry = (rule: string, more: Partial<KnownDeviation> = {}): KnownDeviation => ({
  rule,
  reason: `accepted: ${rule}`,
  expires: null,
  ticket: null,
  line: 1,
  ...more,
});
const apply = (entries: KnownDeviation[], options: { today?: string; strict?: boolean } = {}) =>
  applyKnownDeviations(
    sampleResults(),
    { file: 'erpcert-baseline.yaml', entries },
    { today: options.today ?? '2026-11-27', strict: options.strict ?? false },
  );
const verdictOf = (doc: ReturnType<typeof apply>, id: string) => doc.rules.find((r) => r.id === id)?.verdict;

describe('applyKnownDeviations', () => {
  it('without the baseline the sample run fails on a FAIL and an ERROR', () => {
    const doc = sampleResults();
    expect([doc.run.exitCode, doc.totals.FAIL, doc.totals.ERROR, doc.totals.KNOWN]).toEqual([1, 1, 1, 0]);
  });

  it('a listed FAIL is KNOWN, an unlisted ERROR still fails the run', () => {
    const doc = apply([entry(FAIL)]);
    expect(verdictOf(doc, FAIL)).toBe('KNOWN');
    expect(doc.rules.find((r) => r.id === FAIL)?.known).toEqual({
      verdict: 'FAIL',
      reason: `accepted: ${FAIL}`,
      expires: null,
      ticket: null,
    });
    expect([doc.totals.FAIL, doc.totals.ERROR, doc.totals.KNOWN]).toEqual([0, 1, 1]);
    expect([doc.run.exitCode, doc.run.outcome]).toEqual([1, 'fail']);
  });

  it('exit 0 when every FAIL and ERROR is KNOWN; KNOWN never counts as PASS', () => {
    const before = sampleResults();
    const doc = apply([entry(FAIL), entry(ERROR)]);
    expect([doc.run.exitCode, doc.run.outcome]).toEqual([0, 'pass']);
    expect(doc.totals.PASS).toBe(before.totals.PASS);
    expect(doc.totals.KNOWN).toBe(2);
    expect(doc.rules.find((r) => r.id === ERROR)?.known?.verdict).toBe('ERROR');
    expect(doc.areas.find((a) => a.area === 'REST.QUERY')?.KNOWN).toBe(2);
    expect(doc.failures.map((f) => f.known)).toEqual([true, true]);
    expect(doc.knownDeviations?.known).toEqual([FAIL, ERROR]);
  });

  it('an entry past its expiry day accepts nothing and fails the run; on its last day it still accepts', () => {
    const entries = [entry(FAIL, { expires: '2026-11-26' }), entry(ERROR)];
    const expired = apply(entries);
    expect(verdictOf(expired, FAIL)).toBe('FAIL');
    expect(expired.knownDeviations?.expired).toEqual([{ rule: FAIL, expires: '2026-11-26' }]);
    expect(expired.run.exitCode).toBe(1);
    const lastDay = apply(entries, { today: '2026-11-26' });
    expect([verdictOf(lastDay, FAIL), lastDay.run.exitCode]).toEqual(['KNOWN', 0]);
  });

  it('an expired entry fails the run even when its rule passes now', () => {
    const doc = apply([entry(FAIL), entry(ERROR), entry(PASS, { expires: '2026-01-01' })]);
    expect(doc.run.exitCode).toBe(1);
  });

  it('a listed rule that passes is fixed: exit 0, and exit 1 with --strict-baseline', () => {
    const entries = [entry(FAIL), entry(ERROR), entry(PASS), entry(SKIP)];
    const doc = apply(entries);
    expect(doc.knownDeviations?.fixed).toEqual([PASS]);
    expect(doc.knownDeviations?.unjudged).toEqual([SKIP]);
    expect(verdictOf(doc, PASS)).toBe('PASS');
    expect(doc.run.exitCode).toBe(0);
    expect(apply(entries, { strict: true }).run.exitCode).toBe(1);
  });

  it('a run that could not be completed stays exit 2', () => {
    const broken = sampleResults({ context: { errors: ['vitest could not start'] } });
    expect(broken.run.exitCode).toBe(2);
    const doc = applyKnownDeviations(
      broken,
      { file: 'b.yaml', entries: [entry(FAIL), entry(ERROR)] },
      { today: '2026-11-27', strict: false },
    );
    expect([doc.run.exitCode, doc.run.outcome]).toEqual([2, 'error']);
  });
});

describe('KNOWN in every report', () => {
  const doc = apply([entry(FAIL, { ticket: 'https://tracker.example.com/ERP-12' }), entry(ERROR), entry(PASS)]);

  it('results.json matches the schema (version 3)', () => {
    expect(doc.schemaVersion).toBe(3);
    expect(validateResults(JSON.parse(JSON.stringify(doc))).errors).toEqual([]);
    expect(validateResults(JSON.parse(JSON.stringify(sampleResults()))).errors).toEqual([]);
  });

  it('junit.xml: a KNOWN rule is <skipped> with the accepted reason, counted in skipped, not in failures', () => {
    const xml = renderJunit(doc);
    expect(xmlWellFormed(xml)).toBe(true);
    const known = xml.split('<testcase').find((t) => t.includes(`name="${FAIL}:`))!;
    expect(known).toContain(`<skipped message="KNOWN (FAIL), accepted by the baseline: accepted: ${FAIL}`);
    expect(known).toContain('https://tracker.example.com/ERP-12');
    expect(known).not.toContain('<failure');
    expect(xml).toMatch(/<testsuites [^>]*failures="0" errors="0" skipped="3"/);
  });

  it('summary.md: the KNOWN column, the known-deviations table and the fixed entry; no failure section', () => {
    const md = renderSummaryMd(doc);
    expect(md).toContain('## erpcert conform: PASS (2 known deviations)');
    expect(md).toContain('| Area | Rules | PASS | FAIL | ERROR | KNOWN | WARN | SKIP | not judged |');
    expect(md).toContain(`| ${FAIL} | FAIL | accepted: ${FAIL} |`);
    expect(md).toContain(`fixed: ${PASS} passes now: remove it from the baseline erpcert-baseline.yaml`);
    expect(md).not.toContain('### Failures and errors');
  });

  it('report.html: KNOWN badges, the section, the failures marked known', () => {
    const html = renderReportHtml(doc, { docsBase: '../docs/' });
    expect(html).toContain(`data-rule="${FAIL}" data-verdict="KNOWN"`);
    expect(html).toContain('<span class="v v-known">KNOWN</span>');
    expect(html).toContain('id="known-deviations"');
    expect(html).toMatch(/data-verdict="FAIL" data-known="true"/);
  });

  it('the terminal table has a KNOWN column only with a baseline', () => {
    expect(renderSummaryTable(doc).split('\n')[0]).toMatch(/ERROR\s+KNOWN\s+WARN/);
    expect(renderSummaryTable(sampleResults()).split('\n')[0]).not.toContain('KNOWN');
  });
});

describe('applyKnownDeviations: FAILs that follow from another (issue 28)', () => {
  // FILTER_AND FAILs in the sample; make LIMIT a FAIL that follows from it
  const withFollower = () => {
    const doc = sampleResults();
    return {
      ...doc,
      rules: doc.rules.map((r) =>
        r.id === SKIP ? { ...r, verdict: 'FAIL' as const, causedBy: [FAIL] } : { ...r, causedBy: null },
      ),
    };
  };
  const applyTo = (entries: KnownDeviation[]) =>
    applyKnownDeviations(
      withFollower(),
      { file: 'erpcert-baseline.yaml', entries },
      { today: '2026-11-27', strict: false },
    );

  it('a FAIL that follows only from a known deviation is KNOWN with it', () => {
    const doc = applyTo([entry(FAIL), entry(ERROR)]);
    expect(doc.rules.find((r) => r.id === SKIP)?.verdict).toBe('KNOWN');
    expect(doc.rules.find((r) => r.id === SKIP)?.known?.reason).toBe(
      `follows from ${FAIL} (known deviation): accepted: ${FAIL}`,
    );
    expect([doc.totals.FAIL, doc.totals.KNOWN, doc.run.exitCode]).toEqual([0, 3, 0]);
  });

  it('a follower of a cause that is not accepted stays a FAIL, counted as following', () => {
    const doc = applyTo([entry(ERROR)]);
    expect(doc.rules.find((r) => r.id === SKIP)?.verdict).toBe('FAIL');
    expect(doc.totals).toMatchObject({ FAIL: 2, following: 1 });
    expect(doc.run.exitCode).toBe(1);
    expect(validateResults(doc).errors).toEqual([]);
  });
});
