import { createHash, timingSafeEqual } from 'node:crypto';
import { ErpError, ErrorCode } from '../errors.js';
import type { ExpiringMap } from './expiring-map.js';

/** The session cookie (record-rest-api.md §5, portal-action-api.md §5). */
export const SESSION_COOKIE = 'HSESSION';

/** Who may come in and how sessions and tokens are kept; shared by both APIs. */
export interface AuthConfig {
  readonly user: string;
  readonly password: string;
  /** Live sessions: id -> user. */
  readonly sessions: ExpiringMap<string>;
  /** Live bearer tokens: token -> client id. */
  readonly tokens: ExpiringMap<string>;
}

/** A successful authentication. */
export interface AuthSuccess {
  readonly user: string;
  readonly via: 'basic' | 'session' | 'bearer';
  readonly sessionId?: string;
  /** `Set-Cookie` to send when a Basic request opened a new session. */
  readonly setCookie?: string;
}

/** Compares two secrets in constant time (hashing first makes the lengths equal). */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** Reads one cookie from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/;\s*/)) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** `user:password` of a Basic header, or undefined when malformed. */
export function decodeBasic(value: string): { user: string; password: string } | undefined {
  const text = Buffer.from(value.trim(), 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  return { user: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** The 401 every failed authentication answers, with the Basic challenge. */
export function unauthorized(description: string): ErpError {
  return new ErpError(401, ErrorCode.unauthorized, description, {
    headers: { 'WWW-Authenticate': 'Basic realm="erpcert"' },
  });
}

/** The Set-Cookie value of a session. */
export function sessionCookie(id: string): string {
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly`;
}

/** Basic values already checked against a config (a Set lookup leaks no prefix timing; at most 64 kept). */
const verified = new WeakMap<AuthConfig, Set<string>>();

function basicMatches(config: AuthConfig, value: string): boolean {
  const known = verified.get(config);
  if (known?.has(value)) return true;
  const cred = decodeBasic(value);
  // evaluate both comparisons so a wrong user costs the same as a wrong password
  const userOk = cred ? sameSecret(cred.user, config.user) : false;
  const passOk = cred ? sameSecret(cred.password, config.password) : false;
  if (!userOk || !passOk) return false;
  const set = known ?? new Set<string>();
  if (set.size >= 64) set.clear();
  set.add(value);
  verified.set(config, set);
  return true;
}

/**
 * Authenticates a request by HTTP Basic, the HSESSION cookie or (where allowed) an OAuth 2.0 bearer
 * token (record-rest-api.md §5). A successful Basic request without a live session opens one. An
 * `Authorization` header that fails is refused even when a live cookie comes with it. Throws a 401.
 */
export function authenticate(
  config: AuthConfig,
  headers: Readonly<Record<string, string>>,
  options: { allowBearer: boolean },
): AuthSuccess {
  const cookieId = readCookie(headers.cookie, SESSION_COOKIE);
  const sessionUser = cookieId ? config.sessions.get(cookieId) : undefined;
  const auth = headers.authorization;
  if (auth) {
    const space = auth.indexOf(' ');
    const scheme = (space < 0 ? auth : auth.slice(0, space)).toLowerCase();
    const value = space < 0 ? '' : auth.slice(space + 1);
    if (scheme === 'basic') {
      if (!basicMatches(config, value)) throw unauthorized('wrong user or password');
      if (cookieId && sessionUser === config.user) return { user: config.user, via: 'basic', sessionId: cookieId };
      const id = config.sessions.add(config.user);
      return { user: config.user, via: 'basic', sessionId: id, setCookie: sessionCookie(id) };
    }
    if (scheme === 'bearer') {
      if (!options.allowBearer) throw unauthorized('bearer tokens are not accepted here; use Basic or HSESSION');
      const client = config.tokens.get(value.trim());
      if (client === undefined) throw unauthorized('the bearer token is unknown or expired');
      return { user: config.user, via: 'bearer' };
    }
    throw unauthorized(`authorization scheme "${scheme}" is not supported; use Basic`);
  }
  if (cookieId) {
    if (sessionUser === undefined) throw unauthorized('the HSESSION session is unknown or expired; log in with Basic');
    return { user: sessionUser, via: 'session', sessionId: cookieId };
  }
  throw unauthorized('authentication required: HTTP Basic, an HSESSION cookie or a bearer token');
}
