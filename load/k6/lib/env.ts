/**
 * The run's settings, read once from `__ENV` (k6 passes the process environment and every `-e NAME=value`).
 * The names are the CLI's `ERPCERT_<FLAG>` names (DESIGN.md "Command-line contract"); the password is read here
 * and never put into a tag, a log line or the summary.
 */

/** Settings every scenario reads. */
export interface RunSettings {
  /** Base URL of the ERP, without a trailing slash ('' when unset: setup() stops the run). */
  readonly target: string;
  /**
   * The address every connection goes to instead of resolving the target's host (ERPCERT_CONNECT_ADDRESS: the hub's
   * target guard checked it and pins the run to it); absent: k6 resolves the host itself.
   */
  readonly connectAddress?: string;
  readonly user: string;
  readonly password: string;
  /** REST company placement: `/api/1/X?compcode=N` (query) or `/api/N/X` (path); record-rest-api.md §4 rule 8. */
  readonly companyIn: 'query' | 'path';
  /** Company code; when absent none is sent (the target's default company), as the autocannon engine does. */
  readonly compcode?: number;
  /** Portal endpoint; real deployments often use `/WebExcellentAPI.hal` (DESIGN.md). */
  readonly portalPath: string;
  readonly compno?: string;
  readonly usercode?: string;
  /** Offered arrivals per second (rate scenarios). */
  readonly rate?: number;
  /** Seconds of the measured window (rate scenarios). */
  readonly durationSeconds: number;
  /** Timeout of one HTTP request in milliseconds. */
  readonly timeoutMs: number;
  readonly maxVUs?: number;
  /** Folder handleSummary writes into ('' = the working directory). */
  readonly outDir: string;
  /** Tag written into the records this run creates (DESIGN.md "Running against somebody's staging ERP"). */
  readonly runId: string;
  readonly saturation?: SaturationSettings;
  /** k6 instances sharing the run (k6-operator `parallelism`); each judges its share. */
  readonly parallelism: number;
  /** Print the JSON summary to stdout too (runner pods whose files nobody collects). */
  readonly summaryToStdout: boolean;
  /** Full checks (a parse) on every n-th iteration; the others get the cheap check (lib/quick-check.ts). */
  readonly fullCheckEvery: number;
}

/** The stepped variant: `stages` constant-rate steps of `stageSeconds`, from `start` up by `step`. */
export interface SaturationSettings {
  readonly start: number;
  readonly step: number;
  readonly stages: number;
  readonly stageSeconds: number;
  /** A step whose p99 exceeds this many milliseconds has broken. */
  readonly p99LimitMs: number;
}

/** Reads a string setting; `fallback` when unset or empty. */
export function envString(name: string, fallback: string): string {
  const value = __ENV[name];
  return value === undefined || value === '' ? fallback : value;
}

/** Reads an optional string setting. */
export function envOptional(name: string): string | undefined {
  const value = __ENV[name];
  return value === undefined || value === '' ? undefined : value;
}

/** Reads a positive number; a malformed value stops the run in the init context with a message naming it. */
export function envNumber(name: string, fallback: number): number {
  const raw = envOptional(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0, got "${raw}"`);
  return value;
}

/** Reads a comma-separated list of positive integers. */
export function envIntegers(name: string, fallback: readonly number[]): number[] {
  const raw = envOptional(name);
  if (raw === undefined) return [...fallback];
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v <= 0)) {
    throw new Error(`${name} must be a comma-separated list of positive integers, got "${raw}"`);
  }
  return values;
}

/** Reads the common settings; `defaults` gives the scenario's own defaults for rate and duration. */
export function readSettings(defaults: { rate?: number; durationSeconds: number }): RunSettings {
  // may be unset while `k6 archive` evaluates the script; setup() refuses to start without it (requireTarget)
  const target = envString('ERPCERT_TARGET', '');
  const companyIn = envString('ERPCERT_COMPANY_IN', 'query');
  if (companyIn !== 'query' && companyIn !== 'path') {
    throw new Error(`ERPCERT_COMPANY_IN must be "query" or "path", got "${companyIn}"`);
  }
  const portalPath = envString('ERPCERT_PORTAL_PATH', '/WebErpAPI.hal');
  const saturation = envString('ERPCERT_SATURATION', '') === '1';
  const rate = defaults.rate === undefined ? undefined : envNumber('ERPCERT_RATE', defaults.rate);
  const maxVUs = envOptional('ERPCERT_MAX_VUS');
  return {
    target: target.replace(/\/+$/, ''),
    connectAddress: envOptional('ERPCERT_CONNECT_ADDRESS'),
    user: envString('ERPCERT_USER', 'erpcert'),
    password: envString('ERPCERT_PASSWORD', 'erpcert'),
    companyIn,
    compcode: envOptional('ERPCERT_COMPCODE') === undefined ? undefined : envNumber('ERPCERT_COMPCODE', 0),
    portalPath: portalPath.startsWith('/') ? portalPath : `/${portalPath}`,
    compno: envOptional('ERPCERT_COMPNO'),
    usercode: envOptional('ERPCERT_USERCODE'),
    rate,
    durationSeconds: envNumber('ERPCERT_DURATION', defaults.durationSeconds),
    timeoutMs: envNumber('ERPCERT_TIMEOUT_MS', 10_000),
    maxVUs: maxVUs === undefined ? undefined : envNumber('ERPCERT_MAX_VUS', 0),
    outDir: envString('ERPCERT_OUT', ''),
    runId: envString('ERPCERT_RUN_ID', `k6-${Date.now().toString(36)}`),
    parallelism: Math.max(1, Math.round(envNumber('ERPCERT_PARALLELISM', 1))),
    summaryToStdout: envString('ERPCERT_SUMMARY_STDOUT', '') === '1',
    fullCheckEvery: Math.max(1, Math.round(envNumber('ERPCERT_FULL_CHECK_EVERY', 16))),
    saturation: saturation
      ? {
          start: envNumber('ERPCERT_SAT_START', rate ?? 1),
          step: envNumber('ERPCERT_SAT_STEP', rate ?? 1),
          stages: envNumber('ERPCERT_SAT_STAGES', 5),
          stageSeconds: envNumber('ERPCERT_SAT_STAGE_SECONDS', 10),
          p99LimitMs: envNumber('ERPCERT_SAT_P99_MS', 2_000),
        }
      : undefined,
  };
}
