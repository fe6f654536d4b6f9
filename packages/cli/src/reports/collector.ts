import { docAnchor, type Rule } from '@erpcert/contract';
import {
  type AreaCounts,
  type CleanupInfo,
  type CoverageInfo,
  type FailureEntry,
  type FixturesInfo,
  judgedCoverage,
  type LoadReportVerdicts,
  RESULTS_SCHEMA_VERSION,
  type ReportVerdict,
  type ResultsDocument,
  type RuleResult,
  type RunInfo,
  type SpecInfo,
  type TestEntry,
  type VerdictCounts,
} from '@erpcert/runs';
import { causesIn, followersOf } from './causes.js';
import { curlLine, type ReplayBase, replayCommand } from './replay.js';
import {
  combineVerdicts,
  type RuleVerdict,
  type RunEvent,
  type TestEvent,
  type ThrottleCounts,
  type Verdict,
} from './runner.js';

/** What the collector cannot learn from the events. */
export interface RunContext {
  readonly run: Omit<RunInfo, 'outcome' | 'exitCode'>;
  readonly spec: SpecInfo;
  readonly toolVersion: string;
  readonly cleanup: CleanupInfo;
  /** The fixture set's account. */
  readonly fixtures?: FixturesInfo;
  /** Errors of the run itself (vitest could not start, unhandled errors) and of the cleanup. */
  readonly errors: readonly string[];
  /** Other problems to list (ledger lines that could not be read, ...). */
  readonly problems?: readonly string[];
  /** The performance rules' verdicts of a load run (`--load-report DIR`). */
  readonly load?: LoadReportVerdicts;
}

/** Counts of rules per verdict. */
export function countVerdicts(verdicts: readonly ReportVerdict[]): VerdictCounts {
  const c = { rules: verdicts.length, PASS: 0, FAIL: 0, ERROR: 0, WARN: 0, SKIP: 0, KNOWN: 0, NONE: 0 };
  for (const v of verdicts) c[v]++;
  return c;
}

/** Counts of rules per verdict, and of the FAILs those that follow from another FAIL (`following`). */
export function countRules(rules: readonly Pick<RuleResult, 'verdict' | 'causedBy'>[]): VerdictCounts {
  const following = rules.filter((r) => r.verdict === 'FAIL' && (r.causedBy?.length ?? 0) > 0).length;
  return { ...countVerdicts(rules.map((r) => r.verdict)), following };
}

/** The FAIL and ERROR entries of one test, before they get their indexes. */
function entriesOf(t: TestEvent): Omit<FailureEntry, 'test' | 'curl' | 'replay' | 'known'>[] {
  const out: Omit<FailureEntry, 'test' | 'curl' | 'replay' | 'known'>[] = [];
  const f = t.failure;
  const base = {
    counterexample: f?.counterexample ?? null,
    seed: f?.seed ?? null,
    path: f?.path ?? null,
    shrinks: f?.shrinks ?? null,
    errors: t.errors,
  };
  const faultRules = new Set(t.faults.flatMap((x) => (x.rule !== null ? [x.rule] : [])));
  const of = (verdict: Verdict) => t.verdicts.filter((v) => v.verdict === verdict).map((v) => v.rule);
  // a transport rule FAILs with the exchange of its fault, whatever the test was doing
  for (const rule of of('FAIL').filter((r) => faultRules.has(r))) {
    const fault = t.faults.find((x) => x.rule === rule)!;
    out.push({
      verdict: 'FAIL',
      rules: [rule],
      message: fault.detail,
      ...base,
      counterexample: null,
      seed: null,
      path: null,
      shrinks: null,
      exchanges: fault.exchange ? [fault.exchange] : [],
    });
  }
  const failed = of('FAIL').filter((r) => !faultRules.has(r));
  const message = f?.message ?? t.reason ?? 'the test failed';
  if (failed.length > 0) out.push({ verdict: 'FAIL', rules: failed, message, ...base, exchanges: f?.exchanges ?? [] });
  const errored = of('ERROR');
  if (errored.length > 0) {
    // the failing run's exchanges, else (a skipped test) the faults' own
    const exchanges = f?.exchanges ?? t.faults.flatMap((x) => (x.exchange ? [x.exchange] : []));
    out.push({ verdict: 'ERROR', rules: errored, message: t.reason ?? message, ...base, exchanges });
  }
  return out;
}

/**
 * Subscribes to a run's events and builds its results document: one verdict per rule in scope (every rule,
 * or the `--only` selection), the failures and errors with their replay commands, the observations, the
 * coverage and the problems.
 */
/** `{ throttling }`: the throttled answers of the run's tests summed; nothing when the target throttled none. */
function throttlingOf(tests: readonly TestEvent[]): { throttling: ThrottleCounts } | Record<string, never> {
  const sum = { retried: 0, waitedMs: 0, gaveUp: 0 };
  for (const t of tests) {
    if (!t.throttling) continue;
    sum.retried += t.throttling.retried;
    sum.waitedMs += t.throttling.waitedMs;
    sum.gaveUp += t.throttling.gaveUp;
  }
  return sum.retried + sum.gaveUp > 0 ? { throttling: sum } : {};
}

export class ResultsCollector {
  readonly #scope: readonly Rule[];
  readonly #lookup: (id: string) => Rule | undefined;
  readonly #replay: ReplayBase;
  readonly #tests: TestEvent[] = [];
  readonly #named = new Set<string>();
  readonly #moduleErrors: string[] = [];
  readonly #runErrors: string[] = [];
  #ended = false;

  /**
   * @param scope the rules of the matrix, in catalogue order
   * @param lookup the catalogue's rule of an id (undefined: unknown)
   * @param replay the run options a replay command repeats
   */
  constructor(scope: readonly Rule[], lookup: (id: string) => Rule | undefined, replay: ReplayBase) {
    this.#scope = scope;
    this.#lookup = lookup;
    this.#replay = replay;
  }

  /** The listener to subscribe to the run's events. */
  readonly listener = (e: RunEvent): void => {
    if (e.type === 'test') {
      for (const r of e.rules) this.#named.add(r);
      if (e.selected) this.#tests.push(e);
    } else if (e.type === 'module-end') {
      for (const err of e.errors) this.#moduleErrors.push(`${e.file}: ${err}`);
    } else if (e.type === 'run-end') {
      this.#ended = true;
      this.#runErrors.push(...e.errors);
    }
  };

  /** Builds results.json from what the events said and `ctx`. */
  build(ctx: RunContext): ResultsDocument {
    const testId = (t: TestEvent) => `${t.file} > ${t.fullName}`;
    const failures: FailureEntry[] = [];
    /** The failure entries of each test and rule. */
    const entryIndex = new Map<TestEvent, Map<string, number>>();
    // causes before symptoms (causes.ts): the rules that FAILed in the run, and which FAILs follow from them
    const failedIn = (rule: string) =>
      this.#tests.filter((t) => t.verdicts.some((v) => v.rule === rule && v.verdict === 'FAIL'));
    const failedRules = new Set(
      this.#tests.flatMap((t) => t.verdicts.filter((v) => v.verdict === 'FAIL').map((v) => v.rule)),
    );
    const followers = followersOf(failedRules, failedIn, this.#lookup);
    for (const t of this.#tests) {
      const byRule = new Map<string, number>();
      for (const e of entriesOf(t)) {
        const last = e.exchanges.at(-1);
        for (const r of e.rules) byRule.set(r, failures.length);
        const perRule = e.verdict === 'FAIL' ? e.rules.map((r) => causesIn(t, r, failedRules, this.#lookup)) : [];
        const causes = perRule.every((c) => c.length > 0) ? [...new Set(perRule.flat())] : [];
        failures.push({
          test: testId(t),
          ...e,
          known: false,
          causedBy: causes.length > 0 ? causes.sort() : null,
          curl: last ? curlLine(last) : null,
          replay: replayCommand(this.#replay, e.rules, e.seed ?? undefined, e.path ?? undefined),
        });
      }
      if (byRule.size > 0) entryIndex.set(t, byRule);
    }
    // a rule outside the selection that a selected test found broken is reported too: a FAIL never vanishes
    const inScope = new Set(this.#scope.map((r) => r.id));
    const alsoFailed = [
      ...new Set(this.#tests.flatMap((t) => t.verdicts.filter((v) => v.verdict === 'FAIL').map((v) => v.rule))),
    ]
      .filter((id) => !inScope.has(id))
      .map((id) => this.#lookup(id))
      .filter((r): r is Rule => r !== undefined);
    const rules: RuleResult[] = [...this.#scope, ...alsoFailed].map((rule) => {
      const judging = this.#tests
        .map((t) => {
          const rv = t.verdicts.find((v) => v.rule === rule.id);
          return { t, rv, v: rv?.verdict ?? null };
        })
        .filter((x): x is { t: TestEvent; rv: RuleVerdict; v: Verdict } => x.v !== null);
      const verdict = combineVerdicts(judging.map((x) => x.v));
      const decisive = judging.find((x) => x.v === verdict);
      const failureIdx = judging.flatMap((x) => {
        const i = x.v === 'FAIL' || x.v === 'ERROR' ? entryIndex.get(x.t)?.get(rule.id) : undefined;
        return i === undefined ? [] : [i];
      });
      const observations = this.#tests.reduce((n, t) => n + (t.observations[rule.id] ?? 0), 0);
      const decisiveObservations = this.#tests.reduce((n, t) => n + ((t.decisive ?? t.observations)[rule.id] ?? 0), 0);
      return {
        id: rule.id,
        area: rule.area,
        title: rule.title,
        doc: rule.doc,
        section: rule.section,
        docAnchor: docAnchor(rule),
        kind: rule.kind,
        standing: rule.standing,
        observable: rule.observable,
        inferredFrom: rule.inferredFrom ?? null,
        verdict: verdict ?? 'NONE',
        observations,
        decisiveObservations,
        tested: this.#named.has(rule.id),
        reason: verdict === 'PASS' ? null : (decisive?.rv.reason ?? decisive?.t.reason ?? null),
        tests: judging.map((x) => testId(x.t)),
        failures: [...new Set(failureIdx)],
        known: null,
        causedBy: verdict === 'FAIL' ? (followers.get(rule.id) ?? null) : null,
      };
    });
    const tests: TestEntry[] = this.#tests.map((t) => ({
      id: testId(t),
      file: t.file,
      name: t.name,
      rules: t.rules,
      state: t.state,
      verdicts: Object.fromEntries(t.verdicts.map((v) => [v.rule, v.verdict ?? 'NONE'])),
      reason: t.reason ?? null,
      observations: { ...t.observations },
      ...(t.through ? { through: t.through } : {}),
      decisiveObservations: { ...(t.decisive ?? t.observations) },
      durationMs: t.durationMs ?? null,
    }));
    const areas: AreaCounts[] = [...new Set(rules.map((r) => r.area))].map((area) => ({
      area,
      ...countRules(rules.filter((r) => r.area === area)),
    }));
    const problems = [
      ...ctx.errors,
      ...this.#runErrors,
      ...this.#moduleErrors,
      ...(this.#ended || ctx.run.interrupted ? [] : ['the run ended without vitest reporting its end']),
      ...this.#tests
        .filter((t) => t.rules.length === 0)
        .map((t) => `${testId(t)}: names no rule id, its outcome counts for nothing`),
      ...[
        ...new Set(
          this.#tests.flatMap((t) =>
            t.rules.filter((r) => this.#lookup(r) === undefined).map((r) => `${t.file}: unknown rule id ${r}`),
          ),
        ),
      ],
      ...(ctx.problems ?? []),
    ];
    const totals = countRules(rules);
    const broken = ctx.run.interrupted || ctx.errors.length + this.#runErrors.length + this.#moduleErrors.length > 0;
    // an ERROR fails the run like a FAIL: the target misbehaved where a check needed an answer
    const exitCode = broken ? 2 : totals.FAIL + totals.ERROR > 0 ? 1 : 0;
    return {
      schemaVersion: RESULTS_SCHEMA_VERSION,
      kind: 'erpcert-conformance',
      tool: { name: 'erpcert', version: ctx.toolVersion },
      run: {
        ...ctx.run,
        ...throttlingOf(this.#tests),
        outcome: exitCode === 2 ? 'error' : exitCode === 1 ? 'fail' : 'pass',
        exitCode,
      },
      spec: ctx.spec,
      totals,
      areas,
      rules,
      tests,
      failures,
      coverage: coverageOf(rules, ctx.load),
      cleanup: ctx.cleanup,
      ...(ctx.fixtures ? { fixtures: ctx.fixtures } : {}),
      knownDeviations: null,
      problems,
    };
  }
}

/** The coverage table: documented and inferred observable rules with and without tests. */
export function coverageOf(rules: readonly RuleResult[], load?: LoadReportVerdicts): CoverageInfo {
  const observable = rules.filter((r) => r.observable);
  const split = (standing: 'documented' | 'inferred') => {
    const of = observable.filter((r) => r.standing === standing);
    return {
      withTests: of.filter((r) => r.tested).map((r) => r.id),
      withoutTests: of.filter((r) => !r.tested).map((r) => r.id),
    };
  };
  const unspecified = rules.filter((r) => r.standing === 'unspecified');
  return {
    documented: split('documented'),
    inferred: split('inferred'),
    unspecified: { total: unspecified.length, withTests: unspecified.filter((r) => r.tested).length },
    notObservable: rules.filter((r) => !r.observable).map((r) => r.id),
    judged: judgedCoverage(rules, load),
  };
}
