/**
 * Counting observations: how many times a check of a rule asserted against target data in the current test.
 * `expectRule`, `violated` and `needShape` (violation.ts) count for their rule; `ctx.observe(rule)` counts
 * for checks written otherwise. The count lives in the test's `task.meta.erpcert.observations`, which
 * vitest carries from the worker to the runner; a rule with no observation gets no PASS (meta.ts).
 *
 * Tests of one worker run one after another (the conformance config runs no test concurrently), so "the
 * current test" is well defined; outside a test (unit tests of the assertions) counting does nothing.
 */

const KEY = Symbol.for('erpcert.conformance.observations');
type Holder = { [KEY]?: Record<string, number> | undefined };

/** Starts counting into `into` (the meta record of the test that begins). */
export function beginObservations(into: Record<string, number>): void {
  (globalThis as Holder)[KEY] = into;
}

/** Stops counting (the test ended). */
export function endObservations(): void {
  (globalThis as Holder)[KEY] = undefined;
}

/** Counts `n` observations of `rule` in the current test (nothing outside a test). */
export function observe(rule: string, n = 1): void {
  const counts = (globalThis as Holder)[KEY];
  if (counts && n > 0) counts[rule] = (counts[rule] ?? 0) + n;
}
