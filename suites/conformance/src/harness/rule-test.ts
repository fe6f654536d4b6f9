/**
 * `ruleTest` and `ruleProperty`: vitest tests tagged with rule ids that record what the runner needs in
 * `task.meta.erpcert` (meta.ts): the rules, a skip reason, a strict-profile advisory, and on failure the
 * message, the shrunk counterexample, seed, path, shrinks and the exchanges of the failing run.
 *
 * Properties run with `fc.check` inside vitest's own `test` rather than `@fast-check/vitest`'s `test.prop`:
 * `fc.check` hands back the run details (seed, counterexample path, shrinks, the counterexample) as values,
 * where `test.prop` only throws a formatted text, and the harness needs the test context (skip, meta) and
 * a hook into every run to keep its exchanges.
 */
import { randomInt } from 'node:crypto';
import type { ErpClient } from '@erpcert/client';
import fc from 'fast-check';
import { type TestContext, test } from 'vitest';
import type { Profile } from '../runner/verdict.js';
import { exampleMember, GateBudget } from './gate-budget.js';
import type { ConformanceMeta, FailureDetail, FailureKind, RecordedExchange, TargetFault } from './meta.js';
import { beginObservations, type Decisiveness, endObservations, observationRecords, observe } from './observations.js';
import { permanentWriteSkip } from './permanent-writes.js';
import { nextRequestRun, setRequestTag } from './request-log.js';
import type { TargetConfig } from './target.js';
import { errorFault, isTargetFault } from './target-fault.js';
import { requireRule } from './violation.js';
import { type WorkerSession, workerSession } from './worker-client.js';

/** What a test body and a property predicate get. */
export interface RuleContext {
  /** The rule ids the test checks. */
  readonly rules: readonly string[];
  /** The test's name, `[ids] name`. */
  readonly name: string;
  readonly target: TargetConfig;
  /** The worker's client for both APIs (session reuse, pacing, recording). */
  readonly client: ErpClient;
  readonly profile: Profile;
  /** True in the strict profile, where advisories count. */
  readonly strict: boolean;
  /** Aborted when the test times out or the run is cancelled. */
  readonly signal: AbortSignal;
  /** Skips the test (SKIP verdict) with the reason: the target lacks data, permission or a module. */
  skip(reason: string): never;
  /**
   * Records an advisory (strict profile only; ignored in the others): an unspecified behaviour that differs.
   * Counts one observation of each of the test's rules, in every profile.
   */
  advise(text: string): void;
  /**
   * Counts `n` observations of each rule: a check of it asserted against target data without `expectRule`,
   * `violated` or `needShape` (which count by themselves). A rule never observed gets no PASS. `how` says
   * whether they reached the case that tells a right server from a wrong one (observations.ts); the checks of
   * parameters, filters, limits and caps (decisive-cases.ts) must say, and a rule observed only indecisively
   * SKIPs.
   */
  observe(rules: string | readonly string[], n?: number, how?: Decisiveness): void;
  /**
   * Records that a case of `rules` gets no verdict: what its check rests on (the change, a faithful read) was
   * not confirmed by a read. Counts no observation; a rule no case judged SKIPs with the first reason. Call it
   * through `confirmed` (preconditions.ts).
   */
  unconfirmed(rules: string | readonly string[], reason: string): void;
}

/** Options of {@link ruleTest}. */
export interface RuleTestOptions {
  /**
   * The test writes to the target: it skips in the readonly profile. `{ permanent }`: it also makes what the
   * documented APIs cannot remove (`permanent` says what, e.g. "a callback registration"): it runs only
   * against the embedded reference server or with `--allow-permanent-writes` (permanent-writes.ts), and
   * records what it made with `ledgerPermanent`. @defaultValue false
   */
  readonly writes?: boolean | { readonly permanent: string };
  /** vitest timeout of the test in ms. @defaultValue the config's testTimeout */
  readonly timeout?: number;
  /**
   * The test only gives advisories on `unspecified` rules: it skips outside the strict profile, where an
   * advisory counts for nothing. @defaultValue false
   */
  readonly strictOnly?: boolean;
}

/** Options of {@link ruleProperty}. */
export interface RulePropertyOptions<Ts extends unknown[] = unknown[]> extends RuleTestOptions {
  /** Runs of the property unless `ERPCERT_RUNS` says otherwise. @defaultValue 20 */
  readonly numRuns?: number;
  /**
   * Inputs run first, before the generated ones (fast-check's `examples`), in every run: one per case whose
   * rule the random picks could miss (a register, a trigger field), so that every full run observes each rule
   * the property judges. A function builds them from the context once per test, after the arbitraries (to
   * name data those discovered). They count towards the runs, which are raised to at least their number.
   */
  readonly examples?: readonly Ts[] | ((ctx: RuleContext) => readonly Ts[] | Promise<readonly Ts[]>);
}

/** One rule id or several. */
export type RuleIds = string | readonly string[];

/** The arbitraries of a property, one per predicate argument. */
export type Arbitraries<Ts extends unknown[]> = { [K in keyof Ts]: fc.Arbitrary<Ts[K]> };

/** Advisories of one test quoted in its report line; the rest are counted. */
const MAX_ADVISORIES = 3;

/** Default runs per property: a full run of both APIs must stay under 60 s on two cores. */
export const DEFAULT_NUM_RUNS = 20;

/** Thrown by `ctx.skip`; turned into vitest's skip by the harness (never a property failure). */
class SkipSignal extends Error {
  override readonly name = 'SkipSignal';
}

function ruleList(rules: RuleIds): readonly string[] {
  const list = typeof rules === 'string' ? [rules] : [...rules];
  if (list.length === 0) throw new TypeError('a conformance test needs at least one rule id');
  for (const r of list) requireRule(r);
  return Object.freeze([...new Set(list)]);
}

/** The test name the runner filters on: `[RULE.A, RULE.B] what it checks`. */
export function ruleTestName(rules: readonly string[], name: string): string {
  return `[${rules.join(', ')}] ${name}`;
}

function metaOf(t: TestContext): ConformanceMeta {
  return (t.task.meta as { erpcert?: ConformanceMeta }).erpcert as ConformanceMeta;
}

/** The first line of an error's message; a defect's class is kept (`TypeError: ...`), a violation reads as is. */
function firstLine(err: unknown): string {
  let text = err instanceof Error ? err.message : String(err);
  if (err instanceof Error && violationRule(err) === undefined && err.name !== 'Error') text = `${err.name}: ${text}`;
  return text.split('\n')[0] ?? text;
}

/** Sets up the meta record and the context of one test. */
function begin(t: TestContext, rules: readonly string[], name: string): { ctx: RuleContext; session: WorkerSession } {
  const records = observationRecords();
  const meta: ConformanceMeta = {
    rules,
    observations: records.counts,
    decisive: records.decisive,
    undecided: records.undecided,
  };
  (t.task.meta as { erpcert?: ConformanceMeta }).erpcert = meta;
  beginObservations(records);
  setRequestTag(t.task.file?.name, name);
  const session = workerSession();
  session.recorder.beginTest();
  const strict = session.target.profile === 'strict';
  const advisories: string[] = [];
  const ctx: RuleContext = {
    rules,
    name,
    target: session.target,
    client: session.client,
    profile: session.target.profile,
    strict,
    signal: t.signal,
    skip(reason: string): never {
      throw new SkipSignal(reason);
    },
    advise(text: string): void {
      // an advisory reports what the test observed of its (unspecified) rules, in every profile
      for (const r of rules) observe(r);
      if (!strict || advisories.includes(text)) return;
      advisories.push(text);
      // every property run may advise: keep the report readable with the first few and a count
      const shown = advisories.slice(0, MAX_ADVISORIES).join('; ');
      const more = advisories.length - MAX_ADVISORIES;
      meta.advisory = more > 0 ? `${shown}; and ${more} more` : shown;
    },
    observe(rules: string | readonly string[], n = 1, how?: Decisiveness): void {
      for (const rule of typeof rules === 'string' ? [rules] : rules) observe(rule, n, how);
    },
    unconfirmed(rules: string | readonly string[], reason: string): void {
      meta.unconfirmed ??= {};
      for (const rule of typeof rules === 'string' ? [rules] : rules) meta.unconfirmed[rule] ??= reason;
    },
  };
  return { ctx, session };
}

/** Ends a test's records: the faults the recorder saw go into the meta, observations stop counting. */
function end(t: TestContext, session: WorkerSession): void {
  endObservations();
  setRequestTag(t.task.file?.name, undefined);
  const faults = session.recorder.testFaults();
  if (faults.length > 0) metaOf(t).faults = faults;
  const throttling = session.recorder.throttling();
  if (throttling) metaOf(t).throttling = throttling;
  const through = session.recorder.testThrough();
  if (through.length > 0) metaOf(t).through = through;
}

/** The errors that name the rule they break: a check's violation, a precondition, a refused accepted request. */
const VIOLATION_NAMES: readonly string[] = ['ContractViolation', 'PreconditionFailed', 'RequestRefused'];

/** A violation's rule, read by name and shape (module copies under vitest make `instanceof` unreliable). */
function violationRule(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const rule = (err as { rule?: unknown }).rule;
  return typeof rule === 'string' && VIOLATION_NAMES.includes(err.name) ? rule : undefined;
}

/**
 * How a failure is judged (meta.ts header): a fault of the target in the failing run (or the error itself)
 * makes it `target-fault` whatever was thrown after it, since a check fed a 5xx or a broken body judges
 * nothing; then `precondition`, `violation`, and `defect` for anything else.
 */
export function classifyFailure(
  err: unknown,
  faults: readonly TargetFault[],
): { kind: FailureKind; rules: readonly string[] } {
  if (faults.length > 0 || isTargetFault(err)) {
    const rules = [...new Set(faults.flatMap((f) => (f.rule !== null ? [f.rule] : [])))];
    return { kind: 'target-fault', rules };
  }
  const rule = violationRule(err);
  if (rule !== undefined)
    return { kind: (err as Error).name === 'PreconditionFailed' ? 'precondition' : 'violation', rules: [rule] };
  return { kind: 'defect', rules: [] };
}

/** The faults of a failing run, with the one the error itself shows (a body that does not parse). */
function faultsOf(err: unknown, session: WorkerSession, scope: 'run' | 'test'): TargetFault[] {
  const own = errorFault(err);
  // a 5xx or a missing answer is already in the recorder; a body that does not parse only the error shows
  if (own && (err as { kind?: string }).kind === 'decode') session.recorder.addFault(own);
  const faults = scope === 'run' ? session.recorder.runFaults() : session.recorder.testFaults();
  return faults.length === 0 && own ? [own] : faults;
}

/** `{ through }` of a failure, nothing when its requests passed through no behaviour of through.ts. */
function throughOf(through: readonly string[]): { through?: readonly string[] } {
  return through.length > 0 ? { through } : {};
}

function skipNow(t: TestContext, reason: string): never {
  metaOf(t).skipReason = reason;
  return t.skip(reason);
}

/** Records a failure of a test body (not of a property run) and rethrows it. */
function fail(t: TestContext, err: unknown, session: WorkerSession): never {
  const judged = classifyFailure(err, faultsOf(err, session, 'test'));
  const failure: FailureDetail = {
    message: firstLine(err),
    exchanges: session.recorder.test(),
    ...judged,
    ...throughOf(session.recorder.testThrough()),
  };
  metaOf(t).failure = failure;
  throw err;
}

const READONLY_SKIP = 'readonly profile: this test writes';
const STRICT_ONLY_SKIP = 'advisory check of an unspecified rule: runs in the strict profile only';

/** Skips for the profile: writes in readonly, advisory-only tests outside strict. */
function skipForProfile(t: TestContext, ctx: RuleContext, opts: RuleTestOptions): void {
  if (typeof opts.writes === 'object') {
    const reason = permanentWriteSkip(ctx.profile, ctx.target.permanentWrites, opts.writes.permanent);
    if (reason !== undefined) skipNow(t, reason);
  } else if (opts.writes && ctx.profile === 'readonly') skipNow(t, READONLY_SKIP);
  if (opts.strictOnly && !ctx.strict) skipNow(t, STRICT_ONLY_SKIP);
}

/**
 * A conformance test of `rules` (checked against the catalogue now, at collection): named `[ids] name`,
 * recording `task.meta.erpcert`. `fn` may call `ctx.skip(reason)` and `ctx.advise(text)`; what it throws is
 * the failure, with the test's exchanges.
 */
export function ruleTest(
  rules: RuleIds,
  name: string,
  fn: (ctx: RuleContext) => Promise<void> | void,
  opts: RuleTestOptions = {},
): void {
  const ids = ruleList(rules);
  const full = ruleTestName(ids, name);
  test(
    full,
    async (t) => {
      const { ctx, session } = begin(t, ids, full);
      try {
        skipForProfile(t, ctx, opts);
        try {
          await fn(ctx);
        } catch (err) {
          if (err instanceof SkipSignal) skipNow(t, err.message);
          fail(t, err, session);
        }
      } finally {
        end(t, session);
      }
    },
    opts.timeout,
  );
}

/** fast-check parameters from the run's settings: replay with seed and path, or a fresh non-negative seed. */
export function checkParameters(
  target: Pick<TargetConfig, 'runs' | 'seed' | 'path'>,
  numRuns: number,
): { numRuns: number; seed: number; path?: string; endOnFailure?: boolean } {
  const seed = target.seed ?? randomInt(0, 2 ** 31 - 1);
  if (target.path !== undefined)
    return { numRuns: target.runs ?? numRuns, seed, path: target.path, endOnFailure: true };
  return { numRuns: target.runs ?? numRuns, seed };
}

/** The failure record of a failed fast-check run. */
export function propertyFailure(details: fc.RunDetails<unknown>, exchanges: RecordedExchange[]): FailureDetail {
  const err = details.errorInstance;
  const message = err !== null && err !== undefined ? firstLine(err) : 'the property returned false';
  return {
    message,
    counterexample: fc.stringify(details.counterexample),
    seed: details.seed,
    ...(details.counterexamplePath !== null ? { path: details.counterexamplePath } : {}),
    shrinks: details.numShrinks,
    exchanges,
  };
}

/** The text vitest shows for a failed property: the rule's message, then what replays it. */
export function propertyFailureText(f: FailureDetail, details: fc.RunDetails<unknown>): string {
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : f.message;
  return [
    cause,
    `Counterexample: ${f.counterexample}`,
    `Shrunk ${f.shrinks ?? 0} time(s); replay with --seed ${f.seed}${f.path !== undefined ? ` --path ${f.path}` : ''}`,
  ].join('\n');
}

/**
 * A property over generated inputs, tagged with `rules`. `arbitraries` is the list of arbitraries, or a
 * function of the context that builds them once per test (to discover the target's data first; it may
 * skip). `predicate(ctx, ...values)` runs once per generated input and fails by throwing (a
 * ContractViolation) or returning false. Each run's exchanges are kept; a failure records the shrunk
 * counterexample, seed, path, shrinks and the exchanges of the run that produced it.
 */
export function ruleProperty<Ts extends [unknown, ...unknown[]]>(
  rules: RuleIds,
  name: string,
  arbitraries: Arbitraries<Ts> | ((ctx: RuleContext) => Arbitraries<Ts> | Promise<Arbitraries<Ts>>),
  /** Fails by throwing or by returning (or resolving to) `false`; any other result passes. */
  predicate: (ctx: RuleContext, ...values: Ts) => unknown,
  opts: RulePropertyOptions<Ts> = {},
): void {
  const ids = ruleList(rules);
  const full = ruleTestName(ids, name);
  test(
    full,
    async (t) => {
      const { ctx, session } = begin(t, ids, full);
      try {
        await runProperty(t, ctx, session);
      } finally {
        end(t, session);
      }
    },
    opts.timeout,
  );

  async function runProperty(t: TestContext, ctx: RuleContext, session: WorkerSession): Promise<void> {
    skipForProfile(t, ctx, opts);
    let arbs: Arbitraries<Ts>;
    let examples: readonly Ts[];
    try {
      arbs = typeof arbitraries === 'function' ? await arbitraries(ctx) : arbitraries;
      examples = typeof opts.examples === 'function' ? await opts.examples(ctx) : (opts.examples ?? []);
    } catch (err) {
      if (err instanceof SkipSignal) skipNow(t, err.message);
      fail(t, err, session);
    }
    let skipReason: string | undefined;
    let failing: RecordedExchange[] = [];
    let failingFaults: TargetFault[] = [];
    let failingThrough: string[] = [];
    // gate: a run is spent only while it can still observe a rule (gate-budget.ts); a replay runs as asked
    const gate =
      ctx.profile === 'gate' && ctx.target.path === undefined
        ? new GateBudget(ids, metaOf(t).decisive ?? {}, examples.length)
        : undefined;
    const property = fc.asyncProperty(...([...arbs] as unknown as Arbitraries<Ts>), async (...values: Ts) => {
      if (skipReason !== undefined) return true;
      if (gate && !gate.wanted(exampleMember(values))) return true;
      let failed = true;
      try {
        const ok = await runOnce(...values);
        failed = ok === false;
        return ok;
      } finally {
        gate?.ran(failed);
      }
    });
    async function runOnce(...values: Ts): Promise<boolean> {
      session.recorder.beginRun();
      nextRequestRun();
      try {
        const ok = await predicate(ctx, ...values);
        if (ok === false) {
          failing = session.recorder.run();
          failingFaults = session.recorder.runFaults();
          failingThrough = session.recorder.runThrough();
        }
        return ok !== false;
      } catch (err) {
        if (err instanceof SkipSignal) {
          skipReason = err.message;
          return true;
        }
        failingFaults = faultsOf(err, session, 'run');
        failing = session.recorder.run();
        failingThrough = session.recorder.runThrough();
        throw err;
      }
    }
    let details: fc.RunDetails<Ts>;
    try {
      const params = checkParameters(ctx.target, opts.numRuns ?? DEFAULT_NUM_RUNS);
      details = await fc.check(property, {
        ...params,
        numRuns: Math.max(params.numRuns, examples.length),
        examples: [...examples],
      });
    } catch (err) {
      // a replay (`--seed S --path P`) selects every test of a rule; the path fits only the property it came from
      if (ctx.target.path !== undefined && err instanceof Error && err.message.startsWith('Unable to replay'))
        skipNow(t, `replay: the path ${ctx.target.path} belongs to another property than this one`);
      throw err;
    }
    if (skipReason !== undefined) skipNow(t, skipReason);
    if (details.failed) {
      const judged = classifyFailure(details.errorInstance, failingFaults);
      const failure = {
        ...propertyFailure(details as fc.RunDetails<unknown>, failing),
        ...judged,
        ...throughOf(failingThrough),
      };
      metaOf(t).failure = failure;
      throw new Error(propertyFailureText(failure, details as fc.RunDetails<unknown>), {
        cause: details.errorInstance,
      });
    }
  }
}
