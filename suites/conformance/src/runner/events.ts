/**
 * The run's event stream. The vitest reporter (reporter.ts) is the only producer; the progress printer,
 * the results collector and the report writers subscribe (STYLE.md, schemathesis: "the engine emits a
 * uniform stream regardless of what is listening"), so adding a reporter never touches the runner.
 */
import type { FailureDetail, TargetFault, ThrottleCounts } from '../harness/meta.js';
import type { RuleVerdict } from './verdict.js';

/** The run begins: the test files it will load, relative to the suite root. */
export interface RunStartEvent {
  readonly type: 'run-start';
  /** ISO 8601 time. */
  readonly at: string;
  readonly files: readonly string[];
}

/** One test finished (or was filtered out by `--only`). */
export interface TestEvent {
  readonly type: 'test';
  /** Test file, relative to the suite root, `/`-separated. */
  readonly file: string;
  /** The test's own name, `[RULE.ID, ...] what it checks`. */
  readonly name: string;
  /** Suite names and test name joined by ` > `. */
  readonly fullName: string;
  /** Every rule id the test names: `task.meta.erpcert.rules` and the name's prefix, merged. */
  readonly rules: readonly string[];
  /** False when the test lies outside the `--only` selection: it did not run and judges nothing. */
  readonly selected: boolean;
  readonly state: 'passed' | 'failed' | 'skipped';
  /** One verdict per rule of {@link rules}; empty when not {@link selected}. */
  readonly verdicts: readonly RuleVerdict[];
  /** Skip reason, advisory or failure message. */
  readonly reason?: string;
  /** What the harness recorded about a failure (counterexample, seed, path, masked exchanges). */
  readonly failure?: FailureDetail;
  /** vitest's error messages, for a failed test. */
  readonly errors: readonly string[];
  /** Checks per rule that asserted against target data (any rule, tagged or not); empty when not selected. */
  readonly observations: Readonly<Record<string, number>>;
  /**
   * Of those, the decisive ones per rule: the data reached the case that separates a right server from a wrong
   * one (harness observations.ts). Absent from events written before it existed: read as `observations`.
   */
  readonly decisive?: Readonly<Record<string, number>>;
  /** Faults of the target seen during the test (5xx, no answer, a body that does not parse), with evidence. */
  readonly faults: readonly TargetFault[];
  /** Throttled answers the test met (429, or 503 with `Retry-After`); absent when none. */
  readonly throttling?: ThrottleCounts;
  /**
   * The behaviours (rule ids, harness/through.ts) the test's requests passed data through; absent when none. A
   * failure's own, of its failing run, are `failure.through`.
   */
  readonly through?: readonly string[];
  readonly durationMs?: number;
}

/** A test file finished; `errors` are the ones outside any test (the file did not load, a hook threw). */
export interface ModuleEndEvent {
  readonly type: 'module-end';
  readonly file: string;
  readonly errors: readonly string[];
}

/** The run is over. `errors` are vitest's unhandled errors. */
export interface RunEndEvent {
  readonly type: 'run-end';
  readonly at: string;
  readonly reason: 'passed' | 'failed' | 'interrupted';
  readonly errors: readonly string[];
}

export type RunEvent = RunStartEvent | TestEvent | ModuleEndEvent | RunEndEvent;

/** A subscriber; may be async (vitest awaits the reporter, and the reporter awaits every listener in turn). */
export type RunListener = (event: RunEvent) => void | Promise<void>;

/** The bus the reporter emits on. Listeners run in subscription order; one that throws does not stop the others. */
export class RunEvents {
  readonly #listeners: RunListener[] = [];
  readonly #failures: { listener: number; event: RunEvent['type']; error: string }[] = [];

  /** Adds a listener; returns a function that removes it. */
  on(listener: RunListener): () => void {
    this.#listeners.push(listener);
    return () => {
      const i = this.#listeners.indexOf(listener);
      if (i >= 0) this.#listeners.splice(i, 1);
    };
  }

  async emit(event: RunEvent): Promise<void> {
    for (const [i, listener] of this.#listeners.entries()) {
      try {
        await listener(event);
      } catch (err) {
        this.#failures.push({
          listener: i,
          event: event.type,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
  }

  /** Errors thrown by listeners, so that a broken reporter is reported instead of silently losing output. */
  get listenerErrors(): readonly string[] {
    return this.#failures.map((f) => `listener ${f.listener} on ${f.event}: ${f.error}`);
  }
}
