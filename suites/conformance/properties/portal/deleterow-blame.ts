/**
 * Which rule a deleterow that left the wrong rows breaks (issue 28: a check that combines probes separates them
 * before it blames). One deleterow observes two things at once: which rows its numbers name
 * (PORTAL.ROWS.DELETEROW_ROWS_1_BASED, "rows is a comma-separated list of 1-based row numbers") and that exactly
 * those go, the others kept in order (PORTAL.ROWS.DELETEROW_REMOVES). The count is judged apart from the identity:
 *
 * - every listed row went (the numbering held) but the rows left are not the others in order: one row more went,
 *   or the rest were reordered: REMOVES;
 * - rows went, and the rows left are what a 0-based reading of the numbers leaves, or as many rows went as were listed but other
 *   ones: the numbers named other rows: ROWS_1_BASED;
 * - anything else (fewer or more rows went, and not the listed ones): REMOVES.
 */

/** The rule and what was seen, or undefined when `after` is `before` without the listed rows (1-based), in order. */
export function deleteRowsBlame(
  before: readonly string[],
  after: readonly string[],
  remove: readonly number[],
  what: string,
): { rule: string; detail: string } | undefined {
  const want = before.filter((_, i) => !remove.includes(i + 1));
  if (JSON.stringify(after) === JSON.stringify(want)) return undefined;
  const seen = `${what} on ${before.length} rows ${JSON.stringify(before)} left ${JSON.stringify(after)}; removing rows ${remove.join(',')} (1-based) leaves ${JSON.stringify(want)}`;
  const listedGone = remove.every((n) => before[n - 1] !== undefined && !after.includes(before[n - 1]!));
  const zeroBased = before.filter((_, i) => !remove.includes(i));
  // a 0-based reading is seen only where it removed rows: read from 0, the last row's number names no row, and
  // a deleterow that removed nothing at all breaks REMOVES whatever its numbering
  if (!listedGone && after.length < before.length && JSON.stringify(after) === JSON.stringify(zeroBased))
    return { rule: 'PORTAL.ROWS.DELETEROW_ROWS_1_BASED', detail: `${seen}: the numbers were read from 0` };
  if (listedGone)
    return {
      rule: 'PORTAL.ROWS.DELETEROW_REMOVES',
      detail: `${seen}: the listed rows went (the numbering held), ${after.length < want.length ? `and ${want.length - after.length} more` : 'but the others did not stay as they were, in order'}`,
    };
  if (after.length === want.length)
    return {
      rule: 'PORTAL.ROWS.DELETEROW_ROWS_1_BASED',
      detail: `${seen}: as many rows went as were listed, other ones`,
    };
  return { rule: 'PORTAL.ROWS.DELETEROW_REMOVES', detail: `${seen}: not the listed rows went` };
}
