import { type AuthConfig, type AuthOverride, type BasicAuth, type ClientConfig, isBasic } from './config.js';
import { ConfigError } from './errors.js';
import type { Masker } from './mask.js';
import type { OAuthTokenSource } from './oauth.js';

/** The session cookie of both APIs (record-rest-api.md §5, portal-action-api.md §5). */
export const SESSION_COOKIE = 'HSESSION';

/** How one request is authenticated. */
export interface AuthAttempt {
  readonly headers: Readonly<Record<string, string>>;
  readonly via: 'none' | 'basic' | 'session' | 'bearer' | 'override';
  /** The session id sent, when `via` is `session`. */
  readonly sessionId?: string;
  /** Set when the bearer came from the OAuth helper (a 401 refreshes it once). */
  readonly oauth?: boolean;
  /** Set when this request opens the session; `settle` must follow. */
  readonly opens?: boolean;
}

/** `Authorization: Basic` value of `user:password` (UTF-8). */
export function basicHeader(auth: BasicAuth): string {
  return `Basic ${Buffer.from(`${auth.user}:${auth.password}`, 'utf8').toString('base64')}`;
}

/** The HSESSION value of `Set-Cookie` headers: a string, `''` when the server deletes it, undefined when absent. */
export function sessionFromSetCookie(setCookie: readonly string[] | string | undefined): string | undefined {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  let found: string | undefined;
  for (const line of list) {
    const first = line.split(';', 1)[0] ?? '';
    const eq = first.indexOf('=');
    if (eq > 0 && first.slice(0, eq).trim().toUpperCase() === SESSION_COOKIE) found = first.slice(eq + 1).trim();
  }
  return found;
}

/**
 * Chooses the credentials of each request: Basic, the HSESSION cookie (log in once with Basic, then the cookie
 * only; concurrent first requests wait for the one that opens the session), a bearer token, or a per-call override.
 */
export class Authenticator {
  readonly #auth: AuthConfig | undefined;
  readonly #useSession: boolean;
  readonly #masker: Masker;
  readonly #tokens: OAuthTokenSource | undefined;
  #cookie: string | undefined;
  #opening: { promise: Promise<void>; resolve: () => void } | undefined;
  /** Set when a successful Basic request opened no session: the server does not offer one. */
  #noSession = false;

  constructor(config: ClientConfig, masker: Masker, tokens?: OAuthTokenSource) {
    this.#auth = config.auth;
    this.#useSession = config.useSession === true;
    this.#masker = masker;
    this.#tokens = tokens;
    if (config.useSession && config.auth && !isBasic(config.auth))
      throw new ConfigError('useSession needs Basic credentials ({ user, password }) to log in with');
    if (isBasic(config.auth)) masker.addBasic(config.auth.user, config.auth.password);
    else if (config.auth && 'bearer' in config.auth) masker.addSecret(config.auth.bearer);
    else if (config.auth && 'oauth' in config.auth) masker.addSecret(config.auth.oauth.clientSecret);
  }

  /** The current session id, when a session is open. */
  get sessionId(): string | undefined {
    return this.#cookie;
  }

  /** Forgets the session; the next request logs in again with Basic. */
  clearSession(): void {
    this.#cookie = undefined;
    this.#noSession = false;
  }

  /**
   * Credentials for one request. `forceBasic` sends Basic even when a session is open (explicit login, or the
   * retry after a refused session); the response's cookie then becomes the session.
   */
  async prepare(
    api: 'rest' | 'portal' | 'oauth',
    operation: string,
    override?: AuthOverride,
    forceBasic = false,
  ): Promise<AuthAttempt> {
    if (override !== undefined) return this.#override(override);
    const auth = this.#auth;
    if (!auth || api === 'oauth') return { headers: {}, via: 'none' };
    if (!isBasic(auth)) {
      if (api === 'portal')
        throw new ConfigError(
          'the portal accepts HTTP Basic and the HSESSION cookie only (portal-action-api.md §5); configure { user, password }',
          { operation },
        );
      if ('bearer' in auth) return { headers: { Authorization: `Bearer ${auth.bearer}` }, via: 'bearer' };
      const token = await this.#tokens!.token();
      return { headers: { Authorization: `Bearer ${token}` }, via: 'bearer', oauth: true };
    }
    const basic = { headers: { Authorization: basicHeader(auth) }, via: 'basic' as const };
    if (!this.#useSession || this.#noSession) return basic;
    if (forceBasic) return { ...basic, opens: true };
    while (this.#cookie === undefined && this.#opening) await this.#opening.promise;
    if (this.#cookie !== undefined)
      return { headers: { Cookie: `${SESSION_COOKIE}=${this.#cookie}` }, via: 'session', sessionId: this.#cookie };
    let resolve!: () => void;
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    this.#opening = { promise, resolve };
    return { ...basic, opens: true };
  }

  /**
   * Takes the HSESSION cookie of a response (none on failure) and releases requests waiting for it. A successful
   * (`ok`) opening request without a cookie means the server offers no session: Basic is used from then on.
   */
  settle(attempt: AuthAttempt, setCookie: readonly string[] | string | undefined, ok: boolean): void {
    const id = sessionFromSetCookie(setCookie);
    if (id) this.#masker.addSecret(id);
    if (attempt.via !== 'override' && this.#useSession && id !== undefined) this.#cookie = id || undefined;
    if (attempt.opens && ok && id === undefined && this.#cookie === undefined) this.#noSession = true;
    if (attempt.opens && this.#opening) {
      const { resolve } = this.#opening;
      this.#opening = undefined;
      resolve();
    }
  }

  /** True when a request sent with the session cookie was refused; the session is then forgotten. */
  sessionRefused(attempt: AuthAttempt, status: number): boolean {
    if (attempt.via !== 'session' || (status !== 401 && status !== 403)) return false;
    if (this.#cookie === attempt.sessionId) this.#cookie = undefined;
    return true;
  }

  /** True when an OAuth bearer was refused; the cached token is then dropped. */
  tokenRefused(attempt: AuthAttempt, status: number): boolean {
    if (!attempt.oauth || status !== 401) return false;
    this.#tokens?.invalidate();
    return true;
  }

  #override(o: AuthOverride): AuthAttempt {
    if (o === 'none') return { headers: {}, via: 'override' };
    if (isBasic(o)) {
      this.#masker.addBasic(o.user, o.password);
      return { headers: { Authorization: basicHeader(o) }, via: 'override' };
    }
    if ('bearer' in o) {
      this.#masker.addSecret(o.bearer);
      return { headers: { Authorization: `Bearer ${o.bearer}` }, via: 'override' };
    }
    this.#masker.addSecret(o.cookie);
    return { headers: { Cookie: `${SESSION_COOKIE}=${o.cookie}` }, via: 'override' };
  }
}
