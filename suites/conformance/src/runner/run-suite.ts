import { dirname, join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { getRule } from '@erpcert/contract';
import { createVitest } from 'vitest/node';
import type { RunEvents } from './events.js';
import { ConformanceReporter } from './reporter.js';
import { namePatternFor } from './rule-tags.js';
import type { Profile } from './verdict.js';

/** The conformance suite's package folder (suites/conformance). */
export const suiteRoot: string = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The vitest config of conformance runs: it includes `properties/**\/*.prop.ts` only. */
export const conformConfigFile: string = join(suiteRoot, 'vitest.conform.config.ts');

/** How to run the suite once. */
export interface SuiteRunOptions {
  /** Environment of the test workers: the TARGET_ENV variables (src/harness/meta.ts). */
  readonly env: Readonly<Record<string, string>>;
  readonly profile: Profile;
  readonly events: RunEvents;
  /** The `--only` selection, rule ids; undefined runs every test. */
  readonly selected?: readonly string[] | undefined;
  /** vitest shard `i/n`: this machine runs the i-th of n parts of the test files. */
  readonly shard?: string | undefined;
  /** Aborting cancels the run: running tests finish, the rest do not start. */
  readonly signal?: AbortSignal | undefined;
  /** Test files instead of the config's `include` (the runner's own tests use fixtures). */
  readonly include?: readonly string[] | undefined;
  /** @defaultValue {@link suiteRoot} */
  readonly root?: string | undefined;
  /** @defaultValue {@link conformConfigFile} */
  readonly configFile?: string | undefined;
  /** Test workers; default: the config's `maxWorkers`. */
  readonly maxWorkers?: number | undefined;
}

/** How the run ended. */
export interface SuiteRunResult {
  readonly reason: 'passed' | 'failed' | 'interrupted';
  /** vitest's unhandled errors and anything vitest itself logged as an error. */
  readonly errors: readonly string[];
}

/** A stream that keeps what vitest would have printed (the CLI owns the terminal). */
function sink(into: string[]): Writable {
  return new Writable({
    write(chunk, _enc, done) {
      into.push(String(chunk));
      done();
    },
  });
}

/**
 * Runs the conformance tests once with vitest's Node API and the {@link ConformanceReporter}, which
 * emits the run's events on `options.events`. Tests outside `selected` are filtered by name before they
 * run (rule-tags.ts). vitest's own console output is kept out of the terminal; `process.exitCode`, which
 * vitest sets on failures, is restored.
 */
export async function runSuite(options: SuiteRunOptions): Promise<SuiteRunResult> {
  const root = options.root ?? suiteRoot;
  const selected = options.selected?.map((r) => r.toUpperCase());
  const reporter = new ConformanceReporter({
    events: options.events,
    profile: options.profile,
    selected: selected ? new Set(selected) : undefined,
    standingOf: (id) => getRule(id)?.standing,
    root,
  });
  const logged: string[] = [];
  const exitCode = process.exitCode;
  let interrupted = options.signal?.aborted === true;
  let endReason: SuiteRunResult['reason'] | undefined;
  const unhandled: string[] = [];
  const unsubscribe = options.events.on((e) => {
    if (e.type === 'run-end') {
      endReason = e.reason;
      unhandled.push(...e.errors);
    }
  });
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const ours = new Map(signals.map((sig) => [sig, new Set(process.listeners(sig))]));
  const vitest = await createVitest(
    'test',
    {
      root,
      config: options.configFile ?? conformConfigFile,
      watch: false,
      reporters: [reporter],
      env: { ...options.env },
      passWithNoTests: true,
      ...(options.include ? { include: [...options.include] } : {}),
      ...(selected ? { testNamePattern: namePatternFor(selected) } : {}),
      ...(options.shard ? { shard: options.shard } : {}),
      ...(options.maxWorkers ? { maxWorkers: options.maxWorkers } : {}),
    },
    {},
    { stdout: sink(logged), stderr: sink(logged) },
  );
  // vitest's logger exits the process 1 ms after SIGINT/SIGTERM; the caller stops the run through `signal`
  // and must clean up the target first, so those listeners go (vitest.close() would remove them anyway)
  for (const sig of signals) for (const l of process.listeners(sig)) if (!ours.get(sig)!.has(l)) process.off(sig, l);
  const cancel = () => {
    interrupted = true;
    void vitest.cancelCurrentRun('keyboard-input');
  };
  options.signal?.addEventListener('abort', cancel, { once: true });
  const errors: string[] = [];
  try {
    if (!interrupted) await vitest.start();
  } catch (err) {
    if ((err as { code?: unknown })?.code === 'VITEST_FILES_NOT_FOUND') {
      // no test file (or none in this shard): a run without tests, whose rules all stay untested
      await options.events.emit({ type: 'run-start', at: new Date().toISOString(), files: [] });
      await options.events.emit({ type: 'run-end', at: new Date().toISOString(), reason: 'passed', errors: [] });
    } else errors.push(`vitest could not run the suite: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    options.signal?.removeEventListener('abort', cancel);
    unsubscribe();
    await vitest.close();
    process.exitCode = exitCode;
  }
  errors.push(...unhandled);
  const reason = interrupted ? 'interrupted' : errors.length > 0 ? 'failed' : (endReason ?? 'passed');
  return { reason, errors };
}
