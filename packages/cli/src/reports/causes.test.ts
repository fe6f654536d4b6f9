import { describe, expect, it } from 'vitest';
import { causeGroups, causeOrder, failCountText, rootCauses } from './causes.js';
import { renderJunit } from './junit.js';
import { renderReportHtml } from './report-html.js';
import type { RunEvent } from './runner.js';
import { renderSummaryMd } from './summary-md.js';
import { renderSummaryTable } from './summary-table.js';
import { sampleResults, testEvent, xmlWellFormed } from './testing.js';

const ROWS = 'REST.WRITE.FORM_ROW_INDEX';
const CREDIT = 'REST.WRITE.CREDIT_INVOICE';
const VAT = 'REST.WRITE.PURCHASE_INVOICE_VAT';
const failing = (rule: string, through?: string[]) =>
  testEvent({
    rules: [rule],
    state: 'failed',
    verdicts: [{ rule, verdict: 'FAIL' }],
    reason: `[${rule}] broken ${rule.toLowerCase()}`,
    failure: {
      message: `[${rule}] broken ${rule.toLowerCase()}`,
      exchanges: [],
      kind: 'violation',
      rules: [rule],
      ...(through ? { through } : {}),
    },
  });
const events: RunEvent[] = [
  { type: 'run-start', at: '2025-03-01T10:00:00.000Z', files: ['f.prop.ts'] },
  failing(CREDIT, [ROWS]),
  failing(ROWS, [ROWS]),
  failing(VAT, [ROWS]),
  failing('REST.WRITE.CREATE_JSON'),
  { type: 'run-end', at: '2025-03-01T10:00:01.000Z', reason: 'failed', errors: [] },
];
const doc = sampleResults({ events, scope: 'REST.WRITE.*' });

describe('causes.ts', () => {
  it.each([
    [4, 0, '4'],
    [5, 4, '5 (1 cause, 4 following)'],
    [5, 2, '5 (3 causes, 2 following)'],
  ])('FAIL %i with %i following reads %s', (fail, following, want) => {
    expect(failCountText(fail, following)).toBe(want);
  });

  it('walks a chain of followers to its root cause', () => {
    const causedBy = (id: string) => ({ C: ['B'], B: ['A'] })[id];
    expect(rootCauses('C', causedBy)).toEqual(['A']);
    expect(rootCauses('A', causedBy)).toEqual(['A']);
  });

  it('groups followers under their cause, in catalogue order', () => {
    expect(causeGroups(doc.rules)).toEqual([{ cause: ROWS, followers: [CREDIT, VAT] }]);
  });

  it.each<[string, string, string[], string[] | null]>([
    // a row field trigger whose target read no rowindex: its row's formula FAILs through ROWINDEX
    [
      'a row trigger',
      'PORTAL.TRIGGER.ROWINDEX',
      ['PORTAL.TRIGGER.IVVC_ROW_SUM_FORMULA', 'PORTAL.TRIGGER.ORVC_RECEPY'],
      ['PORTAL.TRIGGER.ROWINDEX'],
    ],
    // the model deletes the record unokrecord reported a draft and left confirmed: "Record is locked"
    [
      'a delete after unokrecord',
      'PORTAL.UNOK.TO_DRAFT',
      ['PORTAL.DELETE.REGISTERS', 'PORTAL.DELETE.ACTION'],
      ['PORTAL.UNOK.TO_DRAFT'],
    ],
    // the same FAILs with requests that passed through nothing of the cause are causes of their own
    ['a header trigger', 'PORTAL.TRIGGER.ROWINDEX', ['PORTAL.TRIGGER.IVVC_ROW_SUM_FORMULA'], null],
  ])('the catalogue links a FAIL after %s to its cause', (what, cause, rules, through) => {
    const d = sampleResults({
      events: [
        { type: 'run-start', at: '2025-03-01T10:00:00.000Z', files: ['f.prop.ts'] },
        failing(cause, [cause]),
        ...rules.map((r) => failing(r, through ?? undefined)),
        { type: 'run-end', at: '2025-03-01T10:00:01.000Z', reason: 'failed', errors: [] },
      ],
      scope: 'PORTAL.*',
    });
    for (const r of rules) expect(d.rules.find((x) => x.id === r)?.causedBy ?? null, `${what}: ${r}`).toEqual(through);
    expect(d.rules.find((x) => x.id === cause)?.causedBy ?? null).toBeNull();
  });

  it('puts each failure that follows right after the failure of its cause', () => {
    const order = causeOrder(doc.failures, (r) => rootCauses(r, (id) => doc.rules.find((x) => x.id === id)?.causedBy));
    expect(order.map((f) => f.rules[0])).toEqual([ROWS, CREDIT, VAT, 'REST.WRITE.CREATE_JSON']);
  });
});

describe('the reports group a follower under its cause', () => {
  it('the terminal table counts causes and followers apart and lists the followers under the cause', () => {
    const table = renderSummaryTable(doc);
    expect(table).toMatch(/Total\s+\S+\s+\d+\s+4 \(2 causes, 2 following\)/);
    expect(table).toContain(`  ${ROWS}\n    <- ${CREDIT}\n    <- ${VAT}`);
  });

  it('summary.md: counts, a causes table, and each follower after its cause saying so', () => {
    const md = renderSummaryMd(doc);
    expect(md).toContain('4 rules failed: 2 causes, 2 following');
    expect(md).toContain(`| ${ROWS} | ${CREDIT}, ${VAT} |`);
    const at = (s: string) => md.indexOf(s);
    expect(at(`#### FAIL ${ROWS}:`)).toBeGreaterThan(0);
    expect(at(`#### FAIL ${CREDIT}:`)).toBeGreaterThan(at(`#### FAIL ${ROWS}:`));
    expect(md).toMatch(new RegExp(`#### FAIL ${CREDIT}: [^\\n]*\\(follows from ${ROWS}\\)`));
    expect(md).not.toMatch(/#### FAIL REST.WRITE.CREATE_JSON: [^\n]*follows from/);
  });

  it('report.html: a causes table, a "follows from" note in the matrix and on the failure', () => {
    const html = renderReportHtml(doc, { docsBase: 'https://docs.example/' } as never);
    expect(html).toContain('id="causes-table"');
    expect(html).toMatch(new RegExp(`<tr id="rule-${CREDIT}"[^]*?follows from <a href="#rule-${ROWS}">`));
    expect(html).toContain(`data-caused-by="${ROWS}"`);
    expect(html).toContain('4 (2 causes, 2 following)');
  });

  it('junit.xml: the follower says so in the failure message and a causedBy property', () => {
    const xml = renderJunit(doc);
    expect(xmlWellFormed(xml)).toBe(true);
    const credit = xml.slice(
      xml.indexOf(`name="${CREDIT}`),
      xml.indexOf('</testcase>', xml.indexOf(`name="${CREDIT}`)),
    );
    expect(credit).toContain(`<property name="causedBy" value="${ROWS}"/>`);
    expect(credit).toContain(`message="follows from ${ROWS}: [${CREDIT}] broken`);
    const rows = xml.slice(xml.indexOf(`name="${ROWS}`), xml.indexOf('</testcase>', xml.indexOf(`name="${ROWS}`)));
    expect(rows).not.toContain('causedBy');
    // a follower is still a failure
    expect(xml).toMatch(/<testsuite name="REST.WRITE" tests="\d+" failures="4"/);
  });
});
