import { type Clock, systemClock } from './clock.js';
import type { OAuthClientCredentials } from './config.js';
import { DecodeError, HttpStatusError } from './errors.js';
import type { Exchange } from './exchange.js';
import type { Masker } from './mask.js';

/** A token request as the client core sends it (absolute URL, form body). */
export type TokenPost = (
  url: string,
  headers: Record<string, string>,
  body: string,
) => Promise<{ status: number; statusText: string; text: string; exchange: Exchange }>;

/** Seconds before expiry at which a cached token is renewed. */
const RENEW_EARLY_S = 30;

/** RFC 6749 §2.3.1: the client id and secret are form-encoded before they go into the Basic credential. */
function formEncode(s: string): string {
  return encodeURIComponent(s).replace(/%20/g, '+');
}

/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4) against `{authUrl}/oauth-token` (record-rest-api.md §5). Caches
 * the token until shortly before `expires_in` runs out; concurrent callers share one token request.
 */
export class OAuthTokenSource {
  readonly #config: OAuthClientCredentials;
  readonly #post: TokenPost;
  readonly #masker: Masker;
  readonly #clock: Clock;
  #token: { value: string; expiresAt: number } | undefined;
  #pending: Promise<string> | undefined;

  constructor(config: OAuthClientCredentials, post: TokenPost, masker: Masker, clock: Clock = systemClock) {
    this.#config = config;
    this.#post = post;
    this.#masker = masker;
    this.#clock = clock;
    masker.addSecret(config.clientSecret);
  }

  /** The token endpoint URL: `{authUrl}/oauth-token`. */
  get tokenUrl(): string {
    return `${this.#config.authUrl.replace(/\/+$/, '')}/oauth-token`;
  }

  /** A valid access token, fetched when there is none or it is about to expire. */
  async token(): Promise<string> {
    const t = this.#token;
    if (t && this.#clock.now() < t.expiresAt) return t.value;
    this.#pending ??= this.#fetch().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** Drops the cached token (after the server refused it). */
  invalidate(): void {
    this.#token = undefined;
  }

  async #fetch(): Promise<string> {
    const c = this.#config;
    const form = [['grant_type', 'client_credentials']];
    if (c.scope) form.push(['scope', c.scope]);
    const headers: Record<string, string> = {
      'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8',
      Accept: 'application/json',
    };
    if ((c.clientAuth ?? 'basic') === 'basic') {
      const credential = Buffer.from(`${formEncode(c.clientId)}:${formEncode(c.clientSecret)}`).toString('base64');
      this.#masker.addSecret(credential);
      headers.Authorization = `Basic ${credential}`;
    } else {
      form.push(['client_id', c.clientId], ['client_secret', c.clientSecret]);
    }
    // spaces as %20 in the body: live servers keep a + as a plus sign (issue 10)
    const body = form.map(([k, v]) => `${k}=${encodeURIComponent(v!)}`).join('&');
    const started = this.#clock.now();
    const res = await this.#post(this.tokenUrl, headers, body);
    const context = { operation: 'oauth-token', status: res.status, exchange: res.exchange };
    if (res.status < 200 || res.status > 299) throw new HttpStatusError(res.status, res.statusText, res.text, context);
    let parsed: { access_token?: unknown; expires_in?: unknown };
    try {
      parsed = JSON.parse(res.text) as typeof parsed;
    } catch (cause) {
      throw new DecodeError('the token response is not JSON', context, cause);
    }
    if (typeof parsed.access_token !== 'string' || parsed.access_token === '')
      throw new DecodeError('the token response has no access_token', context);
    this.#masker.addSecret(parsed.access_token);
    const lifetime = Number(parsed.expires_in);
    const seconds = Number.isFinite(lifetime) && lifetime > 0 ? Math.max(lifetime - RENEW_EARLY_S, 0) : 300;
    this.#token = { value: parsed.access_token, expiresAt: started + seconds * 1000 };
    return parsed.access_token;
  }
}
