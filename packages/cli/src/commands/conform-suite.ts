/**
 * Step 2 of `erpcert conform` (suite): the test workers' environment, the run's events feeding the results
 * collector and the progress line, Ctrl-C handling, and the vitest run itself.
 */
import type { Masker } from '@erpcert/client';
import { getRule } from '@erpcert/contract';
import { ResultsCollector } from '../reports/collector.js';
import { eventsFileListener } from '../reports/events-file.js';
import { ProgressPrinter } from '../reports/progress.js';
import type { ReplayBase } from '../reports/replay.js';
import { RunEvents, type SuiteRunResult, TARGET_ENV, type TargetConnection } from '../reports/runner.js';
import { maskData } from '../reports/secrets.js';
import { type ConformSettings, EMBEDDED_DEFAULT, permanentWritesOf } from './conform-settings.js';
import { otherCompany } from './conform-target.js';

/** The environment of the test workers (src/harness/meta.ts TARGET_ENV). */
export function workerEnv(
  s: ConformSettings,
  conn: TargetConnection,
  runTag: string,
  ledger: string,
  disposable = false,
): Record<string, string> {
  const embedded = s.target === undefined;
  const env: Record<string, string | number | undefined> = {
    [TARGET_ENV.target]: conn.url,
    [TARGET_ENV.user]: conn.user,
    [TARGET_ENV.password]: conn.password,
    [TARGET_ENV.compcode]: conn.compcode,
    [TARGET_ENV.otherCompcode]: otherCompany(s, conn),
    [TARGET_ENV.usercode]: s.usercode ?? (embedded ? EMBEDDED_DEFAULT.usercode : undefined),
    [TARGET_ENV.unokUsercode]: s.unokUsercode ?? (embedded ? EMBEDDED_DEFAULT.unokUsercode : undefined),
    [TARGET_ENV.limitedUsercode]: s.limitedUsercode ?? (embedded ? EMBEDDED_DEFAULT.limitedUsercode : undefined),
    [TARGET_ENV.portalcc]: s.portalcc,
    [TARGET_ENV.portalPath]: s.portalPath,
    [TARGET_ENV.companyIn]: s.companyIn,
    [TARGET_ENV.profile]: s.profile,
    [TARGET_ENV.runs]: s.runs,
    [TARGET_ENV.seed]: s.seed,
    [TARGET_ENV.path]: s.path,
    [TARGET_ENV.runTag]: runTag,
    [TARGET_ENV.ledger]: ledger,
    [TARGET_ENV.pace]: s.pace,
    [TARGET_ENV.maxRetries]: s.maxRetries,
    [TARGET_ENV.maxRetryWait]: s.maxRetryWait,
    [TARGET_ENV.fixturePrefix]: s.fixturePrefix,
    // set (empty: no guard, the embedded server) so that a value inherited from the environment never applies
    [TARGET_ENV.targetGuard]: s.targetGuard?.spec ?? '',
    // always set, so that a value inherited from the shell never opts in
    [TARGET_ENV.permanentWrites]: permanentWritesOf(s, disposable),
  };
  return Object.fromEntries(Object.entries(env).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
}

/** The run options a replay command repeats (secrets left out). */
export function replayBaseOf(s: ConformSettings): ReplayBase {
  return {
    target: s.target,
    user: s.user,
    compcode: s.compcode,
    otherCompcode: s.otherCompcode,
    usercode: s.usercode,
    unokUsercode: s.unokUsercode,
    limitedUsercode: s.limitedUsercode,
    portalcc: s.portalcc,
    portalPath: s.portalPath,
    companyIn: s.companyIn,
    profile: s.profile,
    runs: s.runs,
    fixturePrefix: s.fixturePrefix,
    allowPermanentWrites: s.target !== undefined && s.allowPermanentWrites,
  };
}

/** The run's events, subscribed to by the results collector and the progress line, both fed masked data. */
export function listenToRun(
  s: ConformSettings,
  replay: ReplayBase,
  masker: Masker,
  err: { write(text: string): unknown },
  isTTY: boolean,
  eventsFile?: string,
): { readonly events: RunEvents; readonly collector: ResultsCollector } {
  const events = new RunEvents();
  const collector = new ResultsCollector(s.scope, getRule, replay);
  // every event is masked as data before anything reads it: the document, its curl lines and the progress
  const progress = new ProgressPrinter(err, isTTY);
  events.on((e) => collector.listener(maskData(masker, e)));
  events.on((e) => progress.listener(maskData(masker, e)));
  if (eventsFile !== undefined) {
    const write = eventsFileListener(eventsFile, new Set(s.scope.map((r) => r.id)));
    events.on((e) => write(maskData(masker, e)));
  }
  return { events, collector };
}

/** Where the interrupt of a run comes from and how it is announced. */
export interface InterruptOptions {
  /** Listen for SIGINT/SIGTERM. */
  readonly signals: boolean;
  /** Aborting interrupts the run like Ctrl-C. */
  readonly signal?: AbortSignal;
  readonly ledger: string;
  readonly say: (line: string) => void;
}

/**
 * Runs `body` with an abort signal that the first Ctrl-C (or `options.signal`) fires; a second Ctrl-C exits at
 * once. The handlers are removed when `body` settles.
 */
export async function withInterrupts<T>(
  options: InterruptOptions,
  body: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (abort.signal.aborted) {
      // a second Ctrl-C: stop at once; the ledger lists what the run created
      options.say(
        `${signal} again: exiting without cleanup; the records this run created are listed in ${options.ledger}`,
      );
      process.exit(2);
    }
    options.say(
      `${signal}: stopping the tests, then cleaning up and writing what is known (Ctrl-C again: exit at once)`,
    );
    abort.abort();
  };
  if (options.signal?.aborted) abort.abort();
  else options.signal?.addEventListener('abort', () => abort.abort(), { once: true });
  if (options.signals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  try {
    return await body(abort.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** What the suite step gives back: vitest's result and the errors of the run itself. */
export interface SuiteStep {
  readonly result: SuiteRunResult;
  readonly errors: readonly string[];
}

/** Runs the conformance suite (or `include`'s files) against the connection; never throws. */
export async function runSuiteStep(
  s: ConformSettings,
  conn: TargetConnection,
  run: {
    readonly runTag: string;
    readonly ledger: string;
    readonly events: RunEvents;
    readonly signal: AbortSignal;
    readonly include?: readonly string[];
    /** The target goes with the run (ConformHooks.disposableTarget). */
    readonly disposable?: boolean;
  },
): Promise<SuiteStep> {
  try {
    // loaded here: vitest's Node API takes seconds to import, and only this command needs it
    const { runSuite } = await import('../reports/run-suite.js');
    const result = await runSuite({
      env: workerEnv(s, conn, run.runTag, run.ledger, run.disposable === true),
      profile: s.profile,
      events: run.events,
      selected: s.only !== undefined ? s.scope.map((r) => r.id) : undefined,
      // a selection runs few tests: one worker boots (imports client, contract, harness) once instead of
      // twice, which is faster; the whole suite spreads over the config's two workers
      maxWorkers: s.only !== undefined ? 1 : undefined,
      shard: s.shard,
      signal: run.signal,
      include: run.include,
    });
    return { result, errors: result.errors };
  } catch (err) {
    return {
      result: { reason: 'interrupted', errors: [] },
      errors: [`the suite could not run: ${(err as Error).message}`],
    };
  }
}
