/**
 * The target of a conformance run as the test workers see it: read from the TARGET_ENV variables
 * (meta.ts) that the runner (`erpcert conform`) sets, or that a developer sets by hand to run vitest
 * directly against `erpcert serve --port 0`.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTargetGuard } from '@erpcert/contract';
import { newRunTag, RUN_TAG_PATTERN } from '../runner/run-tag.js';
import type { Profile } from '../runner/verdict.js';
import { DEFAULT_FIXTURE_PREFIX, fixturePrefixProblem } from './fixture-scheme.js';
import { TARGET_ENV } from './meta.js';
import { PERMANENT_WRITES, type PermanentWrites } from './permanent-writes.js';

/** Everything a test needs to know about the target and the run. */
export interface TargetConfig {
  /** Base URL without a trailing slash. */
  readonly baseUrl: string;
  readonly user?: string;
  readonly password?: string;
  /** REST company code; absent: the target's default company. */
  readonly compcode?: number;
  /** A second company whose data differs from {@link compcode}'s; the company rules compare the two. */
  readonly otherCompcode?: number;
  /** Portal `usercode` (access-group checks: reports, un-confirm). */
  readonly usercode?: string;
  readonly portalcc?: 'est' | 'lat';
  /** @defaultValue '/WebErpAPI.hal' */
  readonly portalPath: string;
  /** @defaultValue 'query' */
  readonly companyIn: 'query' | 'path';
  /** @defaultValue 'full' */
  readonly profile: Profile;
  /** Runs per property; overrides each property's default. */
  readonly runs?: number;
  /** fast-check seed of every property (replay). */
  readonly seed?: number;
  /** fast-check path (replay; needs `seed`). */
  readonly path?: string;
  /** Marks every record the run creates (code prefix or comment field). */
  readonly runTag: string;
  /** JSON-lines ledger of created records (runner/ledger.ts). */
  readonly ledger: string;
  /** Requests per second at most, per worker. */
  readonly pace?: number;
  /** Resends of one request after throttled answers (client retry-after.ts); default: the client's. */
  readonly maxRetries?: number;
  /** The longest single `Retry-After` wait, in milliseconds; default: the client's. */
  readonly maxRetryWaitMs?: number;
  /** Prefix of the fixture set's codes (fixture-scheme.ts). @defaultValue 'ERPCERT-FX-' */
  readonly fixturePrefix: string;
  /** Whether tests may make what the documented APIs cannot remove (permanent-writes.ts). @defaultValue 'refused' */
  readonly permanentWrites: PermanentWrites;
  /** The hub's SSRF allow-list: when set, every connection's address is checked (`none`: the defaults alone). */
  readonly targetGuard?: string;
}

/** The TARGET_ENV variables are missing or malformed: a defect of the run's configuration. */
export class TargetConfigError extends Error {
  override readonly name = 'TargetConfigError';
}

const PROFILES: readonly Profile[] = ['readonly', 'full', 'gate', 'strict'];

function positiveInt(env: Readonly<Record<string, string | undefined>>, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new TargetConfigError(`${name} must be a whole number >= 1, got "${raw}"`);
  return n;
}

/**
 * Reads the target from the environment. Without `ERPCERT_RUN_TAG` a fresh tag is made (a direct vitest
 * run); without `ERPCERT_LEDGER` the ledger goes to the temp folder, named after the tag.
 */
export function targetFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): TargetConfig {
  const get = (k: keyof typeof TARGET_ENV) => {
    const v = env[TARGET_ENV[k]];
    return v === undefined || v === '' ? undefined : v;
  };
  const baseUrl = get('target')?.replace(/\/+$/, '');
  if (baseUrl === undefined)
    throw new TargetConfigError(
      `${TARGET_ENV.target} is not set: run the suite with \`erpcert conform\`, or set it to the base URL of a server`,
    );
  try {
    new URL(baseUrl);
  } catch {
    throw new TargetConfigError(`${TARGET_ENV.target} is not a URL: "${baseUrl}"`);
  }
  const profile = (get('profile') ?? 'full') as Profile;
  if (!PROFILES.includes(profile))
    throw new TargetConfigError(`${TARGET_ENV.profile} must be one of ${PROFILES.join(', ')}, got "${profile}"`);
  const companyIn = get('companyIn') ?? 'query';
  if (companyIn !== 'query' && companyIn !== 'path')
    throw new TargetConfigError(`${TARGET_ENV.companyIn} must be query or path, got "${companyIn}"`);
  const portalcc = get('portalcc');
  if (portalcc !== undefined && portalcc !== 'est' && portalcc !== 'lat')
    throw new TargetConfigError(`${TARGET_ENV.portalcc} must be est or lat, got "${portalcc}"`);
  const seedText = get('seed');
  const seed = seedText === undefined ? undefined : Number(seedText);
  if (seed !== undefined && !Number.isInteger(seed))
    throw new TargetConfigError(`${TARGET_ENV.seed} must be an integer, got "${seedText}"`);
  const path = get('path');
  if (path !== undefined && !/^\d+(:\d+)*$/.test(path))
    throw new TargetConfigError(`${TARGET_ENV.path} must look like 3:1:0, got "${path}"`);
  if (path !== undefined && seed === undefined)
    throw new TargetConfigError(`${TARGET_ENV.path} replays one run and needs ${TARGET_ENV.seed}`);
  const paceText = get('pace');
  const pace = paceText === undefined ? undefined : Number(paceText);
  if (pace !== undefined && !(Number.isFinite(pace) && pace > 0))
    throw new TargetConfigError(`${TARGET_ENV.pace} must be a positive number, got "${paceText}"`);
  const maxRetriesText = get('maxRetries');
  const maxRetries = maxRetriesText === undefined ? undefined : Number(maxRetriesText);
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0))
    throw new TargetConfigError(`${TARGET_ENV.maxRetries} must be a whole number >= 0, got "${maxRetriesText}"`);
  const waitText = get('maxRetryWait');
  const maxRetryWait = waitText === undefined ? undefined : Number(waitText);
  if (maxRetryWait !== undefined && !(Number.isFinite(maxRetryWait) && maxRetryWait > 0))
    throw new TargetConfigError(`${TARGET_ENV.maxRetryWait} must be a positive number of seconds, got "${waitText}"`);
  const runTag = get('runTag') ?? newRunTag();
  if (!RUN_TAG_PATTERN.test(runTag) && !/^[A-Z0-9]{2,8}$/.test(runTag))
    throw new TargetConfigError(`${TARGET_ENV.runTag} must be 2 to 8 upper-case letters or digits, got "${runTag}"`);
  const fixturePrefix = get('fixturePrefix') ?? DEFAULT_FIXTURE_PREFIX;
  const prefixProblem = fixturePrefixProblem(fixturePrefix);
  if (prefixProblem !== undefined) throw new TargetConfigError(`${TARGET_ENV.fixturePrefix}: ${prefixProblem}`);
  const permanentWrites = (get('permanentWrites') ?? 'refused') as PermanentWrites;
  if (!PERMANENT_WRITES.includes(permanentWrites))
    throw new TargetConfigError(
      `${TARGET_ENV.permanentWrites} must be one of ${PERMANENT_WRITES.join(', ')}, got "${permanentWrites}"`,
    );
  const targetGuard = get('targetGuard');
  if (targetGuard !== undefined)
    try {
      parseTargetGuard(targetGuard);
    } catch (err) {
      throw new TargetConfigError(`${TARGET_ENV.targetGuard}: ${(err as Error).message}`);
    }
  const user = get('user');
  const password = env[TARGET_ENV.password];
  const compcode = positiveInt(env, TARGET_ENV.compcode);
  const otherCompcode = positiveInt(env, TARGET_ENV.otherCompcode);
  if (otherCompcode !== undefined && otherCompcode === compcode)
    throw new TargetConfigError(`${TARGET_ENV.otherCompcode} must name another company than ${TARGET_ENV.compcode}`);
  const runs = positiveInt(env, TARGET_ENV.runs);
  const usercode = get('usercode');
  return {
    baseUrl,
    ...(user !== undefined ? { user } : {}),
    ...(password !== undefined ? { password } : {}),
    ...(compcode !== undefined ? { compcode } : {}),
    ...(otherCompcode !== undefined ? { otherCompcode } : {}),
    ...(usercode !== undefined ? { usercode } : {}),
    ...(portalcc !== undefined ? { portalcc } : {}),
    portalPath: get('portalPath') ?? '/WebErpAPI.hal',
    companyIn,
    profile,
    ...(runs !== undefined ? { runs } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(path !== undefined ? { path } : {}),
    runTag,
    ledger: get('ledger') ?? join(tmpdir(), `erpcert-ledger-${runTag}.jsonl`),
    ...(pace !== undefined ? { pace } : {}),
    ...(maxRetries !== undefined ? { maxRetries } : {}),
    ...(maxRetryWait !== undefined ? { maxRetryWaitMs: Math.round(maxRetryWait * 1000) } : {}),
    fixturePrefix,
    permanentWrites,
    ...(targetGuard !== undefined ? { targetGuard } : {}),
  };
}
