/**
 * Preconditions first (issue 18): a rule about the effect of a change is judged only after a read confirmed
 * the change; a rule that judges one API's effect through another API's read is judged only where that read
 * was shown faithful for the same field in the same run. Otherwise the case gets no verdict, with the reason:
 * the rule the change itself broke (a delete that deleted nothing, a read that misreports a field) is judged
 * by its own test, and FAILs there alone.
 *
 * ```ts
 * const gone = (await readBack(ctx, 'CUVc', 'Code', code)) === undefined;
 * if (confirmed(ctx, 'REST.SEQ.MONOTONIC', gone, () => `the delete of ${code} left it in place`))
 *   assertSequenceAdvanced(prev, after, 'REST.SEQ.MONOTONIC', what);
 * ```
 */
import type { RuleContext } from './rule-test.js';

/**
 * `holds`, the precondition of a derived check of `rules`, confirmed by a read of target data. When it does
 * not hold, the case is recorded as unconfirmed for `rules` with `reason()` (ctx.unconfirmed) and false comes
 * back: the caller leaves the check out. Counts no observation either way.
 */
export function confirmed(
  ctx: Pick<RuleContext, 'unconfirmed'>,
  rules: string | readonly string[],
  holds: boolean,
  reason: () => string,
): boolean {
  if (!holds) ctx.unconfirmed(rules, reason());
  return holds;
}
