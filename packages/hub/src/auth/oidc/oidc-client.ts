/**
 * The hub as an OpenID Connect relying party, by openid-client: the provider's metadata is discovered on the first
 * sign-in (so a hub starts while its provider is down) and kept; a failed discovery is tried again on the next one.
 * The client authenticates with client_secret_basic.
 */
import * as client from 'openid-client';
import type { OidcSettings } from './oidc-settings.js';

/** How long one request to the provider may take. */
const TIMEOUT_SECONDS = 10;

export class OidcClient {
  #config: Promise<client.Configuration> | undefined;

  constructor(readonly settings: OidcSettings) {}

  /** The provider's configuration, discovered once. */
  configuration(): Promise<client.Configuration> {
    if (!this.#config) {
      const s = this.settings;
      this.#config = client
        .discovery(s.issuer, s.clientId, undefined, client.ClientSecretBasic(s.clientSecret), {
          timeout: TIMEOUT_SECONDS,
          // http:// is accepted only on a loopback address (settings.ts)
          execute: s.insecureLoopback ? [client.allowInsecureRequests] : [],
        })
        .catch((err: unknown) => {
          this.#config = undefined;
          throw err;
        });
    }
    return this.#config;
  }
}

/** What the provider's answer or the ID token's check said, in words for a page (never a secret: none is in them). */
export function describeFailure(err: unknown): { kind: 'unreachable' | 'refused' | 'invalid'; detail: string } {
  if (err instanceof client.AuthorizationResponseError || err instanceof client.ResponseBodyError) {
    const detail = err.error_description ? `${err.error}: ${err.error_description}` : err.error;
    return { kind: 'refused', detail };
  }
  if (err instanceof client.ClientError) {
    const cause = (err as { cause?: unknown }).cause;
    const why = cause instanceof Error && cause.message !== err.message ? ` (${cause.message})` : '';
    return { kind: 'invalid', detail: `${err.message}${why}` };
  }
  // fetch failed, a timeout, a refused connection: the provider did not answer
  const cause = (err as { cause?: { code?: string } }).cause;
  const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
  return {
    kind: 'unreachable',
    detail: `${(err as Error)?.name === 'TimeoutError' ? 'timed out' : 'no answer'}${code}`,
  };
}
