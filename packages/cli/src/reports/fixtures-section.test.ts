import { validateResults } from '@erpcert/runs';
import { describe, expect, it } from 'vitest';
import { fixturesHtml, fixturesInfo, fixturesMd } from './fixtures-section.js';
import { renderReportHtml } from './report-html.js';
import type { FixtureAccount } from './runner.js';
import { renderSummaryMd } from './summary-md.js';
import { sampleResults } from './testing.js';

const account = (over: Partial<FixtureAccount>): FixtureAccount => ({
  set: 'lookup-items',
  register: 'INVc',
  prefix: 'ERPCERT-FX-',
  expected: 55,
  present: 55,
  created: 0,
  repaired: 0,
  missing: [],
  readonly: false,
  at: '2025-03-01T10:00:10.000Z',
  ...over,
});

describe('the fixture set in the reports', () => {
  it('sums what the workers created and repaired; the last account says what is on the target', () => {
    const f = fixturesInfo('ERPCERT-FX-', [account({ created: 55 }), account({ repaired: 2 })]);
    expect(f.prefix).toBe('ERPCERT-FX-');
    expect(f.sets).toEqual([
      expect.objectContaining({
        id: 'lookup-items',
        register: 'INVc',
        codes: 'ERPCERT-FX-LK01 to ERPCERT-FX-LK55',
        count: 55,
        status: 'complete',
        present: 55,
        created: 55,
        repaired: 2,
        missing: [],
        reason: null,
      }),
    ]);
  });

  it('a set no test looked up is not-checked; accounts of another prefix do not count', () => {
    const f = fixturesInfo('TEAMB-', [account({ created: 55 })]);
    expect(f.sets[0]).toMatchObject({
      status: 'not-checked',
      present: null,
      created: 0,
      codes: 'TEAMB-LK01 to TEAMB-LK55',
    });
  });

  it('an incomplete set keeps the missing codes and the reason', () => {
    const f = fixturesInfo('ERPCERT-FX-', [
      account({ present: 0, missing: ['ERPCERT-FX-LK01'], readonly: true, reason: 'refused' }),
    ]);
    expect(f.sets[0]).toMatchObject({ status: 'incomplete', missing: ['ERPCERT-FX-LK01'], reason: 'refused' });
  });

  it('results.json with the section validates; summary.md and report.html list it apart from the residue', () => {
    const fixtures = fixturesInfo('ERPCERT-FX-', [account({ created: 55 })]);
    const doc = sampleResults({ context: { fixtures } });
    expect(validateResults(doc).errors).toEqual([]);
    const md = renderSummaryMd(doc);
    expect(md.indexOf('### Fixture set')).toBeGreaterThan(md.indexOf('### Cleanup'));
    expect(fixturesMd(doc).join('\n')).toContain(
      '| INVc | `ERPCERT-FX-LK01 to ERPCERT-FX-LK55` | 55 | 55 of 55 on the target; 55 created, 0 repaired in this run |',
    );
    const html = renderReportHtml(doc, { docsBase: '../docs/' });
    expect(html).toContain('<h2 id="fixtures">Fixture set</h2>');
    expect(html).toContain(fixturesHtml(doc));
  });

  it('an older document without the section still renders', () => {
    const doc = sampleResults();
    expect(doc.fixtures).toBeUndefined();
    expect(fixturesMd(doc)).toEqual([]);
    expect(fixturesHtml(doc)).toBe('');
  });
});
