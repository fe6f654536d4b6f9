import { createHash } from 'node:crypto';
import { parseForm } from '../http/form-body.js';
import type { AppResponse, RouteRequest } from '../http/types.js';
import { decodeBasic, sameSecret } from './authenticate.js';
import type { ExpiringMap } from './expiring-map.js';

/**
 * A small local OAuth 2.0 authorization server (record-rest-api.md §5: `{auth_url}/oauth-authorize`
 * and `{auth_url}/oauth-token`; grant types "not shown"). It offers the authorization-code grant
 * (RFC 6749 §4.1, auto-approved for the configured user, PKCE optional) and client credentials
 * (§4.4). Tokens are bearer tokens (RFC 6750) accepted on `/api/` only. Every token answer also carries a
 * `refresh_token`, and `grant_type=refresh_token` (§6) issues a new access token for it, as the separate identity
 * service of live deployments does (issue 21: a calendar treats OAuth as not configured without a refresh token).
 */
export interface OAuthConfig {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Live tokens: token -> client id. Its TTL is the tokens' `expires_in`. */
  readonly tokens: ExpiringMap<string>;
  /** Pending authorization codes (single use). */
  readonly codes: ExpiringMap<PendingCode>;
  /** Refresh tokens: token -> client id. They stay valid until they expire (no rotation). */
  readonly refreshTokens: ExpiringMap<string>;
}

/**
 * The paths of the authorization server. Live, it is a separate identity service, not the ERP: `--quirks` leaves
 * their wire clean (server/node-server.ts).
 */
export const OAUTH_PATHS = ['/oauth-authorize', '/oauth-token'] as const;

/** True for a request URL on the authorization server's paths. */
export function isOAuthPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return (OAUTH_PATHS as readonly string[]).includes(path);
}

/** What an authorization code was issued for. */
export interface PendingCode {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly challenge?: string;
  readonly challengeMethod?: string;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): AppResponse {
  return {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      Pragma: 'no-cache',
      ...headers,
    },
    body: Buffer.from(JSON.stringify(body)),
  };
}

const oauthError = (status: number, error: string, description: string, headers: Record<string, string> = {}) =>
  json(status, { error, error_description: description }, headers);

function redirect(uri: string, params: Record<string, string | undefined>): AppResponse {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return { status: 302, headers: { Location: u.toString(), 'Cache-Control': 'no-store' }, body: Buffer.alloc(0) };
}

/** `GET /oauth-authorize`: checks the client and redirect URI, then redirects back with a code. */
export function authorizeEndpoint(config: OAuthConfig, req: RouteRequest): AppResponse {
  if (req.method !== 'GET' && req.method !== 'POST')
    return oauthError(405, 'invalid_request', 'use GET', { Allow: 'GET, POST' });
  const q = req.method === 'POST' ? new URLSearchParams(parseForm(req.body)) : req.query;
  const clientId = q.get('client_id') ?? '';
  const redirectUri = q.get('redirect_uri') ?? '';
  const state = q.get('state') ?? undefined;
  // RFC 6749 §4.1.2.1: a bad client or redirect URI is shown, never redirected to
  if (!sameSecret(clientId, config.clientId)) return oauthError(400, 'invalid_client', 'unknown client_id');
  let target: URL;
  try {
    target = new URL(redirectUri);
  } catch {
    return oauthError(400, 'invalid_request', 'redirect_uri must be an absolute http(s) URL');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    return oauthError(400, 'invalid_request', 'redirect_uri must be an absolute http(s) URL');
  if (q.get('response_type') !== 'code') return redirect(redirectUri, { error: 'unsupported_response_type', state });
  const challenge = q.get('code_challenge') ?? undefined;
  const method = q.get('code_challenge_method') ?? (challenge ? 'plain' : undefined);
  if (method !== undefined && method !== 'plain' && method !== 'S256')
    return redirect(redirectUri, { error: 'invalid_request', error_description: 'code_challenge_method', state });
  const code = config.codes.add({
    clientId,
    redirectUri,
    ...(challenge ? { challenge, challengeMethod: method! } : {}),
  });
  return redirect(redirectUri, { code, state });
}

/** RFC 6749 §2.3.1: client id and secret are form-encoded before they go into the Basic header. */
function formDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** The client of a token request: HTTP Basic (RFC 6749 §2.3.1) or client_id/client_secret in the body. */
function clientOf(req: RouteRequest, form: URLSearchParams): { id: string; secret: string; basic: boolean } {
  const auth = req.headers.authorization ?? '';
  if (/^basic /i.test(auth)) {
    const c = decodeBasic(auth.slice(6));
    if (c) return { id: formDecode(c.user), secret: formDecode(c.password), basic: true };
  }
  return { id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '', basic: false };
}

/** `POST /oauth-token`: client_credentials and authorization_code grants; answers a bearer token. */
export function tokenEndpoint(config: OAuthConfig, req: RouteRequest): AppResponse {
  if (req.method !== 'POST') return oauthError(405, 'invalid_request', 'use POST', { Allow: 'POST' });
  const form = new URLSearchParams(parseForm(req.body));
  const client = clientOf(req, form);
  if (!sameSecret(client.id, config.clientId) || !sameSecret(client.secret, config.clientSecret)) {
    return oauthError(
      401,
      'invalid_client',
      'client authentication failed',
      client.basic ? { 'WWW-Authenticate': 'Basic realm="erpcert"' } : {},
    );
  }
  const grant = form.get('grant_type');
  if (grant === 'authorization_code') {
    const code = form.get('code') ?? '';
    const pending = config.codes.get(code);
    config.codes.delete(code);
    if (!pending || pending.clientId !== client.id)
      return oauthError(400, 'invalid_grant', 'the code is unknown, used or expired');
    if ((form.get('redirect_uri') ?? '') !== pending.redirectUri)
      return oauthError(400, 'invalid_grant', 'redirect_uri differs from the authorization request');
    if (pending.challenge) {
      const verifier = form.get('code_verifier') ?? '';
      const derived =
        pending.challengeMethod === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
      if (!verifier || derived !== pending.challenge)
        return oauthError(400, 'invalid_grant', 'code_verifier does not match the code_challenge');
    }
  } else if (grant === 'refresh_token') {
    const refresh = form.get('refresh_token') ?? '';
    if (config.refreshTokens.get(refresh) !== client.id)
      return oauthError(400, 'invalid_grant', 'the refresh_token is unknown, expired or issued to another client');
    const token = config.tokens.add(client.id);
    return json(200, {
      access_token: token,
      token_type: 'Bearer',
      expires_in: config.tokens.ttlSeconds,
      refresh_token: refresh,
    });
  } else if (grant !== 'client_credentials') {
    return oauthError(
      400,
      'unsupported_grant_type',
      'grant_type must be client_credentials, authorization_code or refresh_token',
    );
  }
  const token = config.tokens.add(client.id);
  const refresh = config.refreshTokens.add(client.id);
  return json(200, {
    access_token: token,
    token_type: 'Bearer',
    expires_in: config.tokens.ttlSeconds,
    refresh_token: refresh,
  });
}
