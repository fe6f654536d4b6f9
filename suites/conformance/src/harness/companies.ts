/**
 * The two companies of the company rules (REST.QUERY.COMPCODE, PORTAL.GLOBAL.COMPNO). With one company those
 * rules cannot be judged: a server that ignores the company code serves the run's company whatever it is sent.
 * With `--other-compcode` (TARGET_ENV.otherCompcode), a second company whose data differs, they read both and
 * compare.
 */
import type { AnyRecord } from './records.js';
import type { RuleContext } from './rule-test.js';

/** The skip reason of a company rule in a run without a second company. */
export const ONE_COMPANY =
  'one company cannot show that the company code selects the company (a server that ignores it would pass): ' +
  'give --other-compcode N, a second company whose data differs';

/** The run's company and the other one; skips the test when the run names no second company. */
export function twoCompanies(ctx: Pick<RuleContext, 'target' | 'skip'>): { company: number; other: number } {
  const { compcode, otherCompcode } = ctx.target;
  if (otherCompcode === undefined) ctx.skip(ONE_COMPANY);
  if (compcode === undefined)
    ctx.skip('--other-compcode is given without --compcode: the company of the run to compare it with is unknown');
  return { company: compcode, other: otherCompcode };
}

/** A record without its `@` attributes (`@url`, `@sequence`: where and when, not what). */
function content(record: AnyRecord): string {
  return JSON.stringify(Object.fromEntries(Object.entries(record).filter(([k]) => !k.startsWith('@'))));
}

/**
 * Whether two companies' answers to the same read tell the companies apart: a key that only one holds, or a key
 * whose record differs. Pages read at two moments may include different records of other tests, so only the
 * keys both hold are compared, and two non-empty pages without a common key differ.
 */
export function companiesDiffer(
  a: readonly AnyRecord[],
  b: readonly AnyRecord[],
  keyOf: (record: AnyRecord) => string,
): boolean {
  if (a.length === 0 || b.length === 0) return a.length !== b.length;
  const inB = new Map(b.map((r) => [keyOf(r), content(r)]));
  const common = a.filter((r) => inB.has(keyOf(r)));
  if (common.length === 0) return true;
  return common.some((r) => inB.get(keyOf(r)) !== content(r));
}
