/**
 * Passwords, hashed with scrypt from node:crypto (memory-hard; OWASP Password Storage Cheat Sheet: N = 2^17,
 * r = 8, p = 1 when Argon2id is not at hand). Stored as `scrypt$N$r$p$salt$hash` (base64url), so that the cost can
 * rise later and old hashes still verify. Compared in constant time; an unknown account is checked against a dummy
 * hash, so that its answer takes as long as a wrong password's.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** OWASP's minimum for scrypt: 2^17 (128 MiB with r = 8). */
export const OWASP_SCRYPT: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };

const KEY_BYTES = 32;
const SALT_BYTES = 16;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r * cost.p };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string, cost: ScryptCost = OWASP_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches `stored`; false for a malformed or missing hash (never throws on bad input). */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    // the same work as a real check: an unknown account is not told apart by time
    await derive(password, Buffer.alloc(SALT_BYTES), OWASP_SCRYPT);
    return false;
  }
  const [, n, r, p, salt, key] = parts as [string, string, string, string, string, string];
  const want = Buffer.from(key, 'base64url');
  const got = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return want.length === got.length && timingSafeEqual(want, got);
}

/** Why a new password is refused, or undefined (OWASP: length, not composition rules). */
export function passwordProblem(password: unknown): string | undefined {
  if (typeof password !== 'string') return 'the password must be text';
  if ([...password].length < MIN_PASSWORD_LENGTH)
    return `the password must have at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `the password must have at most ${MAX_PASSWORD_LENGTH} characters`;
  return undefined;
}
