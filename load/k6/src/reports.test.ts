import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { junitXml } from '../lib/junit.js';
import { markdownReport } from '../lib/markdown.js';
import { documentedFigure } from '../lib/plan.js';
import type { K6SummaryData } from '../lib/summary-data.js';
import type { LoadScenarioResult } from '../scenarios/catalogue.js';
import { evaluateThreshold, mergeK6Summaries } from './merge-summaries.js';
import { failedResult } from './run-options.js';

const slowInvoices: LoadScenarioResult = {
  scenario: 'invoices',
  engine: 'k6',
  offeredRate: 4,
  achievedRate: 2,
  latencyMs: { p50: 480, p90: 500, p95: 505, p99: 510, max: 520 },
  requests: 20,
  errors: 0,
  droppedIterations: 20,
  durationSeconds: 10.4,
  checks: { passes: 100, fails: 0 },
  thresholds: [
    { metric: 'checks', expression: 'rate==1.0', title: 'every response check holds', ok: true },
    { metric: 'dropped_iterations', expression: 'count==0', title: 'no dropped <iteration> & "rate"', ok: false },
    { metric: 'erp_ops', expression: 'count>=30', title: 'at least 3/s', ok: false },
  ],
  verdict: 'fail',
  reason: 'achieved 2/s is below the documented 3/s; 20 iterations dropped',
};

const parseJunit = (xml: string) =>
  new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => name === 'testcase' }).parse(
    xml,
  );

describe('JUnit of a run (one testcase per threshold)', () => {
  it('is well-formed, escapes text, and fails exactly the thresholds that did not hold', () => {
    const xml = junitXml(slowInvoices);
    expect(XMLValidator.validate(xml)).toBe(true);
    const suite = parseJunit(xml).testsuites.testsuite;
    expect(suite['@tests']).toBe('3');
    expect(suite['@failures']).toBe('2');
    const failed = suite.testcase.filter((c: { failure?: unknown }) => c.failure !== undefined);
    expect(failed.map((c: { '@name': string }) => c['@name'])).toEqual([
      'dropped_iterations count==0: no dropped <iteration> & "rate"',
      'erp_ops count>=30: at least 3/s',
    ]);
  });

  it('stands one testcase for a run that left no summary', () => {
    const suite = parseJunit(junitXml(failedResult('read-raw', 'k6 was stopped', 1))).testsuites.testsuite;
    expect(suite.testcase).toHaveLength(1);
    expect(suite.testcase[0].failure['@message']).toBe('run completed did not hold');
  });
});

describe('the escapers of @erpcert/contract, bundled for k6', () => {
  it('the JUnit keeps line breaks in attributes and shows characters XML forbids as U+FFFD', () => {
    const xml = junitXml(failedResult('read-raw', 'k6 said:\nbell\u0007 <stop> & "quit"', 1));
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain(
      '<property name="reason" value="k6 said:&#10;bell\uFFFD &lt;stop&gt; &amp; &quot;quit&quot;"/>',
    );
    expect(xml).toContain('<system-out>k6 said:\nbell\uFFFD &lt;stop&gt; &amp; &quot;quit&quot;</system-out>');
  });

  it('a Markdown cell escapes backslashes, pipes and line breaks', () => {
    const md = markdownReport(
      { ...slowInvoices, thresholds: [{ metric: 'm', expression: 'count>0', title: 'a\\|b\nc', ok: true }] },
      documentedFigure('invoices'),
    );
    expect(md).toContain('| a\\\\\\|b c |');
  });
});

describe('Markdown of a run', () => {
  it('has the documented-vs-measured table with the ratio against the documented minimum', () => {
    const md = markdownReport(slowInvoices, documentedFigure('invoices'));
    expect(md).toContain('| Scenario | Documented | Measured | Ratio | Verdict |');
    expect(md).toContain('| invoices | 3 to 4/s | 2/s | 0.667 | fail |');
    expect(md).toContain('| `dropped_iterations count==0` | no dropped <iteration> & "rate" | NO |');
  });

  it('gives the latency at p50, p90, p95, p99 and max', () => {
    const md = markdownReport(slowInvoices, documentedFigure('invoices'));
    expect(md).toContain('| Latency (ms) | p50 | p90 | p95 | p99 | max |');
    expect(md).toContain('| per request | 480 | 500 | 505 | 510 | 520 |');
  });

  it('gives reads as seconds against the documented seconds (ratio > 1: faster than documented)', () => {
    const md = markdownReport(
      {
        ...failedResult('read-fields', '', 3),
        verdict: 'pass',
        read: { records: 10_000, seconds: 3.5, bytes: 4_200_000, batch: 5000, pacedSeconds: 4.6 },
        reads: [{ records: 10_000, seconds: 3.5, bytes: 4_200_000, batch: 5000, pacedSeconds: 4.6 }],
      },
      documentedFigure('read-fields'),
    );
    expect(md).toContain(
      '| read-fields | 10000 records in about 7 s | 10000 records in 3.5 s (batches of 5000) | 2 | pass |',
    );
    expect(md).toContain('| 5000 | 10000 | 3.5 | 4.6 | 4200000 |');
  });
});

describe('merging execution-segment summaries', () => {
  it.each([
    ['count>=30', { count: 30 }, true],
    ['count>=30', { count: 29 }, false],
    ['rate==1.0', { rate: 1 }, true],
    ['p(99)<2000', { 'p(99)': 2500 }, false],
    ['count==0', {}, undefined],
    ['avg<200 && max<500', { avg: 1, max: 1 }, undefined],
  ])('evaluates %s on %o as %s', (expression, values, want) => {
    expect(evaluateThreshold(expression, values)).toBe(want);
  });

  it('adds counts, recomputes rates and re-evaluates thresholds on the merged values', () => {
    const part = (ops: number, fails: number): K6SummaryData => ({
      state: { testRunDurationMs: 3000 + ops },
      metrics: {
        erp_ops: {
          type: 'counter',
          contains: 'default',
          values: { count: ops, rate: ops / 3 },
          thresholds: { 'count>=30': { ok: false } },
        },
        checks: {
          type: 'rate',
          contains: 'default',
          values: { rate: 0, passes: ops, fails },
          thresholds: { 'rate==1.0': { ok: fails === 0 } },
        },
        erp_req_duration: {
          type: 'trend',
          contains: 'time',
          values: { avg: ops, max: ops * 2, 'p(99)': ops, count: ops },
        },
      },
      root_group: { name: '', groups: [], checks: [{ name: 'ok', passes: ops, fails }] },
    });
    const merged = mergeK6Summaries([part(15, 0), part(16, 1)]);
    expect(merged.metrics.erp_ops).toEqual({
      type: 'counter',
      contains: 'default',
      values: { count: 31, rate: 15 / 3 + 16 / 3 }, // per-second rates of the parts add up
      thresholds: { 'count>=30': { ok: true } },
    });
    expect(merged.metrics.checks?.values).toEqual({ rate: 31 / 32, passes: 31, fails: 1 });
    expect(merged.metrics.checks?.thresholds).toEqual({ 'rate==1.0': { ok: false } });
    expect(merged.metrics.erp_req_duration?.values).toEqual({
      avg: (15 * 15 + 16 * 16) / 31,
      max: 32,
      'p(99)': 16,
      count: 31,
    });
    expect(merged.root_group?.checks).toEqual([{ name: 'ok', passes: 31, fails: 1 }]);
    expect(merged.state.testRunDurationMs).toBe(3016);
  });
});
