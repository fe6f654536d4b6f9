/**
 * Random secrets handed out once (session cookies, API tokens, sign-in links, share links) and kept only as their
 * SHA-256: a copy of the database opens nothing. 32 random bytes (256 bits; OWASP asks at least 64) in base64url,
 * with a prefix saying what the secret is (so a leaked one is recognised by secret scanners, people, and the audit
 * log's scrubber, which is made from {@link SECRET_PREFIXES}).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Every kind of secret the hub hands out, by its prefix: {@link newSecret} makes only these. */
export const SECRET_PREFIXES = {
  session: 'ehs_',
  apiToken: 'eht_',
  signInLink: 'ehl_',
  shareLink: 'ehr_',
} as const;

export type SecretPrefix = (typeof SECRET_PREFIXES)[keyof typeof SECRET_PREFIXES];

export const SESSION_PREFIX = SECRET_PREFIXES.session;
export const API_TOKEN_PREFIX = SECRET_PREFIXES.apiToken;
export const LINK_PREFIX = SECRET_PREFIXES.signInLink;
export const SHARE_LINK_PREFIX = SECRET_PREFIXES.shareLink;

/** The base64url body of a secret {@link newSecret} makes (32 bytes). */
export const SECRET_BODY_LENGTH = 43;

export function newSecret(prefix: SecretPrefix): string {
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
