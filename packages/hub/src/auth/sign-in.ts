/**
 * Signing in and out, shared by the API (`/api/v1/session`) and the sign-in page: the throttle first (a refused
 * attempt is not counted and checks no password), then the password, in constant time whether or not the account
 * exists; one message for a wrong email and a wrong password. A success opens a fresh session and sets its cookie
 * (HttpOnly, SameSite=Lax, Path=/, Secure and the `__Host-` prefix over TLS); every outcome is in the audit log.
 */
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { ApiError } from '../api/api-error.js';
import type { Actor } from './actor.js';
import type { AuditAction } from './audit-log.js';
import type { HubAuth } from './hub-auth.js';
import { verifyPassword } from './password.js';
import { clientAddress, overTls, sessionCookieName } from './request-auth.js';
import { looksLikeAddress, NOT_AN_ADDRESS, typedEmail } from './typed-email.js';

export const WRONG_CREDENTIALS = 'the email or the password is wrong';

/** Writes one entry per organisation of the user (each admin sees their members' sign-ins), or one without. */
export async function recordForUser(
  auth: HubAuth,
  userId: number | undefined,
  entry: { actor: Actor | string; action: AuditAction; subject?: string; address: string },
): Promise<void> {
  const orgs = userId === undefined ? [] : (await auth.accounts.memberships(userId)).map((m) => m.organisationId);
  for (const organisationId of orgs.length > 0 ? orgs : [null]) await auth.audit.record({ ...entry, organisationId });
}

/** Opens a session for `userId` and sets the cookie. */
export async function startSession(
  auth: HubAuth,
  c: Context,
  userId: number,
  method: 'password' | 'link' | 'oidc',
): Promise<string> {
  const { secret } = await auth.sessions.open(userId, method);
  setCookie(c, sessionCookieName(c, auth.trustProxy), secret, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: overTls(c, auth.trustProxy),
  });
  c.set('sessionSecret', secret);
  return secret;
}

export function clearSessionCookie(auth: HubAuth, c: Context): void {
  deleteCookie(c, sessionCookieName(c, auth.trustProxy), { path: '/', secure: overTls(c, auth.trustProxy) });
}

/**
 * Checks an email and password; on success opens the session. Throws ApiError 401 or 429 otherwise. The typed email
 * reaches the audit log and the throttle's table only when it is an account's or shaped like an address
 * (typed-email.ts): a password typed into it never does.
 */
export async function signInWithPassword(
  auth: HubAuth,
  c: Context,
  rawEmail: unknown,
  password: unknown,
): Promise<number> {
  const address = clientAddress(c, auth.trustProxy);
  const typed = typedEmail(rawEmail);
  if (typed === '' || typeof password !== 'string' || password === '')
    throw new ApiError(400, 'give an email and a password');
  const found = await auth.accounts.userByEmail(typed);
  const email = found !== undefined || looksLikeAddress(typed) ? typed : undefined;
  const anonymous = email === undefined ? NOT_AN_ADDRESS : `anonymous (as ${email})`;
  const key = auth.throttle.accountKey(typed, email !== undefined);
  const verdict = await auth.throttle.check(key, address);
  if (!verdict.allowed) {
    await recordForUser(auth, found?.id, {
      actor: anonymous,
      action: 'sign-in-refused',
      subject: verdict.locked ? 'locked' : 'slowed down',
      address,
    });
    throw new ApiError(
      429,
      `too many failed sign-ins: try again in ${verdict.retryAfterSeconds} second${verdict.retryAfterSeconds === 1 ? '' : 's'}`,
      { 'Retry-After': String(verdict.retryAfterSeconds) },
    );
  }
  const stored = await auth.accounts.passwordHash(typed);
  const ok = await verifyPassword(password.slice(0, 1024), stored?.hash ?? null);
  await auth.throttle.recordAttempt(key, address, ok);
  if (!ok || !stored) {
    await recordForUser(auth, stored?.userId, { actor: anonymous, action: 'sign-in-failed', address });
    throw new ApiError(401, WRONG_CREDENTIALS);
  }
  await startSession(auth, c, stored.userId, 'password');
  await recordForUser(auth, stored.userId, {
    actor: `user:${stored.userId} ${typed}`,
    action: 'sign-in',
    subject: 'password',
    address,
  });
  return stored.userId;
}

/** Uses a one-time sign-in link. Throws ApiError 401 when it is unknown, used or expired. */
export async function signInWithLink(auth: HubAuth, c: Context, secret: unknown): Promise<number> {
  const address = clientAddress(c, auth.trustProxy);
  const userId =
    typeof secret === 'string' && secret.length < 200 ? await auth.accounts.useSignInLink(secret) : undefined;
  if (userId === undefined) {
    await auth.audit.record({
      actor: 'anonymous',
      organisationId: null,
      action: 'sign-in-failed',
      subject: 'link',
      address,
    });
    throw new ApiError(401, 'this sign-in link is unknown, used or expired: ask an admin for a new one');
  }
  await startSession(auth, c, userId, 'link');
  const user = await auth.accounts.user(userId);
  await recordForUser(auth, userId, {
    actor: `user:${userId} ${user?.email ?? ''}`,
    action: 'sign-in',
    subject: 'link',
    address,
  });
  return userId;
}
