/**
 * The misses of the behaviour family measured on the merged issue 28 (README "Behaviour mutants"), each against its
 * server through the self-test engine (seed 3, the seed whose deleterow names the last row):
 * - a target that reads no `rowindex` answers a row field's trigger as a header field's: PORTAL.TRIGGER.ROWINDEX
 *   FAILs, and the row triggers' own FAILs follow from it (causedBy), none counted outside;
 * - a report that drops `usercode`: "Access denied" for the configured usercode (a user with report access) on
 *   every listed report FAILs PORTAL.AUTH.USERCODE_ACTING_USER, not a SKIP;
 * - a deleterow that removes nothing breaks PORTAL.ROWS.DELETEROW_REMOVES, whichever row it names (the last row's
 *   number, read from 0, names no row: that is no sign of a 0-based reading).
 */
import { describe, expect, it } from 'vitest';
import type { MutantOutcome } from '../detection.js';
import { runSelfTest } from '../run-selftest.js';
import { behaviourMutants } from './behaviour-mutants.js';

const ROWINDEX = 'PORTAL.TRIGGER.ROWINDEX';
const MUTANTS = {
  rowindex: `behaviour:parameter-ignored:${ROWINDEX}:windowactions.rowindex`,
  usercode: 'behaviour:parameter-ignored:PORTAL.AUTH.USERCODE_ACTING_USER:report.usercode',
  deleterow: 'behaviour:write-does-nothing:PORTAL.ROWS.DELETEROW_REMOVES:deleterow:IVVc',
} as const;

describe('the behaviour misses, each against its server', () => {
  it('FAILs the broken rule; the FAILs of the row triggers follow from ROWINDEX; nothing else FAILs', async () => {
    const byId = new Map(behaviourMutants().map((m) => [m.id, m]));
    const report = await runSelfTest({
      only: [],
      mutants: Object.values(MUTANTS).map((id) => byId.get(id)!),
      seeds: [3],
      lanes: 2,
      progress: () => {},
    });
    const outcome = (id: string) => report.mutants.find((m) => m.id === id) as MutantOutcome;
    const failed = (id: string) => outcome(id).runs[0]!.failed;

    expect(failed(MUTANTS.rowindex)).toContain(ROWINDEX);
    const followers = failed(MUTANTS.rowindex).filter((r) => r !== ROWINDEX);
    // the row triggers the suite sends: their rows' loads and formulas, and the catalogue's row fields
    expect(followers).toEqual(expect.arrayContaining(['PORTAL.TRIGGER.IVVC_ARTCODE_LOADS']));
    for (const f of followers) expect(outcome(MUTANTS.rowindex).runs[0]!.causedBy?.[f], f).toEqual([ROWINDEX]);

    expect(failed(MUTANTS.usercode)).toEqual(['PORTAL.AUTH.USERCODE_ACTING_USER']);
    expect(failed(MUTANTS.deleterow)).toEqual(['PORTAL.ROWS.DELETEROW_REMOVES']);

    for (const m of report.mutants) {
      expect(m.caught, m.id).toBe(true);
      expect(m.precise, m.id).toBe(true);
    }
    expect(report.outside).toMatchObject({ count: 0, of: 3 });
    expect(report.baseline.clean).toBe(true);
  }, 1_500_000);
});
