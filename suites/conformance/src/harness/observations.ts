/**
 * Counting observations: how many times a check of a rule asserted against target data in the current test,
 * and how many of those were decisive. `expectRule`, `violated` and `needShape` (violation.ts) count for their
 * rule; `ctx.observe(rule)` counts for checks written otherwise. The counts live in the test's
 * `task.meta.erpcert` (`observations`, `decisive`, `undecided`), which vitest carries from the worker to the
 * runner; a rule with no observation gets no PASS, and a rule whose observations were all indecisive neither
 * (meta.ts, runner/verdict.ts).
 *
 * Decisive: the observation reached the case that separates a right server from a wrong one (for `maxsize`, a
 * column with more cards than `maxsize`; for a filter, records on both sides of it; for a cap, more matches than
 * the cap; for paging, more records than a page). A check of a body that exists is decisive by nature, and an
 * observation that states nothing counts as decisive, except for the rules of decisive-cases.ts (parameters,
 * filters, limits, caps): their checks must say, and an observation of theirs that does not is indecisive.
 *
 * Tests of one worker run one after another (the conformance config runs no test concurrently), so "the
 * current test" is well defined; outside a test (unit tests of the assertions) counting does nothing.
 */
import { DECISIVE_CASES } from './decisive-cases.js';

/** Whether an observation reached the case that tells right from wrong, and what was missing when it did not. */
export interface Decisiveness {
  readonly decisive: boolean;
  /** When not decisive: what the data lacked (`no column held more cards than maxsize 1`). */
  readonly missing?: string;
}

/** Where one test's counts go (the test's meta records). */
export interface ObservationRecords {
  /** Observations per rule, decisive or not. */
  readonly counts: Record<string, number>;
  /** Decisive observations per rule. */
  readonly decisive: Record<string, number>;
  /**
   * Per rule with an indecisive observation: what the data lacked, as the last such observation said (a test that
   * tries, makes data and tries again reports what was still missing at the end).
   */
  readonly undecided: Record<string, string>;
}

const KEY = Symbol.for('erpcert.conformance.observations');
type Holder = { [KEY]?: ObservationRecords | undefined };

/** Starts counting into `into` (the meta records of the test that begins). */
export function beginObservations(into: ObservationRecords): void {
  (globalThis as Holder)[KEY] = into;
}

/** Stops counting (the test ended). */
export function endObservations(): void {
  (globalThis as Holder)[KEY] = undefined;
}

/** The case that separates right from wrong for a rule whose checks must state decisiveness; undefined otherwise. */
export function decisiveCase(rule: string): string | undefined {
  return DECISIVE_CASES[rule];
}

/**
 * Counts `n` observations of `rule` in the current test (nothing outside a test). `how` says whether they were
 * decisive; without it they are, unless the rule is one of decisive-cases.ts, whose checks must say.
 */
export function observe(rule: string, n = 1, how?: Decisiveness): void {
  const records = (globalThis as Holder)[KEY];
  if (!records || n <= 0) return;
  records.counts[rule] = (records.counts[rule] ?? 0) + n;
  const needed = DECISIVE_CASES[rule];
  const decisive = how?.decisive ?? needed === undefined;
  if (decisive) records.decisive[rule] = (records.decisive[rule] ?? 0) + n;
  else records.undecided[rule] = how?.missing ?? needed ?? 'the case that separates a right server from a wrong one';
}

/** `{ decisive }` with the case the rule needs as what was missing when it is false. */
export function decisiveWhen(rule: string, decisive: boolean, missing?: string): Decisiveness {
  return decisive ? { decisive } : { decisive, missing: missing ?? DECISIVE_CASES[rule] ?? 'not stated' };
}

/** Empty records to count one test's observations into. */
export function observationRecords(): ObservationRecords {
  return { counts: {}, decisive: {}, undecided: {} };
}
