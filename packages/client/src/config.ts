import type { Clock } from './clock.js';
import type { ExchangeObserver } from './exchange.js';
import type { PacingOptions } from './pacer.js';
import type { RetryAfterOptions } from './retry-after.js';
import type { ConnectGuard } from './transport.js';

/** HTTP Basic credentials (record-rest-api.md §5, portal-action-api.md §5). */
export interface BasicAuth {
  readonly user: string;
  readonly password: string;
}

/** A fixed OAuth 2.0 bearer token (REST only: the portal accepts Basic and the session cookie only). */
export interface BearerAuth {
  readonly bearer: string;
}

/**
 * OAuth 2.0 client credentials against `{authUrl}/oauth-token` (record-rest-api.md §5; the grant type is "not
 * shown" there, client credentials is RFC 6749 §4.4). REST only.
 */
export interface OAuthClientCredentials {
  /** The `{auth_url}` of the docs; the token endpoint is `{authUrl}/oauth-token`. */
  readonly authUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scope?: string;
  /** How the client authenticates at the token endpoint (RFC 6749 §2.3.1). @defaultValue 'basic' */
  readonly clientAuth?: 'basic' | 'body';
}

/** OAuth 2.0 client credentials, for {@link ClientConfig.auth}. */
export interface OAuthAuth {
  readonly oauth: OAuthClientCredentials;
}

/** How a client authenticates. */
export type AuthConfig = BasicAuth | BearerAuth | OAuthAuth;

/**
 * Per-call authentication that bypasses the client's own (and its session): `none` sends no credentials,
 * `{ cookie }` sends only `Cookie: HSESSION=<cookie>`. For tests of refusals and of the cookie alone.
 */
export type AuthOverride = 'none' | BasicAuth | BearerAuth | { readonly cookie: string };

/** Where the REST company code goes: `?compcode=N` on `/api/1/...`, or the path segment `/api/N/...`. */
export type CompanyPlacement = 'query' | 'path';

/** Configuration of a client for both APIs. */
export interface ClientConfig {
  /** Scheme, host, port and an optional path prefix: `http://127.0.0.1:8080`. */
  readonly baseUrl: string;
  readonly auth?: AuthConfig;
  /**
   * Log in once with Basic, then send only `Cookie: HSESSION=...`; log in again once when the session is refused
   * (401/403). Basic auth only. @defaultValue false
   */
  readonly useSession?: boolean;
  /** REST company placement (DESIGN.md: the number after `/api/` is the company in practice). @defaultValue 'query' */
  readonly companyIn?: CompanyPlacement;
  /** REST company code (`compcode`, record-rest-api.md §4; its location is "not shown", rule 8). */
  readonly compcode?: number | string;
  /** Portal company number (`compno`, portal-action-api.md §1 global parameters). */
  readonly compno?: number | string;
  /** Portal path. Real deployments use `/WebExcellentAPI.hal`. @defaultValue '/WebErpAPI.hal' */
  readonly portalPath?: string;
  /** Portal `usercode`, sent on every portal call unless a call passes `usercode: null`. */
  readonly usercode?: string;
  /** Portal `portalcc` (`est` or `lat`), sent on every portal call unless a call passes `portalcc: null`. */
  readonly portalcc?: 'est' | 'lat';
  /** Timeout of one exchange in milliseconds. @defaultValue 30000 */
  readonly timeoutMs?: number;
  /**
   * Honour 429 and 503 answers that carry `Retry-After`: wait and send again, at most `maxRetries` times and never
   * longer than `maxWaitMs` at once; `false` hands every throttled answer on. @defaultValue `{ maxRetries: 3, maxWaitMs: 30000 }`
   */
  readonly retryAfter?: RetryAfterOptions | false;
  /** Minimum spacing of request starts, shared by every call of this client. */
  readonly pacing?: PacingOptions;
  /** Called with every completed exchange (secrets masked). */
  readonly onExchange?: ExchangeObserver;
  /** Concurrent connections per origin. @defaultValue 16 */
  readonly maxSockets?: number;
  /** Reuse connections (HTTP keep-alive). @defaultValue true */
  readonly keepAlive?: boolean;
  /**
   * Judges every address before a connection (the hub's SSRF guard: `parseTargetGuard` of `@erpcert/contract`);
   * a refused one fails the call with a `TransportError` whose code is `ETARGETREFUSED`. The client never
   * follows a redirect (a 3xx is an answer to judge), so no request goes to a `Location` it was not asked for.
   */
  readonly connectGuard?: ConnectGuard;
  /** Bodies longer than this are cut in recorded exchanges. @defaultValue 1048576 */
  readonly maxRecordedBodyBytes?: number;
  /** Time source for pacing and token expiry; tests inject a fake one. */
  readonly clock?: Clock;
  /** @defaultValue 'erpcert-client' */
  readonly userAgent?: string;
}

/** The REST path segment after `/api/` when the company goes in the query: the version of the docs. */
export const REST_VERSION_SEGMENT = '1';
/** Default portal path (portal-action-api.md §1). */
export const DEFAULT_PORTAL_PATH = '/WebErpAPI.hal';
/** Default exchange timeout. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** True when the auth config is HTTP Basic. */
export function isBasic(auth: AuthConfig | AuthOverride | undefined): auth is BasicAuth {
  return typeof auth === 'object' && 'user' in auth;
}
