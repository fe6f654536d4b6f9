import { basename, isAbsolute, relative, resolve } from 'node:path';
import { parseTargetGuard, type TargetGuard } from '@erpcert/contract';
import { type OptionValues, UsageError } from '../options.js';
import { defaultReportDir, int, str, targetUrl } from '../settings-common.js';
import { type ScenarioName, scenarios } from './engines.js';

/** The checked settings of one `erpcert load` run. */
export interface LoadSettings {
  readonly target?: string;
  /** `--target-guard`: the hub's SSRF allow-list as given, and parsed; with --target only. */
  readonly targetGuard?: { readonly spec: string; readonly guard: TargetGuard };
  readonly user?: string;
  readonly password?: string;
  readonly compcode?: number;
  readonly usercode?: string;
  readonly portalcc?: 'est' | 'lat';
  readonly portalPath: string;
  readonly companyIn: 'query' | 'path';
  readonly scenarios: readonly ScenarioName[];
  /** The engine asked for; undefined picks k6 when it is built, else autocannon. */
  readonly engine?: 'k6' | 'autocannon';
  readonly durationSeconds: number;
  readonly rate?: number;
  readonly seedSize: number;
  readonly pauseMs: number;
  readonly batchSizes: readonly number[];
  readonly timeoutMs: number;
  /** Stepped saturation runs of the rate scenarios; undefined: on for the embedded server, off for a --target. */
  readonly saturation?: boolean;
  /** Top of the saturation steps (`--max-rate`). */
  readonly maxRate: number;
  /** Most saturation steps. */
  readonly saturationStages: number;
  readonly saturationStageSeconds: number;
  readonly dashboard: boolean;
  readonly baseline?: string;
  readonly outDir: string;
}

/** Seconds per rate scenario without --duration: long enough for a few dozen operations at 3-10/s. */
export const DEFAULT_DURATION = 10;
/** The longest --duration: every run is bounded. */
export const MAX_DURATION = 3600;
/** Top of the saturation steps without --max-rate: high, so that the target or the generator stops them first. */
export const DEFAULT_MAX_RATE = 100_000;
/** Demo data of the embedded server: 10,000 journal entries for the documented 10,000-record reads. */
export const DEFAULT_SEED_SIZE = 10_000;

/** `all`, one name, or names separated by commas. */
export function parseScenarios(text: string): ScenarioName[] {
  const names = scenarios.map((s) => s.name);
  if (text === 'all') return [...names];
  const picked = text.split(',').map((s) => s.trim());
  const unknown = picked.filter((p) => !names.includes(p as ScenarioName));
  if (unknown.length > 0 || picked.length === 0)
    throw new UsageError(
      `--scenario must be all or one of ${names.join(', ')} (comma for several), got ${JSON.stringify(text)}`,
    );
  return [...new Set(picked)] as ScenarioName[];
}

/** `1000,5000` -> [1000, 5000], each 1,000 to 5,000 (record-rest-api.md §4 rule 12). */
export function parseBatchSizes(text: string): number[] {
  const sizes = text.split(',').map((s) => Number(s.trim()));
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1000 || n > 5000))
    throw new UsageError(
      `--batch must be batch sizes of 1000 to 5000 records (record-rest-api.md §4 rule 12), comma-separated, got ${JSON.stringify(text)}`,
    );
  return sizes;
}

/** Checks the option values of `erpcert load`; throws UsageError with what to do (exit 2). */
export function loadSettings(values: OptionValues, cwd: string, now: Date): LoadSettings {
  const target = targetUrl(values.target);
  const positive = (name: string, max = Number.MAX_SAFE_INTEGER) => {
    const v = int(values[name]);
    if (v !== undefined && (v < 1 || v > max)) throw new UsageError(`--${name} must be 1 to ${max}, got ${v}`);
    return v;
  };
  const seedSize = int(values['seed-size']) ?? DEFAULT_SEED_SIZE;
  if (seedSize < 0) throw new UsageError(`--seed-size must be at least 0, got ${seedSize}`);
  if (target !== undefined && values['seed-size'] !== undefined)
    throw new UsageError('--seed-size sizes the embedded server; it does not apply with --target');
  const pauseMs = int(values['read-pause']) ?? 1000;
  if (pauseMs < 0 || pauseMs > 60_000) throw new UsageError(`--read-pause must be 0 to 60000 ms, got ${pauseMs}`);
  const engine = str(values.engine) as LoadSettings['engine'];
  const saturation = typeof values.saturation === 'boolean' ? values.saturation : undefined;
  const out = str(values.out);
  const portalcc = str(values.portalcc) as LoadSettings['portalcc'];
  const guardSpec = str(values['target-guard']);
  let targetGuard: LoadSettings['targetGuard'];
  if (guardSpec !== undefined)
    try {
      targetGuard = { spec: guardSpec, guard: parseTargetGuard(guardSpec) };
    } catch (err) {
      throw new UsageError((err as Error).message.replace('--allow-targets', '--target-guard'));
    }
  return {
    ...(target !== undefined ? { target } : {}),
    ...(target !== undefined && targetGuard !== undefined ? { targetGuard } : {}),
    ...(str(values.user) !== undefined ? { user: str(values.user)! } : {}),
    ...(typeof values.password === 'string' ? { password: values.password } : {}),
    ...(positive('compcode') !== undefined ? { compcode: positive('compcode')! } : {}),
    ...(str(values.usercode) !== undefined ? { usercode: str(values.usercode)! } : {}),
    ...(portalcc !== undefined ? { portalcc } : {}),
    portalPath: str(values['portal-path']) ?? '/WebErpAPI.hal',
    companyIn: values['company-in'] === 'path' ? 'path' : 'query',
    scenarios: parseScenarios(str(values.scenario) ?? 'all'),
    ...(engine !== undefined ? { engine } : {}),
    durationSeconds: positive('duration', MAX_DURATION) ?? DEFAULT_DURATION,
    ...(positive('rate', 100_000) !== undefined ? { rate: positive('rate', 100_000)! } : {}),
    seedSize,
    pauseMs,
    batchSizes: parseBatchSizes(str(values.batch) ?? '1000,5000'),
    timeoutMs: (positive('timeout', 600) ?? 10) * 1000,
    ...(saturation !== undefined ? { saturation } : {}),
    maxRate: positive('max-rate', 1_000_000) ?? DEFAULT_MAX_RATE,
    saturationStages: positive('saturation-stages', 50) ?? 20,
    saturationStageSeconds: positive('saturation-stage-seconds', 600) ?? 2,
    dashboard: values.dashboard === true,
    ...(str(values.baseline) !== undefined ? { baseline: resolve(cwd, str(values.baseline)!) } : {}),
    outDir: out !== undefined ? resolve(cwd, out) : defaultReportDir(cwd, 'load', now),
  };
}

/**
 * A folder as a report may show it: relative to the working directory when inside it, else its last name only
 * (no report shows a local path of the machine).
 */
export function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : basename(path);
}
