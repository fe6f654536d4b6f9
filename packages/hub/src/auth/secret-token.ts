/**
 * Random secrets handed out once (session cookies, API tokens, sign-in links) and kept only as their SHA-256:
 * a copy of the database opens nothing. 32 random bytes (256 bits; OWASP asks at least 64) in base64url, with a
 * prefix saying what the secret is (so a leaked one is recognised by secret scanners and people).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_PREFIX = 'ehs_';
export const API_TOKEN_PREFIX = 'eht_';
export const LINK_PREFIX = 'ehl_';

export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** What the database keeps of a secret. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A value derived from a session's secret (its CSRF token): bound to the session, useless without it. */
export function derivedToken(secret: string, purpose: string): string {
  return createHmac('sha256', secret).update(purpose, 'utf8').digest('base64url');
}

/** Compares two strings in constant time (for equal lengths; a different length is simply false). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
