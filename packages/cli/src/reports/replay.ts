/**
 * Command lines that reproduce what a report shows (STYLE.md, fast-check: every failure prints what
 * replays it; schemathesis: "Reproduce with:" and a curl command). Secrets never appear: the password
 * stays in `ERPCERT_PASSWORD` or the config file, and curl lines read it from the environment.
 */
import { shellQuote } from '@erpcert/client';
import { DEFAULT_FIXTURE_PREFIX, type RecordedExchange } from './runner.js';

/** The options of a run that a replay must repeat (never the password). */
export interface ReplayBase {
  readonly target?: string | undefined;
  readonly user?: string | undefined;
  readonly compcode?: number | undefined;
  readonly otherCompcode?: number | undefined;
  readonly usercode?: string | undefined;
  readonly unokUsercode?: string | undefined;
  readonly limitedUsercode?: string | undefined;
  readonly portalcc?: string | undefined;
  /** Given only when not the default `/WebErpAPI.hal`. */
  readonly portalPath?: string | undefined;
  /** Given only when not the default `query`. */
  readonly companyIn?: string | undefined;
  /** Given only when not the default `full`. */
  readonly profile?: string | undefined;
  readonly runs?: number | undefined;
  /** Given only when not the default fixture prefix. */
  readonly fixturePrefix?: string | undefined;
  /** `--allow-permanent-writes`: given only when true (a replay must run the same tests). */
  readonly allowPermanentWrites?: boolean | undefined;
}

function baseArgs(b: ReplayBase): string[] {
  const args: string[] = [];
  const add = (flag: string, value: string | number | undefined) => {
    if (value !== undefined) args.push(`--${flag}`, String(value));
  };
  add('target', b.target);
  add('user', b.user);
  add('compcode', b.compcode);
  add('other-compcode', b.otherCompcode);
  add('usercode', b.usercode);
  add('unok-usercode', b.unokUsercode);
  add('limited-usercode', b.limitedUsercode);
  add('portalcc', b.portalcc);
  if (b.portalPath !== undefined && b.portalPath !== '/WebErpAPI.hal') add('portal-path', b.portalPath);
  if (b.companyIn !== undefined && b.companyIn !== 'query') add('company-in', b.companyIn);
  if (b.profile !== undefined && b.profile !== 'full') add('profile', b.profile);
  add('runs', b.runs);
  if (b.fixturePrefix !== undefined && b.fixturePrefix !== DEFAULT_FIXTURE_PREFIX)
    add('fixture-prefix', b.fixturePrefix);
  if (b.allowPermanentWrites === true) args.push('--allow-permanent-writes');
  return args;
}

/** `erpcert conform ...` with the run's options and `extra` (e.g. `--only`, `--seed`, `--path`). */
export function conformCommand(base: ReplayBase, extra: readonly (string | number)[] = []): string {
  return ['erpcert', 'conform', ...baseArgs(base), ...extra.map(String)].map(shellQuote).join(' ');
}

/** The replay command of one failure: `erpcert conform --only RULE --seed S --path P` (issue 5 "Run mechanics"). */
export function replayCommand(
  base: ReplayBase,
  rules: readonly string[],
  seed: number | null | undefined,
  path: string | null | undefined,
): string {
  const extra: (string | number)[] = ['--only', rules.join(',')];
  if (seed !== null && seed !== undefined) extra.push('--seed', seed);
  if (path !== null && path !== undefined && path !== '') extra.push('--path', path);
  return conformCommand(base, extra);
}

/** Headers curl sets itself or that the credentials replace. */
const DROPPED = new Set(['authorization', 'content-length', 'host', 'connection', 'cookie']);

/**
 * The exchange's request as a curl command. Basic credentials (masked in the exchange) become
 * `-u "$ERPCERT_USER:$ERPCERT_PASSWORD"`; a session cookie is left out (Basic alone is accepted,
 * record-rest-api.md §5), so nothing secret is ever printed.
 */
export function curlLine(exchange: RecordedExchange): string {
  const { method, url, headers, body } = exchange.request;
  const parts = ['curl', '-sS', '-i'];
  if (method.toUpperCase() !== 'GET' || body !== undefined) parts.push('-X', shellQuote(method.toUpperCase()));
  parts.push(shellQuote(url));
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const auth = lower.authorization ?? '';
  if (/^basic\b/i.test(auth) || lower.cookie !== undefined) parts.push('-u', '"$ERPCERT_USER:$ERPCERT_PASSWORD"');
  else if (/^bearer\b/i.test(auth)) parts.push('-H', '"Authorization: Bearer $ERPCERT_TOKEN"');
  for (const [name, value] of Object.entries(headers)) {
    if (DROPPED.has(name.toLowerCase())) continue;
    parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (body !== undefined && body !== '') parts.push('--data-binary', shellQuote(body));
  return parts.join(' ');
}
