/**
 * Who a request comes from, once per request: `Authorization: Bearer <API token>` (a token actor; a bad token is
 * 401 at once, never "anonymous"), else the session cookie (a user actor), else nobody. The actor, and whether it
 * came by cookie (only then is CSRF checked), are kept on the context. Routes then ask `allow(c, action, org)`.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { ApiError } from '../api/api-error.js';
import { type Actor, ANONYMOUS } from './actor.js';
import type { HubAuth } from './hub-auth.js';
import { type Action, can, organisationsWhere } from './permissions.js';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from './sessions.js';

export interface AuthVariables {
  actor: Actor;
  /** The session cookie's secret, when the actor came by cookie. */
  sessionSecret: string | undefined;
  /** The organisation an upload goes to, decided before its body is read. */
  targetOrganisation: number | undefined;
}

declare module 'hono' {
  interface ContextVariableMap extends AuthVariables {}
}

/** Whether the browser reached the hub over TLS (directly, or through the trusted proxy). */
export function overTls(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trustProxy && (c.req.header('x-forwarded-proto') ?? '').split(',')[0]?.trim().toLowerCase() === 'https';
}

export function sessionCookieName(c: Context, trustProxy: boolean): string {
  return overTls(c, trustProxy) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** The client's address: the trusted proxy's last X-Forwarded-For entry, else the socket's. */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const last = (c.req.header('x-forwarded-for') ?? '').split(',').pop()?.trim();
    if (last) return last.slice(0, 100);
  }
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}

export function authenticate(auth: HubAuth): MiddlewareHandler {
  return async (c, next) => {
    c.set('actor', ANONYMOUS);
    c.set('sessionSecret', undefined);
    const header = c.req.header('authorization');
    if (header !== undefined) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!m?.[1])
        throw new ApiError(401, 'send an API token as Authorization: Bearer <token>', {
          'WWW-Authenticate': 'Bearer realm="erpcert hub"',
        });
      const actor = await auth.tokens.resolve(m[1]);
      if (!actor)
        throw new ApiError(401, 'the token is unknown, revoked or expired', {
          'WWW-Authenticate': 'Bearer error="invalid_token"',
        });
      c.set('actor', actor);
      return next();
    }
    const secret = getCookie(c, sessionCookieName(c, auth.trustProxy));
    if (secret) {
      const actor = await auth.sessions.resolve(secret);
      if (actor) {
        c.set('actor', actor);
        c.set('sessionSecret', secret);
      }
    }
    return next();
  };
}

const SIGN_IN_FIRST = 'sign in first (or send an API token: Authorization: Bearer <token>)';
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="erpcert hub"' };

export function actorOf(c: Context): Actor {
  return c.get('actor') ?? ANONYMOUS;
}

/**
 * Refuses unless the request's actor may do `action` in `organisationId`: nobody signed in gets 401; one that may
 * not even read there gets 404 (another organisation's objects do not exist for it: `what` names the object);
 * one that may read but not do this gets 403.
 */
export function allow(c: Context, action: Action, organisationId: number, what = 'this'): void {
  const actor = actorOf(c);
  if (actor.kind === 'anonymous') throw new ApiError(401, SIGN_IN_FIRST, CHALLENGE);
  if (can(actor, action, organisationId)) return;
  if (action !== 'read' && can(actor, 'read', organisationId))
    throw new ApiError(403, `your role or token may not ${ACTION_WORDS[action]}`);
  throw new ApiError(404, `there is no ${what}`);
}

/** The organisations whose objects the actor may read; 401 when nobody is signed in. */
export function readable(c: Context): number[] {
  const actor = actorOf(c);
  if (actor.kind === 'anonymous') throw new ApiError(401, SIGN_IN_FIRST, CHALLENGE);
  return organisationsWhere(actor, 'read');
}

/**
 * The organisation a new object goes to: the token's, else the one named by `requested` (an id or slug) among
 * the user's, else the user's only one where it may do `action`.
 */
export function organisationFor(c: Context, action: Action, requested: string | undefined): number {
  const actor = actorOf(c);
  if (actor.kind === 'anonymous') throw new ApiError(401, SIGN_IN_FIRST, CHALLENGE);
  const allowed = organisationsWhere(actor, action);
  if (actor.kind === 'token') {
    if (allowed.length === 0) throw new ApiError(403, `your token may not ${ACTION_WORDS[action]}`);
    return actor.organisationId;
  }
  if (requested !== undefined && requested !== '') {
    const m = actor.memberships.find((x) => String(x.organisationId) === requested || x.organisationSlug === requested);
    if (!m) throw new ApiError(404, `there is no organisation ${requested}`);
    allow(c, action, m.organisationId, 'organisation');
    return m.organisationId;
  }
  if (allowed.length === 1) return allowed[0] as number;
  if (allowed.length === 0) throw new ApiError(403, `your role may not ${ACTION_WORDS[action]}`);
  throw new ApiError(400, 'you belong to several organisations: say which (organisation=<id or slug>)');
}

const ACTION_WORDS: Readonly<Record<Action, string>> = {
  read: 'read this',
  publish: 'publish runs',
  'manage-runs': 'delete, relabel, share or submit runs',
  'save-target': 'save, change or delete targets',
  run: 'start, cancel or rerun live runs',
  'register-key': 'register signing keys',
  'manage-members': 'manage members',
  'manage-tokens': 'manage API tokens',
  'read-audit': 'read the audit log',
  review: 'review runs',
};
