import type { SaturationOptions, ScenarioName } from '@erpcert/load-k6';

export type { SaturationOptions } from '@erpcert/load-k6';

/**
 * Options of one scenario run: the names and meanings of the k6 engine's `K6ScenarioOptions`
 * (load/k6/src/run-options.ts), so that the CLI hands either engine the same object. k6-only options
 * (execution segments, the web dashboard, `k6Path`, `env`) are accepted and ignored.
 */
export interface LoadRunOptions {
  readonly scenario: ScenarioName;
  /** Base URL of the ERP (scheme, host, port, optional path prefix). */
  readonly target: string;
  /**
   * Connect to this address instead of resolving the target's host (the hub's target guard checked it once and
   * pins the run to it): the requests still carry the target's `Host`, and over TLS its name. @defaultValue the
   * target's host, resolved by each connection
   */
  readonly connectAddress?: string;
  readonly user?: string;
  readonly password?: string;
  /** When given, `<scenario>.autocannon.json` (the result and the raw measurement) is written here. */
  readonly outDir?: string;
  /** Rate scenarios: the measured window. @defaultValue 10 */
  readonly durationSeconds?: number;
  /** Offered operations per second. @defaultValue the documented maximum (invoices 4, transactions 10); sync 2; portal-mix 5 */
  readonly rate?: number;
  /** @defaultValue 'query' */
  readonly companyIn?: 'query' | 'path';
  /** REST company code (record-rest-api.md §4). @defaultValue not sent */
  readonly compcode?: number;
  /** @defaultValue '/WebErpAPI.hal' */
  readonly portalPath?: string;
  /** Portal company number (portal-action-api.md §1 "Global parameters"). @defaultValue not sent */
  readonly compno?: string;
  readonly usercode?: string;
  /** Portal country code (§1). @defaultValue not sent */
  readonly portalcc?: 'est' | 'lat';
  /** Timeout of one request. @defaultValue 10000 */
  readonly timeoutMs?: number;
  /** Most concurrent connections (k6: VUs). @defaultValue 64 */
  readonly maxVUs?: number;
  /** Reads: batch sizes, each a full read of `records`. @defaultValue [1000, 5000] (record-rest-api.md §8) */
  readonly batchSizes?: readonly number[];
  /** Reads: pause between batch requests. @defaultValue 1000 (§4 rule 12: "about one second") */
  readonly pauseMs?: number;
  /** Reads: records to read. @defaultValue 10000 */
  readonly records?: number;
  /**
   * Runs the stepped variant instead of the constant rate (rate scenarios): doubling from `start`, then bisection,
   * until the target breaks, the generator is the limit or `maxRate` ran (the shared StepPlan).
   */
  readonly saturation?: SaturationOptions;
  /**
   * CPU microseconds the target has used so far, when erpcert can read them (the embedded server's thread): each
   * saturation step then records the target's CPU beside the generator's. Undefined (or absent) for a remote target.
   */
  readonly targetCpuMicros?: () => number | undefined;
  /**
   * Full checks of every n-th response (count, run tag, OKFlag); the others get the cheap check (status, a
   * bounded look for `<error`). 1 checks every response in full. @defaultValue 16
   */
  readonly fullCheckEvery?: number;
  /** Tag written into the records the run creates. @defaultValue erpcert-load-<8 hex> */
  readonly runId?: string;
  /** Stop everything after this long. @defaultValue the scenario's bound plus 60 s */
  readonly hardTimeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Progress lines (no secrets). */
  readonly onOutput?: (text: string) => void;
}

/** Default offered rates of the scenarios without a documented rate (operations per second). */
export const DEFAULT_INFO_RATES = { sync: 2, 'portal-mix': 5 } as const;

/** The documented read batch bounds (record-rest-api.md §4 rule 12, §8 "Suggested batch size"). */
export const READ_BATCH = { min: 1000, max: 5000, defaults: [1000, 5000] } as const;

/** An option that cannot work: nothing was sent. */
export class LoadConfigError extends Error {
  override readonly name = 'LoadConfigError';
}

/** The target did not answer the setup requests (unreachable, refused credentials, no data). */
export class LoadTargetError extends Error {
  override readonly name = 'LoadTargetError';
}
