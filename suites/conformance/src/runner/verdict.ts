import type { RuleStanding } from '@erpcert/contract';
import type { ConformanceMeta } from '../harness/meta.js';

/** A rule's verdict (DESIGN.md "Verdicts and exit codes"). */
export type Verdict = 'PASS' | 'FAIL' | 'WARN' | 'SKIP';
/** Every verdict, in the order reports list them. */
export const VERDICTS: readonly Verdict[] = ['PASS', 'FAIL', 'WARN', 'SKIP'];
/** What a run may do (DESIGN.md "Command-line contract" `--profile`). */
export type Profile = 'readonly' | 'full' | 'strict';
export const PROFILES: readonly Profile[] = ['readonly', 'full', 'strict'];

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
}

/** The verdicts of one test and the one-line reason behind them (skip reason, advisory, failure message). */
export interface TestVerdicts {
  readonly verdicts: readonly RuleVerdict[];
  readonly reason?: string;
}

/**
 * The rules a failure names: the harness's violations read `[RULE.ID] title: what was seen`
 * (src/harness/violation.ts). Only ids among the test's own rules count.
 */
export function violatedRules(message: string | undefined, rules: readonly string[]): string[] {
  const m = message ? /^\s*\[([^\]]+)\]/.exec(message) : null;
  if (!m) return [];
  const named = m[1]!.split(/[\s,]+/).map((id) => id.toUpperCase());
  return rules.filter((r) => named.includes(r));
}

/**
 * Maps a test's outcome to a verdict per rule, as the header of `src/harness/meta.ts` says:
 * passed -> PASS (WARN with an advisory in the strict profile); skipped -> SKIP with the reason; failed ->
 * FAIL for documented and inferred rules, and for unspecified rules a WARN in strict and nothing otherwise
 * (the docs say "not shown": never a FAIL). When the failure names the rule it broke (`[RULE.ID] ...`, one
 * of the test's rules), only that rule is judged: the test's other rules get no verdict from it, since the
 * test stopped before it could tell. Rules the catalogue does not know (`standingOf` gives undefined) get
 * no verdict; the runner reports them as a defect of the suite.
 */
export function verdictsOf(
  rules: readonly string[],
  outcome: TestOutcome,
  standingOf: (rule: string) => RuleStanding | undefined,
  profile: Profile,
): TestVerdicts {
  const known = (rule: string) => standingOf(rule) !== undefined;
  const all = (verdict: Verdict): RuleVerdict[] =>
    rules.map((rule) => ({ rule, verdict: known(rule) ? verdict : null }));
  const meta = outcome.meta;
  if (outcome.state === 'skipped') {
    const reason = meta?.skipReason ?? outcome.note ?? 'skipped by the suite, no reason recorded';
    return { verdicts: all('SKIP'), reason };
  }
  if (outcome.state === 'passed') {
    if (meta?.advisory !== undefined && profile === 'strict') return { verdicts: all('WARN'), reason: meta.advisory };
    return { verdicts: all('PASS') };
  }
  const reason = meta?.failure?.message ?? outcome.errors[0] ?? 'the test failed without a message';
  const named = violatedRules(reason, rules);
  const verdicts = rules.map((rule): RuleVerdict => {
    const standing = standingOf(rule);
    if (standing === undefined || (named.length > 0 && !named.includes(rule))) return { rule, verdict: null };
    if (standing === 'unspecified') return { rule, verdict: profile === 'strict' ? 'WARN' : null };
    return { rule, verdict: 'FAIL' };
  });
  return { verdicts, reason };
}

const RANK: Readonly<Record<Verdict, number>> = { FAIL: 4, WARN: 3, PASS: 2, SKIP: 1 };

/**
 * The verdict of a rule over all the tests that judged it: any FAIL wins, then WARN, then PASS, then SKIP
 * (a rule skipped by one test and passed by another passed). `null` when no test judged it.
 */
export function combineVerdicts(verdicts: Iterable<Verdict | null>): Verdict | null {
  let best: Verdict | null = null;
  for (const v of verdicts) if (v !== null && (best === null || RANK[v] > RANK[best])) best = v;
  return best;
}
