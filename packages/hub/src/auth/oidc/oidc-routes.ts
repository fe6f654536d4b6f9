/**
 * OpenID Connect sign-in as Hono routes, for any provider:
 * - `GET /auth/oidc`: a page with the "Sign in with OpenID Connect" link;
 * - `GET /auth/oidc/start?return=/path`: a fresh state, nonce and PKCE verifier kept on the server (the browser gets
 *   only an HttpOnly cookie with the transaction's random id), then a redirect to the provider (authorization code
 *   flow, S256);
 * - `GET /auth/oidc/callback`: the transaction taken once, the state compared, the code exchanged, the ID token
 *   checked by openid-client (signature, issuer, audience, expiry, nonce), the groups mapped; then `onSignedIn`
 *   answers (by default auth/oidc-sign-in.ts: the user made or updated, a session opened).
 * Every failure is a page that says what happened and offers to start again: never a stack, never the client secret.
 */
import { type Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import * as client from 'openid-client';
import { PAGE_CSP } from '../../pages/page-routes.js';
import { describeFailure, OidcClient } from './oidc-client.js';
import { identityOf, lacksClaims, type OnSignedIn } from './oidc-identity.js';
import { refusedPage, signInPage } from './oidc-pages.js';
import { CALLBACK_PATH, type OidcSettings, SIGN_IN_PATH, START_PATH } from './oidc-settings.js';
import { MemoryTransactions, type OidcTransactionStore, TRANSACTION_TTL_MS } from './oidc-transactions.js';

export interface OidcRoutesOptions {
  readonly settings: OidcSettings;
  readonly onSignedIn: OnSignedIn;
  /** @defaultValue in this process's memory */
  readonly transactions?: OidcTransactionStore;
  /** Where refusals are written, one line each (never a secret, a code or a token). */
  readonly log?: (line: string) => void;
}

/** The cookie that carries a sign-in's transaction id from /start to /callback. */
export const TRANSACTION_COOKIE = 'erpcert_oidc';
const COOKIE_PATH = '/auth/oidc';

/** A local path to go back to: the path and query of a URL on the hub itself, else `/` (never an open redirect). */
export function localPath(raw: string | undefined): string {
  if (!raw?.startsWith('/') || raw.length > 2000) return '/';
  const base = 'http://hub.invalid';
  // the URL parser reads `//evil` and `/\evil` as another host, as a browser would
  const url = new URL(raw, base);
  return url.origin === base ? `${url.pathname}${url.search}` : '/';
}

export function oidcRoutes(o: OidcRoutesOptions): Hono {
  const { settings } = o;
  const log = o.log ?? ((line: string) => console.error(line));
  const rp = new OidcClient(settings);
  const transactions = o.transactions ?? new MemoryTransactions();
  const secure = settings.redirectUri.protocol === 'https:';
  const app = new Hono();

  app.use(`${SIGN_IN_PATH}/*`, secured);
  app.use(SIGN_IN_PATH, secured);

  const show = (c: Context, status: 400 | 403 | 502, title: string, message: string): Response => {
    return c.html(refusedPage(title, message).text, status);
  };

  // anything unexpected (onSignedIn included): a page that says nothing of the inside; the stack to the log
  app.onError((err, c) => {
    log(`oidc: ${c.req.method} ${c.req.path} failed: ${err.stack ?? String(err)}`);
    return c.html(
      refusedPage('Sign-in failed', 'The hub failed to finish the sign-in (an internal error, written to its log).')
        .text,
      500,
    );
  });

  app.get(SIGN_IN_PATH, (c) => c.html(signInPage(settings.issuer, localPath(c.req.query('return'))).text));

  app.get(START_PATH, async (c) => {
    let config: client.Configuration;
    try {
      config = await rp.configuration();
    } catch (err) {
      const { detail } = describeFailure(err);
      log(`oidc: discovery at ${settings.issuer.origin} failed: ${detail}`);
      return unreachable(c, detail);
    }
    const codeVerifier = client.randomPKCECodeVerifier();
    const tx = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier,
      returnTo: localPath(c.req.query('return')),
    };
    const id = transactions.put(tx);
    setCookie(c, TRANSACTION_COOKIE, id, {
      path: COOKIE_PATH,
      httpOnly: true,
      secure,
      // Lax: the provider's redirect back is a top-level navigation from another site
      sameSite: 'Lax',
      maxAge: TRANSACTION_TTL_MS / 1000,
    });
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: settings.redirectUri.href,
      scope: settings.scopes.join(' '),
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: tx.state,
      nonce: tx.nonce,
    });
    return c.redirect(url.href, 302);
  });

  app.get(CALLBACK_PATH, async (c) => {
    // the callback URL holds the code: no Referer carries it further
    c.header('Referrer-Policy', 'no-referrer');
    const id = getCookie(c, TRANSACTION_COOKIE);
    deleteCookie(c, TRANSACTION_COOKIE, { path: COOKIE_PATH, secure, httpOnly: true, sameSite: 'Lax' });
    const tx = id ? transactions.take(id) : undefined;
    if (!tx) {
      log('oidc: callback without a sign-in in progress (expired, already used, or started in another browser)');
      return show(
        c,
        400,
        'Sign-in expired',
        'This sign-in is not in progress in this browser: it expired, was already completed, or was started elsewhere. Start again.',
      );
    }
    const query = new URL(c.req.url).searchParams;
    if (query.get('state') !== tx.state) {
      log('oidc: callback refused: its state is not the one this browser started with');
      return show(
        c,
        400,
        'Sign-in refused',
        'The answer from the identity provider does not belong to the sign-in this browser started (its state differs): it was refused. Start again.',
      );
    }
    let config: client.Configuration;
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      config = await rp.configuration();
      // the URL the provider redirected to, as registered (behind a proxy the request's own URL differs)
      const current = new URL(settings.redirectUri);
      current.search = query.toString();
      tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: tx.codeVerifier,
        expectedState: tx.state,
        expectedNonce: tx.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      return failed(c, err);
    }
    const idToken = tokens.claims();
    if (!idToken) return show(c, 502, 'Sign-in failed', 'The identity provider sent no ID token.');
    let userInfo: Record<string, unknown> = {};
    if (lacksClaims(settings, idToken) && config.serverMetadata().userinfo_endpoint) {
      try {
        userInfo = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
      } catch (err) {
        return failed(c, err);
      }
    }
    const identity = identityOf(settings, idToken, userInfo);
    if (identity.memberships.length === 0 && !identity.admin) {
      log(
        `oidc: sign-in of subject ${identity.subject} refused: none of its ${identity.groups.length} group(s) maps to an organisation`,
      );
      const who = identity.email ?? identity.name ?? identity.subject;
      const example = settings.mapping.prefix ? ` such as ${settings.mapping.prefix}<organisation>:<role>` : '';
      const message =
        `You signed in at the identity provider as ${who}, but none of your groups gives access to an organisation ` +
        `on this hub. Ask the hub's admin to add you to a group${example}.`;
      return c.html(refusedPage('No access', message, 'none').text, 403);
    }
    log(
      `oidc: subject ${identity.subject} signed in (${identity.memberships.length} membership(s)${identity.admin ? ', hub admin' : ''})`,
    );
    return o.onSignedIn(c, identity, { returnTo: tx.returnTo });
  });

  function unreachable(c: Context, detail: string): Response {
    return show(
      c,
      502,
      'Identity provider unreachable',
      `The identity provider at ${settings.issuer.origin} did not answer (${detail}). Try again in a moment; if it lasts, tell the hub's admin.`,
    );
  }

  function failed(c: Context, err: unknown): Response {
    const { kind, detail } = describeFailure(err);
    log(`oidc: sign-in failed (${kind}): ${detail}`);
    if (kind === 'unreachable') return unreachable(c, detail);
    if (err instanceof client.AuthorizationResponseError && err.error === 'access_denied')
      return show(c, 403, 'Sign-in cancelled', 'The sign-in was cancelled or not allowed at the identity provider.');
    if (kind === 'refused')
      return show(
        c,
        400,
        'Sign-in refused',
        `The identity provider did not accept the sign-in: ${detail}. Start again.`,
      );
    return show(c, 400, 'Sign-in refused', `The identity provider's answer failed its checks: ${detail}. Start again.`);
  }

  return app;
}

/** The pages' security headers on every answer of these routes. */
async function secured(c: Context, next: () => Promise<void>): Promise<void> {
  await next();
  c.res.headers.set('Content-Security-Policy', PAGE_CSP);
  c.res.headers.set('X-Content-Type-Options', 'nosniff');
  c.res.headers.set('X-Frame-Options', 'DENY');
  c.res.headers.set('Cache-Control', 'no-store');
  if (!c.res.headers.has('Referrer-Policy')) c.res.headers.set('Referrer-Policy', 'same-origin');
}
