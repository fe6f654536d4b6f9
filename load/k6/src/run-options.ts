/**
 * The options of a k6 scenario run and how they reach the script: as `ERPCERT_*` variables in the child's
 * environment (lib/env.ts reads them from `__ENV`), never on the command line where `ps` would show them.
 */
import { join } from 'node:path';
import type { SaturationOptions } from '../lib/step-plan.js';
import type { LoadScenarioResult, ScenarioName } from '../scenarios/catalogue.js';
import { K6Error } from './errors.js';

/** Options of `runK6Scenario`. Only `scenario`, `target` and `outDir` are required. */
export interface K6ScenarioOptions {
  readonly scenario: ScenarioName;
  /** Base URL of the ERP (scheme, host, port, optional path prefix). */
  readonly target: string;
  /**
   * Connect to this address instead of resolving the target's host (the hub's target guard checked it once and pins
   * the run to it: the script's `hosts` option), and follow no redirect. @defaultValue k6 resolves the host
   */
  readonly connectAddress?: string;
  /** @defaultValue 'erpcert' */
  readonly user?: string;
  /** @defaultValue 'erpcert' (the reference server's) */
  readonly password?: string;
  /** Folder for `<scenario>.k6.json`, `.junit.xml` and `.md`; created when missing. */
  readonly outDir: string;
  /** Rate scenarios: the measured window. @defaultValue 10 */
  readonly durationSeconds?: number;
  /** Rate scenarios: offered arrivals per second. @defaultValue the documented maximum (invoices 4, transactions 10); sync 2; portal-mix 5 */
  readonly rate?: number;
  /** @defaultValue 'query' */
  readonly companyIn?: 'query' | 'path';
  /** REST company code (record-rest-api.md §4). @defaultValue not sent: the target's default company */
  readonly compcode?: number;
  /** @defaultValue '/WebErpAPI.hal' */
  readonly portalPath?: string;
  readonly compno?: string;
  readonly usercode?: string;
  /** Timeout of one request. @defaultValue 10000 */
  readonly timeoutMs?: number;
  /** Cap on VUs of the arrival-rate executors. @defaultValue rate x timeout x requests per iteration, at most 100 */
  readonly maxVUs?: number;
  /** Reads: batch sizes, each a full read of `records`. @defaultValue [1000, 5000] (record-rest-api.md §8) */
  readonly batchSizes?: readonly number[];
  /** Reads: pause between batch requests. @defaultValue 1000 (§4 rule 12: "about one second") */
  readonly pauseMs?: number;
  /** Reads: records to read. @defaultValue 10000 */
  readonly records?: number;
  /**
   * The stepped variant of a rate scenario: one short k6 run per step, doubling from `start`, then bisection,
   * until the target breaks, k6 is shown to be the limit or `maxRate` ran (lib/step-plan.ts).
   */
  readonly saturation?: SaturationOptions;
  /**
   * CPU microseconds the target has used so far, when erpcert can read them (the embedded server's thread): each
   * saturation step then records the target's CPU beside the generator's. Undefined (or absent) for a remote target.
   */
  readonly targetCpuMicros?: () => number | undefined;
  /** Full checks (a parse) of every n-th operation; the others get the cheap check. @defaultValue 16 */
  readonly fullCheckEvery?: number;
  /** k6 `--execution-segment` (for example `0:1/2`). */
  readonly executionSegment?: string;
  /** k6 `--execution-segment-sequence` (for example `0,1/2,1`). */
  readonly executionSegmentSequence?: string;
  /** Number of k6 instances sharing the run (segments): each judges its 1/N share (ERPCERT_PARALLELISM). */
  readonly parallelism?: number;
  /** Writes k6's web dashboard report (self-contained HTML) to this file; the dashboard port stays closed. */
  readonly webDashboardExport?: string;
  /** Tag written into the records the run creates. @defaultValue k6-<time> */
  readonly runId?: string;
  /** Further environment for k6: `ERPCERT_*` settings of the scripts (ERPCERT_CUSTCODE, ...) or `K6_*` options. */
  readonly env?: Readonly<Record<string, string>>;
  /** @defaultValue k6Path() */
  readonly k6Path?: string;
  /** Stop k6 after this long. @defaultValue the scenario's bound plus 60 s (see hardTimeoutMs) */
  readonly hardTimeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Receives k6's output as it comes (password masked). */
  readonly onOutput?: (text: string) => void;
}

/** Paths of a run's three output files. */
export function k6OutputFiles(
  outDir: string,
  scenario: ScenarioName,
): { json: string; junit: string; markdown: string } {
  return {
    json: join(outDir, `${scenario}.k6.json`),
    junit: join(outDir, `${scenario}.k6.junit.xml`),
    markdown: join(outDir, `${scenario}.k6.md`),
  };
}

function positive(name: string, value: number | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value <= 0) throw new K6Error('config', `${name} must be a number > 0, got ${value}`);
  return String(value);
}

/**
 * The child environment: the parent's, without its `ERPCERT_*` (so that nothing set for the CLI leaks into the
 * script unasked), plus the run's settings and the k6 switches that keep it offline and on loopback.
 */
/** One constant-rate step of a stepped run: what one k6 process offers. */
export interface K6Step {
  readonly rate: number;
  readonly seconds: number;
  readonly p99LimitMs: number;
}

export function k6Env(options: K6ScenarioOptions, step?: K6Step): NodeJS.ProcessEnv {
  let target: URL;
  try {
    target = new URL(options.target);
  } catch {
    throw new K6Error('config', `target "${options.target}" is not a URL`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new K6Error('config', `target "${options.target}" must be http or https`);
  }
  for (const size of options.batchSizes ?? []) {
    if (!Number.isInteger(size) || size <= 0)
      throw new K6Error('config', `batch size ${size} is not a positive integer`);
  }
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('ERPCERT_')) env[key] = value;
  }
  const settings: Record<string, string | undefined> = {
    ERPCERT_TARGET: options.target,
    ERPCERT_CONNECT_ADDRESS: options.connectAddress,
    ERPCERT_USER: options.user,
    ERPCERT_PASSWORD: options.password,
    ERPCERT_OUT: options.outDir,
    ERPCERT_DURATION: positive('durationSeconds', options.durationSeconds),
    ERPCERT_RATE: positive('rate', options.rate),
    ERPCERT_COMPANY_IN: options.companyIn,
    ERPCERT_COMPCODE: options.compcode === undefined ? undefined : String(options.compcode),
    ERPCERT_PORTAL_PATH: options.portalPath,
    ERPCERT_COMPNO: options.compno,
    ERPCERT_USERCODE: options.usercode,
    ERPCERT_TIMEOUT_MS: positive('timeoutMs', options.timeoutMs),
    ERPCERT_MAX_VUS: positive('maxVUs', options.maxVUs),
    ERPCERT_BATCH: options.batchSizes?.join(','),
    ERPCERT_PAUSE_MS: options.pauseMs === undefined ? undefined : String(Math.max(0, options.pauseMs)),
    ERPCERT_RECORDS: positive('records', options.records),
    ERPCERT_RUN_ID: options.runId,
    ERPCERT_PARALLELISM: positive('parallelism', options.parallelism),
    ERPCERT_FULL_CHECK_EVERY: positive('fullCheckEvery', options.fullCheckEvery),
    // a step of a stepped run: the script's one-stage saturation variant (lib/plan.ts)
    ERPCERT_SATURATION: step === undefined ? undefined : '1',
    ERPCERT_SAT_START: positive('step rate', step?.rate),
    ERPCERT_SAT_STEP: positive('step rate', step?.rate),
    ERPCERT_SAT_STAGES: step === undefined ? undefined : '1',
    ERPCERT_SAT_STAGE_SECONDS: positive('saturation.stageSeconds', step?.seconds),
    ERPCERT_SAT_P99_MS: positive('saturation.p99LimitMs', step?.p99LimitMs),
    ...options.env,
  };
  for (const [key, value] of Object.entries(settings)) if (value !== undefined) env[key] = value;
  env.K6_AUTO_EXTENSION_RESOLUTION = 'false';
  env.K6_NO_USAGE_REPORT = 'true';
  if (options.webDashboardExport !== undefined) {
    env.K6_WEB_DASHBOARD = 'true';
    env.K6_WEB_DASHBOARD_EXPORT = options.webDashboardExport;
    env.K6_WEB_DASHBOARD_PORT = '-1'; // no listening port: export only (k6 docs "Web dashboard")
  }
  return env;
}

/** The result of a run that produced no summary (k6 crashed, was stopped, or the script failed to load). */
export function failedResult(scenario: ScenarioName, reason: string, durationSeconds: number): LoadScenarioResult {
  return {
    scenario,
    engine: 'k6',
    latencyMs: { p50: 0, p90: 0, p95: 0, p99: 0, max: 0 },
    requests: 0,
    errors: 0,
    droppedIterations: 0,
    durationSeconds,
    verdict: 'fail',
    reason,
  };
}
