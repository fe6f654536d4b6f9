/**
 * Who may write: a request carrying `Authorization: Bearer <token>` with the hub's token (ERPCERT_HUB_TOKEN on the
 * hub's side). Without a configured token, writing is refused. Issue 26 replaces this by organisation tokens with
 * scopes; the check stays in this one place. The token is compared by digest in constant time and never logged.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { TOKEN_ENV } from '../constants.js';
import { ApiError } from './api-error.js';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export function requireToken(token: string | undefined): MiddlewareHandler {
  const want = token ? digest(token) : undefined;
  return async (c, next) => {
    if (!want)
      throw new ApiError(403, `publishing is disabled: the hub was started without ${TOKEN_ENV} (set it to a secret)`);
    const header = c.req.header('authorization') ?? '';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m?.[1])
      throw new ApiError(401, 'this needs the hub token: send Authorization: Bearer <token>', {
        'WWW-Authenticate': 'Bearer realm="erpcert hub"',
      });
    if (!timingSafeEqual(digest(m[1]), want))
      throw new ApiError(401, "the token is not the hub's", { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    await next();
  };
}

/** Whether `given` is the hub's token (the upload form sends it as a field: a browser form cannot send a header). */
export function isHubToken(token: string | undefined, given: string): boolean {
  return token ? timingSafeEqual(digest(given), digest(token)) : false;
}
