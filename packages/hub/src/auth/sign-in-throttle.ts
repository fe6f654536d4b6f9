/**
 * Repeated failed sign-ins (OWASP Authentication Cheat Sheet), counted per account and per address over a window:
 * after a few failures each further attempt must wait longer (1 s, 2 s, 4 s, ... after the last failure: slowed
 * down), and after more the account or address is locked for a while. The hub never sleeps on a request: an
 * attempt inside the wait is refused (429 with Retry-After) and not counted. A success clears the account's count.
 * The clock is injected (tests move it; no test sleeps).
 *
 * An account is counted under its email; what was typed when it is no address (a password in the wrong field) under
 * {@link SignInThrottle.accountKey}, never as typed.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

export interface ThrottlePolicy {
  /** Failures counted within this many minutes. */
  readonly windowMinutes: number;
  /** Per account: failures before the waits start, and before the lock. */
  readonly accountSlowAfter: number;
  readonly accountLockAfter: number;
  /** Per address: the same, higher (one office, many people). */
  readonly addressSlowAfter: number;
  readonly addressLockAfter: number;
  readonly lockMinutes: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = {
  windowMinutes: 15,
  accountSlowAfter: 3,
  accountLockAfter: 10,
  addressSlowAfter: 20,
  addressLockAfter: 100,
  lockMinutes: 15,
};

export type ThrottleVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number; readonly locked: boolean };

export class SignInThrottle {
  /** The key of {@link accountKey}'s HMAC: in this process's memory only, never stored. */
  private readonly typedKey = randomBytes(32);

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
    readonly policy: ThrottlePolicy = DEFAULT_THROTTLE,
  ) {}

  private async failures(column: 'email' | 'address', value: string): Promise<{ n: number; last: number }> {
    const since = new Date(this.now().getTime() - this.policy.windowMinutes * 60_000).toISOString();
    // failures after the last success (per account) inside the window
    const lastOk = await this.db
      .selectFrom('sign_in_attempts')
      .select((eb) => eb.fn.max('at').as('at'))
      .where(column, '=', value)
      .where('succeeded', '=', 1)
      .executeTakeFirst();
    const from = column === 'email' && lastOk?.at && lastOk.at > since ? lastOk.at : since;
    const r = await this.db
      .selectFrom('sign_in_attempts')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('at').as('last')])
      .where(column, '=', value)
      .where('succeeded', '=', 0)
      .where('at', '>', from)
      .executeTakeFirstOrThrow();
    return { n: Number(r.n), last: r.last ? Date.parse(String(r.last)) : 0 };
  }

  private verdict(f: { n: number; last: number }, slowAfter: number, lockAfter: number): ThrottleVerdict {
    if (f.n < slowAfter) return { allowed: true };
    const locked = f.n >= lockAfter;
    const waitMs = locked ? this.policy.lockMinutes * 60_000 : 1000 * 2 ** (f.n - slowAfter);
    const left = f.last + waitMs - this.now().getTime();
    return left <= 0 ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.ceil(left / 1000), locked };
  }

  /**
   * What the account's count is kept under: an address (an account's email, or shaped like one) as it is; any other
   * typed value as an HMAC under a key that lives only in this process, so the database holds nothing a guessed
   * password could be checked against. Such a value names no account, so the count it still gets (per process)
   * protects nobody's account; the per-address count stays whole.
   */
  accountKey(typed: string, isAddress: boolean): string {
    return isAddress
      ? typed
      : `not-an-address:${createHmac('sha256', this.typedKey).update(typed, 'utf8').digest('hex')}`;
  }

  /** Whether a sign-in for `email` (an {@link accountKey}) from `address` may be tried now. */
  async check(email: string, address: string): Promise<ThrottleVerdict> {
    const p = this.policy;
    const account = this.verdict(await this.failures('email', email), p.accountSlowAfter, p.accountLockAfter);
    const from = this.verdict(await this.failures('address', address), p.addressSlowAfter, p.addressLockAfter);
    if (account.allowed) return from;
    if (from.allowed) return account;
    return account.retryAfterSeconds >= from.retryAfterSeconds ? account : from;
  }

  /**
   * Keeps an attempt; and forgets those older than the window (and a lock), which no verdict reads: the table holds
   * minutes of attempts, not every email ever typed.
   */
  async recordAttempt(email: string, address: string, succeeded: boolean): Promise<void> {
    const now = this.now();
    const keep = Math.max(this.policy.windowMinutes, this.policy.lockMinutes) * 60_000;
    await this.db
      .deleteFrom('sign_in_attempts')
      .where('at', '<', new Date(now.getTime() - keep).toISOString())
      .execute();
    await this.db
      .insertInto('sign_in_attempts')
      .values({ at: now.toISOString(), email, address, succeeded: succeeded ? 1 : 0 })
      .execute();
  }
}
