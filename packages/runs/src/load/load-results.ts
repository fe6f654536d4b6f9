/**
 * The document `erpcert load` writes as `results.json`; its layout is documented by `load-results.schema.json`
 * beside this file (checked with ajv in the tests). Every figure of a scenario is the engine's
 * `LoadScenarioResult` (load/k6/scenarios/catalogue.ts), plus the documented figure and the comparison.
 */
import type { DocumentedFigure, Latency, LimitedBy, LoadScenarioResult } from '@erpcert/load-k6';

/** `results.json` schema id; a reader refuses other values. */
export const LOAD_RESULTS_SCHEMA = 'erpcert-load-results/1';

/** Documented vs measured, as the verdict table shows it. */
export interface FigureComparison {
  /** The documented figure in words (record-rest-api.md §8), or "none". */
  readonly documented: string;
  /** The measured figure in words. */
  readonly measured: string;
  /**
   * How many times the documented figure was reached: achieved rate / documented minimum for rates, documented
   * seconds / measured seconds for reads (above 1 is better than documented); null without a documented figure.
   */
  readonly ratio: number | null;
  /** Documented bytes per record (reads: documented bytes / records), null when the docs give no size. */
  readonly documentedBytesPerRecord: number | null;
}

/**
 * Latency percentiles as a results.json holds them: erpcert measures p95 since the version that added it, so a run
 * of an older version has none. A reader says "not recorded" where p95 is undefined, never 0.
 */
export type RecordedLatency = Omit<Latency, 'p95'> & { readonly p95?: number };

/** One scenario of a run: the engine's result, what the docs say, and the comparison. */
export interface LoadScenarioEntry extends Omit<LoadScenarioResult, 'latencyMs'> {
  readonly latencyMs: RecordedLatency;
  readonly title: string;
  readonly api: 'rest' | 'portal';
  readonly documented: DocumentedFigure;
  readonly comparison: FigureComparison;
  /** Verdict of the stepped saturation run (information: the exit code follows `verdict`). */
  readonly saturationVerdict?: SaturationVerdict;
}

/** The stepped run's verdict and what stopped its steps. */
export interface SaturationVerdict {
  readonly verdict: 'pass' | 'fail' | 'info';
  readonly reason: string;
  /** target: a step broke while the generator had room; generator: the generator was the limit; step-limit: none broke. */
  readonly limitedBy: LimitedBy;
  /** The measured figures behind `limitedBy`. */
  readonly evidence: string;
  /** What to do when the generator was the limit. */
  readonly advice?: string;
}

/** Where the run went and how it was set up. */
export interface LoadTargetInfo {
  readonly url: string;
  readonly embedded: boolean;
  /** Demo data size of the embedded server, null for a --target. */
  readonly seedSize: number | null;
  readonly user: string | null;
  readonly compcode: number | null;
  readonly companyIn: 'query' | 'path';
  readonly portalPath: string;
}

export interface LoadRunSettings {
  readonly scenarios: readonly string[];
  readonly durationSeconds: number;
  /** The --rate override, null for each scenario's default. */
  readonly rate: number | null;
  readonly pauseMs: number;
  readonly batchSizes: readonly number[];
  readonly timeoutMs: number;
  /** The stepped saturation runs, null when off. */
  readonly saturation: {
    readonly stages: number;
    readonly stageSeconds: number;
    readonly maxRate: number | null;
  } | null;
}

/** One figure of the baseline comparison. */
export interface FigureChange {
  readonly scenario: string;
  /** e.g. `achievedRate`, `latencyMs.p99`, `read.seconds`. */
  readonly figure: string;
  readonly before: number;
  readonly after: number;
  /** (after - before) / before; null when before is 0. */
  readonly change: number | null;
  /** better, worse or same, by the figure's direction (rates up, times and errors down). */
  readonly direction: 'better' | 'worse' | 'same';
}

export interface BaselineComparison {
  /** The baseline folder as given. */
  readonly dir: string;
  readonly startedAt: string;
  readonly engine: string;
  readonly changes: readonly FigureChange[];
  /** Scenarios of this run the baseline does not have, and the other way round. */
  readonly onlyHere: readonly string[];
  readonly onlyThere: readonly string[];
}

export interface LoadRunDocument {
  readonly schema: typeof LOAD_RESULTS_SCHEMA;
  readonly tool: { readonly name: 'erpcert'; readonly version: string };
  readonly run: {
    readonly startedAt: string;
    readonly finishedAt: string;
    readonly durationSeconds: number;
    readonly engine: 'k6' | 'autocannon';
    /** Why this engine (chosen, or the fallback when k6 is not built). */
    readonly engineNote: string;
    readonly target: LoadTargetInfo;
    readonly settings: LoadRunSettings;
    /** The command line that repeats the run (no password). */
    readonly command: string;
    /** pass: every threshold held; fail: one did not; error: the run could not be completed. */
    readonly outcome: 'pass' | 'fail' | 'error';
    readonly exitCode: 0 | 1 | 2;
    readonly interrupted: boolean;
  };
  readonly scenarios: readonly LoadScenarioEntry[];
  readonly baseline: BaselineComparison | null;
  /** Things that went wrong beside the verdicts (a scenario whose setup failed, an unreadable baseline). */
  readonly problems: readonly string[];
}
