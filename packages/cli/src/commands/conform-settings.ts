import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import {
  rules as catalogue,
  matchRules,
  parseTargetGuard,
  type Rule,
  RuleGlobError,
  type TargetGuard,
} from '@erpcert/contract';
import { type OptionValues, UsageError } from '../options.js';
import { DEFAULT_FIXTURE_PREFIX, fixturePrefixProblem, type Profile } from '../reports/runner.js';
import { defaultReportDir, int, str, targetUrl } from '../settings-common.js';

/** Seed size of the embedded server: the same as `erpcert serve`, so both targets hold the same data. */
export const EMBEDDED_SEED_SIZE = 100;
/**
 * What the embedded server is run with unless flags say otherwise: its default login, company 1, and demo
 * company 2 to compare with, and demo users of its seed (packages/refserver/README.md "Demo users"): ADMIN may do everything (reports,
 * un-confirm), ACC may un-confirm, JD has neither (the refusals).
 */
export const EMBEDDED_DEFAULT = {
  user: 'erpcert',
  password: 'erpcert',
  compcode: 1,
  /** The second company of the demo data (refserver DEMO_COMPANIES): other names and prices, a tenth of the data. */
  otherCompcode: 2,
  usercode: 'ADMIN',
  unokUsercode: 'ACC',
  limitedUsercode: 'JD',
} as const;

/** Settings a run is made of, checked. */
export interface ConformSettings {
  readonly target?: string;
  readonly user?: string;
  readonly password?: string;
  readonly compcode?: number;
  /** A second company whose data differs (REST.QUERY.COMPCODE and PORTAL.GLOBAL.COMPNO compare the two). */
  readonly otherCompcode?: number;
  readonly usercode?: string;
  readonly unokUsercode?: string;
  readonly limitedUsercode?: string;
  readonly portalcc?: string;
  readonly portalPath: string;
  readonly companyIn: 'query' | 'path';
  readonly profile: Profile;
  readonly runs?: number;
  readonly seed?: number;
  readonly path?: string;
  readonly only?: string;
  readonly scope: readonly Rule[];
  readonly shard?: string;
  readonly pace?: number;
  /** `--max-retries`: resends of one request after throttled answers (429/503 with Retry-After). */
  readonly maxRetries?: number;
  /** `--max-retry-wait`: the longest single Retry-After wait, in seconds. */
  readonly maxRetryWait?: number;
  /** Prefix of the fixture set kept on the target (`--fixture-prefix`). */
  readonly fixturePrefix: string;
  readonly cleanup: boolean;
  /** Tests may make what the documented APIs cannot remove on a --target (`--allow-permanent-writes`). */
  readonly allowPermanentWrites: boolean;
  readonly timeoutMs: number;
  /** `--target-guard`: the hub's SSRF allow-list as given, and parsed; with --target only. */
  readonly targetGuard?: { readonly spec: string; readonly guard: TargetGuard };
  readonly outDir: string;
  /** `--baseline FILE`: the known-deviations file to apply, resolved, and as the user named it. */
  readonly baseline?: { readonly path: string; readonly name: string };
  /** `--write-baseline FILE`: the known-deviations file to add this run's FAILs to. */
  readonly writeBaseline?: { readonly path: string; readonly name: string };
  /** `--strict-baseline`: a listed rule that PASSes fails the run. */
  readonly strictBaseline: boolean;
  /** `--prune-baseline`: the listed rules that PASS are removed from the file after the run. */
  readonly pruneBaseline: boolean;
}

/** A file option resolved against `cwd`, with the name a report may show (relative; never a path of this machine outside it). */
function fileOption(value: unknown, cwd: string): { path: string; name: string } | undefined {
  const given = str(value);
  if (given === undefined) return undefined;
  const path = resolve(cwd, given);
  const rel = relative(cwd, path).split(sep).join('/');
  return { path, name: rel.startsWith('..') || isAbsolute(rel) ? basename(path) : rel };
}

/**
 * Whether the tests may make what the documented APIs cannot remove (suites/conformance permanent-writes.ts):
 * `embedded` for the embedded server or a target that goes with the run, `allowed` with --allow-permanent-writes,
 * else `refused` (they SKIP).
 */
export function permanentWritesOf(
  s: Pick<ConformSettings, 'target' | 'allowPermanentWrites'>,
  disposable: boolean,
): 'embedded' | 'allowed' | 'refused' {
  if (s.target === undefined || disposable) return 'embedded';
  return s.allowPermanentWrites ? 'allowed' : 'refused';
}

/** Checks the option values; throws UsageError with what to do (exit 2). */
export function conformSettings(values: OptionValues, cwd: string, now: Date): ConformSettings {
  const target = targetUrl(values.target);
  const positive = (name: string) => {
    const v = int(values[name]);
    if (v !== undefined && v < 1) throw new UsageError(`--${name} must be at least 1, got ${v}`);
    return v;
  };
  const runs = positive('runs');
  const compcode = positive('compcode');
  const otherCompcode = positive('other-compcode');
  if (otherCompcode !== undefined && target !== undefined && compcode === undefined)
    throw new UsageError('--other-compcode needs --compcode: the company of the run, to compare the other one with');
  if (otherCompcode !== undefined && otherCompcode === (compcode ?? EMBEDDED_DEFAULT.compcode))
    throw new UsageError(`--other-compcode must name another company than --compcode (${otherCompcode})`);
  const timeout = positive('timeout') ?? 15;
  const guardSpec = str(values['target-guard']);
  let targetGuard: ConformSettings['targetGuard'];
  if (guardSpec !== undefined)
    try {
      targetGuard = { spec: guardSpec, guard: parseTargetGuard(guardSpec) };
    } catch (err) {
      throw new UsageError((err as Error).message.replace('--allow-targets', '--target-guard'));
    }
  const seed = int(values.seed);
  const path = str(values.path);
  if (path !== undefined && seed === undefined)
    throw new UsageError('--path replays one run of a property and needs its --seed');
  if (path !== undefined && !/^\d+(:\d+)*$/.test(path))
    throw new UsageError(`--path must look like 3:1:0 (fast-check's path), got ${JSON.stringify(path)}`);
  const only = str(values.only);
  let scope: readonly Rule[] = catalogue;
  if (only !== undefined) {
    try {
      scope = matchRules(only);
    } catch (err) {
      if (err instanceof RuleGlobError) throw new UsageError(`--only: ${err.message}`);
      throw err;
    }
    if (scope.length === 0)
      throw new UsageError(
        `--only ${only} matches no rule of specs/rules.yaml (ids look like REST.QUERY.SORT_ASCENDING; * spans dots)`,
      );
  }
  const shard = str(values.shard);
  if (shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
      throw new UsageError(`--shard must be i/n with 1 <= i <= n, e.g. 2/4, got ${JSON.stringify(shard)}`);
  }
  const paceText = str(values.pace);
  const pace = paceText === undefined ? undefined : Number(paceText);
  if (pace !== undefined && !(Number.isFinite(pace) && pace > 0))
    throw new UsageError(`--pace must be a positive number of requests per second, got ${JSON.stringify(paceText)}`);
  const maxRetries = int(values['max-retries']);
  if (maxRetries !== undefined && maxRetries < 0)
    throw new UsageError(`--max-retries must be 0 or more, got ${maxRetries}`);
  const waitText = str(values['max-retry-wait']);
  const maxRetryWait = waitText === undefined ? undefined : Number(waitText);
  if (maxRetryWait !== undefined && !(Number.isFinite(maxRetryWait) && maxRetryWait > 0))
    throw new UsageError(`--max-retry-wait must be a positive number of seconds, got ${JSON.stringify(waitText)}`);
  const fixturePrefix = str(values['fixture-prefix']) ?? DEFAULT_FIXTURE_PREFIX;
  const prefixProblem = fixturePrefixProblem(fixturePrefix);
  if (prefixProblem !== undefined) throw new UsageError(`--fixture-prefix: ${prefixProblem}`);
  const out = str(values.out);
  const baseline = fileOption(values.baseline, cwd);
  const writeBaseline = fileOption(values['write-baseline'], cwd);
  if (baseline !== undefined && writeBaseline !== undefined && baseline.path !== writeBaseline.path)
    throw new UsageError(
      '--baseline and --write-baseline name different files: --write-baseline FILE reads FILE, adds the new FAILs and judges the run against it',
    );
  const strictBaseline = values['strict-baseline'] === true;
  if (strictBaseline && baseline === undefined && writeBaseline === undefined)
    throw new UsageError('--strict-baseline needs --baseline FILE (the known deviations it is strict about)');
  const pruneBaseline = values['prune-baseline'] === true;
  if (pruneBaseline && baseline === undefined && writeBaseline === undefined)
    throw new UsageError('--prune-baseline needs --baseline FILE (the file to remove the fixed entries from)');
  return {
    ...(target !== undefined ? { target } : {}),
    ...(target !== undefined && targetGuard !== undefined ? { targetGuard } : {}),
    ...(str(values.user) !== undefined ? { user: str(values.user)! } : {}),
    ...(typeof values.password === 'string' ? { password: values.password } : {}),
    ...(compcode !== undefined ? { compcode } : {}),
    ...(otherCompcode !== undefined ? { otherCompcode } : {}),
    ...(str(values.usercode) !== undefined ? { usercode: str(values.usercode)! } : {}),
    ...(str(values['unok-usercode']) !== undefined ? { unokUsercode: str(values['unok-usercode'])! } : {}),
    ...(str(values['limited-usercode']) !== undefined ? { limitedUsercode: str(values['limited-usercode'])! } : {}),
    ...(str(values.portalcc) !== undefined ? { portalcc: str(values.portalcc)! } : {}),
    portalPath: str(values['portal-path']) ?? '/WebErpAPI.hal',
    companyIn: values['company-in'] === 'path' ? 'path' : 'query',
    profile: (str(values.profile) ?? 'full') as Profile,
    ...(runs !== undefined ? { runs } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(path !== undefined ? { path } : {}),
    ...(only !== undefined ? { only } : {}),
    scope,
    ...(shard !== undefined ? { shard } : {}),
    ...(pace !== undefined ? { pace } : {}),
    ...(maxRetries !== undefined ? { maxRetries } : {}),
    ...(maxRetryWait !== undefined ? { maxRetryWait } : {}),
    fixturePrefix,
    cleanup: values.cleanup !== false,
    allowPermanentWrites: values['allow-permanent-writes'] === true,
    timeoutMs: timeout * 1000,
    outDir: out !== undefined ? resolve(cwd, out) : defaultReportDir(cwd, 'conformance', now),
    ...(baseline !== undefined ? { baseline } : {}),
    ...(writeBaseline !== undefined ? { writeBaseline } : {}),
    strictBaseline,
    pruneBaseline,
  };
}
