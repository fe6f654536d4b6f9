/**
 * Issue 28 "Causes before symptoms", end to end: the suite against a server of each kind (the mutants of
 * mutants-causes.ts behind the self-test's proxy), one seed each. The broken rule FAILs; a rule whose test wrote or
 * read its data through the broken behaviour FAILs with causedBy that rule (not counted against precision); a check
 * that combines probes blames the part that broke; nothing else FAILs, and the baseline FAILs nothing.
 */
import { describe, expect, it } from 'vitest';
import type { MutantOutcome } from './detection.js';
import { runSelfTest } from './run-selftest.js';

describe('causes before symptoms (issue 28), against servers of each kind', () => {
  it('FAILs the broken rule; the FAILs that follow from it say so; nothing else FAILs', async () => {
    const report = await runSelfTest({
      only: ['form-row-index-1-based', 'unok-leaves-confirmed', 'lookup-search-decoy', 'deleterow-one-more'],
      seeds: [7],
      lanes: 2,
      progress: () => {},
    });
    const outcome = (id: string) => report.mutants.find((m) => m.id === id) as MutantOutcome;
    const failed = (id: string) => outcome(id).runs[0]!.failed;
    const causedBy = (id: string) => outcome(id).runs[0]!.causedBy ?? {};

    // rows written through a form POST that counts set_row_field.N from 1
    const rows = 'REST.WRITE.FORM_ROW_INDEX';
    expect(failed('form-row-index-1-based')).toContain(rows);
    const followers = failed('form-row-index-1-based').filter((r) => r !== rows);
    expect(followers).toEqual(
      expect.arrayContaining([
        'REST.WRITE.CREDIT_INVOICE',
        'REST.WRITE.PURCHASE_INVOICE_VAT',
        'REST.WRITE.CREATE_FORM',
      ]),
    );
    for (const f of followers) expect(causedBy('form-row-index-1-based')[f], f).toEqual([rows]);

    // unokrecord answers success and leaves the record confirmed: the model-based test's FAIL follows from it
    expect(failed('unok-leaves-confirmed')).toEqual(['PORTAL.UNOK.TO_DRAFT', 'REST.WRITE.UPDATE_PATCH']);
    expect(causedBy('unok-leaves-confirmed')).toEqual({ 'REST.WRITE.UPDATE_PATCH': ['PORTAL.UNOK.TO_DRAFT'] });

    // combined probes separated before the blame: the decoy, and the count apart from the identity
    expect(failed('lookup-search-decoy')).toEqual(['PORTAL.LOOKUP.ID_IS_SEARCH']);
    expect(failed('deleterow-one-more')).toEqual(['PORTAL.ROWS.DELETEROW_REMOVES']);

    for (const m of report.mutants) {
      expect(m.caught, m.id).toBe(true);
      expect(m.precise, m.id).toBe(true);
    }
    expect(report.outside).toMatchObject({ count: 0, of: 4 });
    expect(report.following).toEqual({ count: 2, of: 4 });
    expect(report.baseline.clean).toBe(true);
  }, 1_500_000);
});
