/**
 * The load scenarios and the documented figures they are measured against (record-rest-api.md §8 "Limits").
 * Plain data with no imports: k6 scripts import it relatively, Node code (autocannon, the CLI) through
 * `@erpcert/load-k6`. Both engines run the same scenarios and produce the same `LoadScenarioResult`.
 */

/** What the docs say a scenario should reach, in the docs' own words and figures. */
export interface DocumentedFigure {
  /** Verbatim row of the Limits table (or "none": no documented figure). */
  readonly quote: string;
  /** Rule id in specs/rules.yaml. */
  readonly rule?: string;
  /** Records created per second the docs give ("3 to 4" -> min 3, max 4). */
  readonly ratePerSecond?: { readonly min: number; readonly max: number };
  /** Seconds to read `records` records, and the response size in bytes, as documented. */
  readonly read?: { readonly records: number; readonly seconds: number; readonly bytes: number };
}

export interface LoadScenario {
  readonly name: string;
  readonly title: string;
  readonly api: 'rest' | 'portal';
  readonly documented: DocumentedFigure;
}

export const scenarios = [
  {
    name: 'invoices',
    title: 'Confirmed 1-row sales invoices (form POST with set_field.OKFlag=1)',
    api: 'rest',
    documented: {
      quote: 'Throughput, 1-row invoices with confirmation | 3 to 4 per second',
      rule: 'REST.LIMITS.THROUGHPUT_CONFIRMED_INVOICES',
      ratePerSecond: { min: 3, max: 4 },
    },
  },
  {
    name: 'transactions',
    title: '2-row journal entries (TRVc, form POST)',
    api: 'rest',
    documented: {
      quote: 'Throughput, creating 2-row financial transactions | about 10 per second',
      rule: 'REST.LIMITS.THROUGHPUT_FINANCIAL',
      ratePerSecond: { min: 10, max: 10 },
    },
  },
  {
    name: 'read-raw',
    title: 'Reading 10,000 journal entries, all fields, in offset/limit batches',
    api: 'rest',
    documented: {
      quote: 'Reading 10,000 transactions, raw | about 10 seconds, about 30 MB',
      rule: 'REST.LIMITS.READ_RAW',
      read: { records: 10_000, seconds: 10, bytes: 30_000_000 },
    },
  },
  {
    name: 'read-fields',
    title: 'Reading 10,000 journal entries, 10 fields, in offset/limit batches',
    api: 'rest',
    documented: {
      quote: 'Reading 10,000 transactions, 10 fields | about 7 seconds, about 4 MB',
      rule: 'REST.LIMITS.READ_TEN_FIELDS',
      read: { records: 10_000, seconds: 7, bytes: 4_000_000 },
    },
  },
  {
    name: 'sync',
    title: 'Incremental synchronisation through updates_after',
    api: 'rest',
    documented: { quote: 'none: the docs give no throughput for updates_after' },
  },
  {
    name: 'portal-mix',
    title: 'Portal mix: lookups, list pages and document generation with HSESSION reuse',
    api: 'portal',
    documented: { quote: 'none: the docs give no throughput for the portal API' },
  },
] as const satisfies readonly LoadScenario[];

export type ScenarioName = (typeof scenarios)[number]['name'];

/** Latency percentiles in milliseconds. */
export interface Latency {
  readonly p50: number;
  readonly p90: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

/** One scenario's outcome, the same shape from k6 and from autocannon. */
export interface LoadScenarioResult {
  readonly scenario: ScenarioName;
  readonly engine: 'k6' | 'autocannon';
  /** Offered rate (arrivals per second) for rate scenarios. */
  readonly offeredRate?: number;
  /** Achieved rate of successful, checked operations per second. */
  readonly achievedRate?: number;
  /** For reads: seconds to read `records` records, and the bytes received. */
  readonly read?: ReadFigure;
  /** For reads at several batch sizes: one entry per size (`read` is then the slowest or first failed one). */
  readonly reads?: readonly ReadFigure[];
  readonly bytesPerRecord?: number;
  readonly latencyMs: Latency;
  readonly requests: number;
  /** Failed requests plus failed response checks (a fast error is not throughput). */
  readonly errors: number;
  readonly droppedIterations: number;
  readonly durationSeconds: number;
  /** pass: the documented figure is reached; fail: it is not (with the reason); info: no documented figure. */
  readonly verdict: 'pass' | 'fail' | 'info';
  readonly reason: string;
  /** Saturation steps: offered rate -> achieved rate, p99, errors, in the order they ran. */
  readonly saturation?: readonly SaturationStep[];
  /** What stopped the saturation steps, with the evidence (stepped runs only). */
  readonly saturationLimit?: SaturationLimit;
  /** Response checks that held and that failed. */
  readonly checks?: { readonly passes: number; readonly fails: number };
  /** The gating thresholds of the run and whether each held (k6 writes one JUnit testcase per entry). */
  readonly thresholds?: readonly {
    readonly metric: string;
    readonly expression: string;
    readonly title: string;
    readonly ok: boolean;
  }[];
}

/** One paced read of `records` records in offset/limit batches of `batch`. */
export interface ReadFigure {
  readonly records: number;
  /** Sum of the request times (the measured read time; the documented pauses are not in it). */
  readonly seconds: number;
  readonly bytes: number;
  readonly batch: number;
  /** Wall time of the whole read with the pauses between requests (record-rest-api.md §4 rule 12). */
  readonly pacedSeconds?: number;
}

/** What stopped the saturation steps: the target broke, the load generator was the limit, or the top step ran. */
export type LimitedBy = 'target' | 'generator' | 'step-limit';

/** The generator's own load during one step, measured (not guessed). */
export interface GeneratorLoad {
  /** CPU time of the generator per wall-clock second of the step (1 = one core busy all the time). */
  readonly cpuCores: number;
  /** Cores the generator can use: one per worker (autocannon: its one thread; k6: its GOMAXPROCS). */
  readonly workers: number;
  /** Generator CPU microseconds per operation of the step. */
  readonly cpuMicrosPerOp?: number;
  /** autocannon: mean event-loop delay beyond the timer resolution, ms (late sends). */
  readonly eventLoopDelayMs?: number;
  /** k6: "Insufficient VUs" warnings during the step. */
  readonly insufficientVUs?: number;
  /**
   * Busy cores of the whole machine over the step (Linux /proc/stat: everything but idle and iowait, per
   * wall-clock second; the generator, the target when it runs here, and everything else). Absent elsewhere.
   */
  readonly machineBusyCores?: number;
  /** Cores of the machine the busy figure counts (the `cpuN` lines of /proc/stat). */
  readonly machineCores?: number;
  /**
   * CPU time of the target per wall-clock second of the step, when erpcert can read it (the embedded reference
   * server's thread, /proc/<pid>/task/<tid>/stat); absent for a remote target.
   */
  readonly targetCpuCores?: number;
}

/** One saturation step. */
export interface SaturationStep {
  readonly offered: number;
  readonly achieved: number;
  readonly p99: number;
  readonly errors: number;
  /** Iterations the generator could not start at this step. */
  readonly dropped?: number;
  /** geometric: the doubling steps; refine: the bisection between the last good and the first broken step. */
  readonly phase?: 'geometric' | 'refine';
  readonly generator?: GeneratorLoad;
}

/** Why the steps stopped, in words a reader can check against the steps. */
export interface SaturationLimit {
  readonly limitedBy: LimitedBy;
  readonly evidence: string;
  /** What to do when the generator was the limit. */
  readonly advice?: string;
}
