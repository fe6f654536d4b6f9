import { resolve } from 'node:path';
import { type OptionValues, UsageError } from '../options.js';
import { DEFAULT_FIXTURE_PREFIX, fixturePrefixProblem } from '../reports/runner.js';
import { int, str, targetUrl } from '../settings-common.js';
import { tagKind } from './tag-match.js';

/** What `erpcert cleanup` was asked to do, checked. */
export interface CleanupSettings {
  /** A report folder (absolute), or undefined with `--tag`/`--fixtures`. */
  readonly dir?: string;
  readonly tag?: string;
  /** Also remove or close the fixture set. */
  readonly fixtures: boolean;
  readonly fixturePrefix: string;
  readonly dryRun: boolean;
  readonly target?: string;
  readonly user?: string;
  readonly password?: string;
  readonly compcode?: number;
  readonly companyIn?: 'query' | 'path';
  readonly portalPath?: string;
  readonly unokUsercode?: string;
  readonly pace?: number;
  readonly pauseMs: number;
  readonly batch: number;
  readonly timeoutMs: number;
  /** Where `--tag`/`--fixtures` write cleanup.json (a report folder's cleanup goes into that folder). */
  readonly out?: string;
}

/** Checks the options; throws UsageError with what to do (exit 2). */
export function cleanupSettings(values: OptionValues, positionals: readonly string[], cwd: string): CleanupSettings {
  if (positionals.length > 1)
    throw new UsageError(`takes one report folder at most, got ${positionals.length}: ${positionals.join(' ')}`);
  const dir = positionals[0] !== undefined ? resolve(cwd, positionals[0]) : undefined;
  const tag = str(values.tag);
  const fixtures = values.fixtures === true;
  if (dir !== undefined && tag !== undefined)
    throw new UsageError('give a report folder or --tag TAG, not both (the folder names its run tag)');
  if (dir === undefined && tag === undefined && !fixtures)
    throw new UsageError(
      'name a report folder (erpcert cleanup reports/load/<time>), or --tag TAG for a run whose folder is lost, or --fixtures',
    );
  if (tag !== undefined && tagKind(tag) === undefined)
    throw new UsageError(
      `--tag ${JSON.stringify(tag)} is not a run tag: conformance runs tag with EC and 4 characters (EC4K2Q), load runs with erpcert-load- and 8 hex digits`,
    );
  const fixturePrefix = str(values['fixture-prefix']) ?? DEFAULT_FIXTURE_PREFIX;
  const prefixProblem = fixturePrefixProblem(fixturePrefix);
  if (prefixProblem !== undefined) throw new UsageError(`--fixture-prefix: ${prefixProblem}`);
  const target = targetUrl(values.target);
  if (dir === undefined && target === undefined)
    throw new UsageError('--tag and --fixtures need --target URL (a report folder names its own target)');
  const positive = (name: string, fallback: number) => {
    const v = int(values[name]);
    if (v !== undefined && v < 1) throw new UsageError(`--${name} must be at least 1, got ${v}`);
    return v ?? fallback;
  };
  const compcode = int(values.compcode);
  if (compcode !== undefined && compcode < 1) throw new UsageError(`--compcode must be at least 1, got ${compcode}`);
  const batch = positive('batch', 1000);
  if (batch < 1000 || batch > 5000)
    throw new UsageError(`--batch must be 1000 to 5000 records per read (record-rest-api.md §4 rule 12), got ${batch}`);
  const pauseMs = int(values['read-pause']) ?? 1000;
  if (pauseMs < 0) throw new UsageError(`--read-pause must be 0 or more milliseconds, got ${pauseMs}`);
  const paceText = str(values.pace);
  const pace = paceText === undefined ? undefined : Number(paceText);
  if (pace !== undefined && !(Number.isFinite(pace) && pace > 0))
    throw new UsageError(`--pace must be a positive number of requests per second, got ${JSON.stringify(paceText)}`);
  const companyIn = str(values['company-in']);
  const out = str(values.out);
  return {
    ...(dir !== undefined ? { dir } : {}),
    ...(tag !== undefined ? { tag } : {}),
    fixtures,
    fixturePrefix,
    dryRun: values['dry-run'] === true,
    ...(target !== undefined ? { target } : {}),
    ...(str(values.user) !== undefined ? { user: str(values.user)! } : {}),
    ...(typeof values.password === 'string' ? { password: values.password } : {}),
    ...(compcode !== undefined ? { compcode } : {}),
    ...(companyIn === 'query' || companyIn === 'path' ? { companyIn } : {}),
    ...(str(values['portal-path']) !== undefined ? { portalPath: str(values['portal-path'])! } : {}),
    ...(str(values['unok-usercode']) !== undefined ? { unokUsercode: str(values['unok-usercode'])! } : {}),
    ...(pace !== undefined ? { pace } : {}),
    pauseMs,
    batch,
    timeoutMs: positive('timeout', 15) * 1000,
    ...(out !== undefined ? { out: resolve(cwd, out) } : {}),
  };
}
