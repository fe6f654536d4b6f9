import type { RuleStanding } from '@erpcert/contract';
import type { ConformanceMeta, FailureKind } from '../harness/meta.js';

/** A rule's verdict (DESIGN.md "Verdicts and exit codes"). */
export type Verdict = 'PASS' | 'FAIL' | 'ERROR' | 'WARN' | 'SKIP';
/** Every verdict, in the order reports list them. */
export const VERDICTS: readonly Verdict[] = ['PASS', 'FAIL', 'ERROR', 'WARN', 'SKIP'];
/** What a run may do (DESIGN.md "Command-line contract" `--profile`). */
export type Profile = 'readonly' | 'full' | 'gate' | 'strict';
export const PROFILES: readonly Profile[] = ['readonly', 'full', 'gate', 'strict'];

/** The reason of a rule that a passing test tagged but no check of it observed. */
export const NOT_EXERCISED = 'not exercised: no check of this rule asserted against target data';

/** The reason of a rule whose every case was left without a verdict by an unconfirmed precondition. */
export const UNCONFIRMED = 'not judged: what the check rests on was not confirmed by a read';

/** The reason of a rule observed only where a right and a wrong server answer alike (observations.ts). */
export const INDECISIVE = 'no observation reached the case that tells right from wrong';

/** How a test ended, as vitest and the harness (task.meta.erpcert) reported it. */
export interface TestOutcome {
  readonly state: 'passed' | 'failed' | 'skipped';
  readonly meta?: ConformanceMeta | undefined;
  /** The note of `ctx.skip(note)`. */
  readonly note?: string | undefined;
  /** vitest's error messages of a failed test. */
  readonly errors: readonly string[];
}

/** The verdict one test gives one rule; `null` when the test gives none (an unspecified rule outside strict). */
export interface RuleVerdict {
  readonly rule: string;
  readonly verdict: Verdict | null;
  /** Why, when it differs from the test's reason (a transport FAIL, a rule not exercised). */
  readonly reason?: string;
}

/** The verdicts of one test and the one-line reason behind them (skip reason, advisory, failure message). */
export interface TestVerdicts {
  readonly verdicts: readonly RuleVerdict[];
  readonly reason?: string;
}

/** The rule ids a failure message names: `[RULE.ID] title: what was seen` (src/harness/violation.ts). */
export function namedRules(message: string | undefined): string[] {
  const m = message ? /^\s*\[([^\]]+)\]/.exec(message) : null;
  if (!m) return [];
  return m[1]!
    .split(/[\s,]+/)
    .filter((id) => /^(REST|PORTAL)\.[A-Z0-9_]+\.[A-Z0-9_]+$/i.test(id))
    .map((id) => id.toUpperCase());
}

/** The rules among `rules` that a failure message names. */
export function violatedRules(message: string | undefined, rules: readonly string[]): string[] {
  const named = namedRules(message);
  return rules.filter((r) => named.includes(r));
}

/** How a failure is judged: the harness says (meta.failure.kind), else the message's `[RULE.ID]` prefix does. */
function failureOf(outcome: TestOutcome, reason: string): { kind: FailureKind; rules: readonly string[] } {
  const f = outcome.meta?.failure;
  if (f?.kind !== undefined) return { kind: f.kind, rules: f.rules ?? namedRules(f.message) };
  const named = namedRules(reason);
  return named.length > 0 ? { kind: 'violation', rules: named } : { kind: 'defect', rules: [] };
}

/**
 * Maps a test's outcome to a verdict per rule, as the header of `src/harness/meta.ts` says.
 *
 * - passed: PASS for each rule that a check observed, tagged or not (WARN for the tagged ones with an
 *   advisory in strict); SKIP {@link NOT_EXERCISED} for a tagged rule without an observation: a PASS rests
 *   on at least one. A rule observed only indecisively (`undecided` without a `decisive` count: the data never
 *   reached the case that tells right from wrong) SKIPs with {@link INDECISIVE} and what was missing.
 * - skipped: SKIP with the reason; ERROR when the target faulted during the test (the fault may be why).
 * - failed: the rules the failure blames FAIL, tagged or not (tags say what a test can judge, not what it
 *   blames); the test's other rules get nothing from a `violation` (the test stopped before it could tell)
 *   and ERROR from a `precondition`, a `target-fault` or a `defect`: they could not be judged. A failure that
 *   names no rule (a plain assertion error, a TypeError of the suite) is a `defect`: ERROR, never FAIL.
 * - in every state, each target fault with a transport rule FAILs that rule (with the fault's detail).
 *
 * An unspecified rule never FAILs or ERRORs: WARN in strict, nothing in the other profiles. Rules the
 * catalogue does not know (`standingOf` gives undefined) get no verdict; the runner reports them as a defect.
 */
export function verdictsOf(
  rules: readonly string[],
  outcome: TestOutcome,
  standingOf: (rule: string) => RuleStanding | undefined,
  profile: Profile,
): TestVerdicts {
  const meta = outcome.meta;
  const faults = meta?.faults ?? [];
  const faultRules = new Map<string, string>();
  for (const f of faults) if (f.rule !== null && !faultRules.has(f.rule)) faultRules.set(f.rule, f.detail);
  /** A failing verdict in the docs' standing: FAIL/ERROR for documented and inferred, WARN/nothing otherwise. */
  const bad = (rule: string, verdict: 'FAIL' | 'ERROR', reason?: string): RuleVerdict => {
    const standing = standingOf(rule);
    if (standing === undefined) return { rule, verdict: null };
    if (standing === 'unspecified') return { rule, verdict: profile === 'strict' ? 'WARN' : null };
    return { rule, verdict, ...(reason !== undefined ? { reason } : {}) };
  };
  const withFaults = (verdicts: RuleVerdict[]): RuleVerdict[] => {
    const out = verdicts.filter((v) => !faultRules.has(v.rule));
    for (const [rule, detail] of faultRules) out.push(bad(rule, 'FAIL', detail));
    return out;
  };
  const known = (rule: string) => standingOf(rule) !== undefined;
  if (outcome.state === 'skipped') {
    const reason = meta?.skipReason ?? outcome.note ?? 'skipped by the suite, no reason recorded';
    if (faults.length > 0) {
      const why = `the target faulted before the test could judge: ${faults[0]!.detail} (skip: ${reason})`;
      return { verdicts: withFaults(rules.map((rule) => bad(rule, 'ERROR'))), reason: why };
    }
    return { verdicts: rules.map((rule) => ({ rule, verdict: known(rule) ? 'SKIP' : null })), reason };
  }
  if (outcome.state === 'passed') {
    const observed = (rule: string) => (meta?.observations?.[rule] ?? 0) > 0;
    // a rule some check observed indecisively needs a decisive observation (a meta without the record: none)
    const undecided = (rule: string) =>
      meta?.undecided?.[rule] !== undefined && (meta?.decisive?.[rule] ?? 0) === 0 ? meta.undecided[rule] : undefined;
    const held = (rule: string): RuleVerdict => {
      const missing = undecided(rule);
      return missing === undefined
        ? { rule, verdict: 'PASS' }
        : { rule, verdict: 'SKIP', reason: `${INDECISIVE}: ${missing}` };
    };
    const warn = meta?.advisory !== undefined && profile === 'strict';
    const verdicts = rules.map((rule): RuleVerdict => {
      if (!known(rule)) return { rule, verdict: null };
      // an advisory is what the test observed of its unspecified rules
      if (warn) return { rule, verdict: 'WARN' };
      if (observed(rule)) return held(rule);
      const unconfirmed = meta?.unconfirmed?.[rule];
      return { rule, verdict: 'SKIP', reason: unconfirmed ? `${UNCONFIRMED}: ${unconfirmed}` : NOT_EXERCISED };
    });
    // a check of a rule the test is not tagged with held too: that rule was observed holding
    const untagged = Object.keys(meta?.observations ?? {}).filter((r) => !rules.includes(r) && known(r) && observed(r));
    verdicts.push(...untagged.map(held));
    return { verdicts: withFaults(verdicts), ...(warn ? { reason: meta!.advisory! } : {}) };
  }
  const reason = meta?.failure?.message ?? outcome.errors[0] ?? 'the test failed without a message';
  let failure = failureOf(outcome, reason);
  // a rule id the catalogue does not know blames nothing: a defect of the suite
  if (failure.rules.length > 0 && !failure.rules.some(known) && failure.kind !== 'target-fault')
    failure = { kind: 'defect', rules: [] };
  const blamed = failure.rules;
  const verdicts: RuleVerdict[] = blamed.map((rule) => bad(rule, 'FAIL'));
  const others = rules.filter((rule) => !blamed.includes(rule));
  if (failure.kind === 'violation') verdicts.push(...others.map((rule) => ({ rule, verdict: null })));
  else verdicts.push(...others.map((rule) => bad(rule, 'ERROR')));
  return { verdicts: withFaults(verdicts), reason };
}

/**
 * Ranks for combining one rule's verdicts over the tests that judged it. FAIL first: one observation of the
 * rule broken decides, whatever else could or could not be judged. ERROR next: a check of the rule was cut
 * short by the target, so a PASS elsewhere does not show the rule holds everywhere it was needed, and the run
 * must not look green. WARN before PASS: an advisory is worth seeing. PASS before SKIP: a rule one test could
 * not exercise and another observed holding has been observed.
 */
const RANK: Readonly<Record<Verdict, number>> = { FAIL: 5, ERROR: 4, WARN: 3, PASS: 2, SKIP: 1 };

/**
 * The verdict of a rule over all the tests that judged it: FAIL > ERROR > WARN > PASS > SKIP (see RANK).
 * `null` when no test judged it.
 */
export function combineVerdicts(verdicts: Iterable<Verdict | null>): Verdict | null {
  let best: Verdict | null = null;
  for (const v of verdicts) if (v !== null && (best === null || RANK[v] > RANK[best])) best = v;
  return best;
}
