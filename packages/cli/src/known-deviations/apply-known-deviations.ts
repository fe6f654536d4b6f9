/**
 * Applies a known-deviations file to a judged run: a FAIL or ERROR of a listed rule becomes KNOWN, the totals
 * are counted again, and the exit code follows the gate's rules (README "CI gate"):
 *
 * - 0 when every FAIL and ERROR is KNOWN;
 * - 1 for any FAIL or ERROR of a rule not listed, for an entry past its expiry day, and (with
 *   `--strict-baseline`) for a listed rule that now PASSes;
 * - 2 stays 2: a run that could not be completed is never made green by a baseline.
 *
 * An ERROR of a listed rule is KNOWN too, and keeps its underlying verdict in `known.verdict` (reports show
 * "KNOWN (ERROR)"): the issue asks for exit 0 "when every FAIL and ERROR is KNOWN", and a rule whose deviation
 * is accepted should not hold the gate red because it could not be judged this time either. A target that
 * faults still fails the gate: its fault cuts short unlisted rules too (ERROR), and a 5xx or an unparsable
 * body FAILs a transport rule (harness/target-fault.ts), unless those are listed themselves.
 */

import type { KnownDeviationsInfo, ResultsDocument, RuleResult } from '@erpcert/runs';
import { countRules } from '../reports/collector.js';
import type { KnownDeviation, KnownDeviations } from './known-deviations-file.js';

/** Options of {@link applyKnownDeviations}. */
export interface ApplyOptions {
  /** Today, `YYYY-MM-DD` (UTC): an entry expires after its `expires` day. */
  readonly today: string;
  /** `--strict-baseline`: a listed rule that PASSes fails the run. */
  readonly strict: boolean;
  /** `--write-baseline`: the rules the run added to the file. */
  readonly added?: readonly string[];
}

/** Has the entry expired on `today`? */
export function isExpired(entry: KnownDeviation, today: string): boolean {
  return entry.expires !== null && today > entry.expires;
}

/** The run's document with the known deviations applied (see the module comment). */
export function applyKnownDeviations(
  doc: ResultsDocument,
  deviations: KnownDeviations,
  options: ApplyOptions,
): ResultsDocument {
  const byRule = new Map(deviations.entries.map((e) => [e.rule, e]));
  const accepting = (r: RuleResult) => {
    const e = byRule.get(r.id);
    return e !== undefined && !isExpired(e, options.today) ? e : undefined;
  };
  let rules: RuleResult[] = doc.rules.map((r) => {
    const e = accepting(r);
    if (e === undefined || (r.verdict !== 'FAIL' && r.verdict !== 'ERROR')) return r;
    return {
      ...r,
      verdict: 'KNOWN',
      known: { verdict: r.verdict, reason: e.reason, expires: e.expires, ticket: e.ticket },
    };
  });
  // a FAIL that follows only from accepted deviations (causedBy, issue 28) is the same bug: KNOWN with its cause's
  // entry (chains settle in as many rounds as they are long)
  for (let changed = true; changed; ) {
    changed = false;
    const byId = new Map(rules.map((r) => [r.id, r]));
    rules = rules.map((r) => {
      const causes = (r.causedBy ?? []).map((c) => byId.get(c));
      if (r.verdict !== 'FAIL' || causes.length === 0 || !causes.every((c) => c?.verdict === 'KNOWN')) return r;
      changed = true;
      const first = causes[0]!.known!;
      return {
        ...r,
        verdict: 'KNOWN',
        known: {
          verdict: 'FAIL',
          reason: `follows from ${r.causedBy!.join(', ')} (known deviation${causes.length === 1 ? '' : 's'}): ${first.reason}`,
          expires: first.expires,
          ticket: first.ticket,
        },
      };
    });
  }
  const verdictOf = new Map(rules.map((r) => [r.id, r.verdict]));
  const failures = doc.failures.map((f) => ({ ...f, known: f.rules.every((id) => verdictOf.get(id) === 'KNOWN') }));
  const listed = deviations.entries.map((e) => e.rule);
  const info: KnownDeviationsInfo = {
    file: deviations.file,
    entries: deviations.entries.length,
    strict: options.strict,
    known: listed.filter((id) => verdictOf.get(id) === 'KNOWN'),
    fixed: listed.filter((id) => verdictOf.get(id) === 'PASS'),
    expired: deviations.entries
      .filter((e) => isExpired(e, options.today))
      .map((e) => ({ rule: e.rule, expires: e.expires as string })),
    unjudged: listed.filter((id) => !['KNOWN', 'PASS', 'FAIL', 'ERROR'].includes(verdictOf.get(id) ?? 'NONE')),
    withoutReason: deviations.entries.filter((e) => e.reason === '').map((e) => e.rule),
    added: options.added ?? null,
  };
  const totals = countRules(rules);
  const areas = doc.areas.map((a) => ({ area: a.area, ...countRules(rules.filter((r) => r.area === a.area)) }));
  const exitCode: 0 | 1 | 2 =
    doc.run.exitCode === 2
      ? 2
      : totals.FAIL + totals.ERROR > 0 || info.expired.length > 0 || (options.strict && info.fixed.length > 0)
        ? 1
        : 0;
  return {
    ...doc,
    run: { ...doc.run, exitCode, outcome: exitCode === 2 ? 'error' : exitCode === 1 ? 'fail' : 'pass' },
    totals,
    areas,
    rules,
    failures,
    knownDeviations: info,
  };
}

/** Why a run with known deviations fails, beyond its FAILs and ERRORs: one line each (empty when none). */
export function knownDeviationsVerdictLines(info: KnownDeviationsInfo): string[] {
  return [
    ...info.expired.map(
      (e) => `expired: ${e.rule} was accepted until ${e.expires}; fix the deviation or renew the entry in ${info.file}`,
    ),
    ...info.fixed.map(
      (id) =>
        `fixed: ${id} passes now: remove it from the baseline ${info.file}${info.strict ? ' (--strict-baseline: fails the run)' : ''}`,
    ),
  ];
}
