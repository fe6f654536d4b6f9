/**
 * Sessions in the database (OWASP Session Management Cheat Sheet): the cookie holds a random 256-bit secret, the
 * table only its SHA-256. A session ends after `idleMinutes` without a request, or `maxHours` after sign-in,
 * whichever is first; sign-out deletes it, "sign out everywhere" deletes every session of the user; a disabled user
 * has none. A fresh secret at every sign-in (no fixation). The CSRF token of a session is derived from its secret.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Accounts } from './accounts.js';
import type { UserActor } from './actor.js';
import { derivedToken, newSecret, SESSION_PREFIX, secretHash } from './secret-token.js';

export interface SessionPolicy {
  readonly idleMinutes: number;
  readonly maxHours: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleMinutes: 120, maxHours: 12 };

/** The session cookie's name; `__Host-` when served over TLS (Secure, Path=/, no Domain). */
export const SESSION_COOKIE = 'erpcert_session';
export const SECURE_SESSION_COOKIE = '__Host-erpcert_session';

/** A session's CSRF token: the forms carry it, the check recomputes it from the cookie. */
export function csrfTokenOf(sessionSecret: string): string {
  return derivedToken(sessionSecret, 'erpcert-hub csrf v1');
}

export class Sessions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly accounts: Accounts,
    private readonly now: () => Date = () => new Date(),
    readonly policy: SessionPolicy = DEFAULT_SESSION_POLICY,
  ) {}

  /** Opens a session for `userId`: its secret goes to the cookie, once. */
  async open(userId: number, method: 'password' | 'link' | 'oidc'): Promise<{ secret: string; expiresAt: Date }> {
    const secret = newSecret(SESSION_PREFIX);
    const now = this.now();
    const expiresAt = new Date(now.getTime() + this.policy.maxHours * 3_600_000);
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: secretHash(secret),
        user_id: userId,
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
        method,
      })
      .execute();
    return { secret, expiresAt };
  }

  /** The user a cookie's secret stands for, or undefined (unknown, ended, idle too long, user disabled). */
  async resolve(secret: string): Promise<UserActor | undefined> {
    const now = this.now();
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id',
        'sessions.user_id',
        'sessions.last_seen_at',
        'sessions.expires_at',
        'users.email',
        'users.disabled',
        'users.hub_admin',
      ])
      .where('sessions.token_hash', '=', secretHash(secret))
      .executeTakeFirst();
    if (!row) return undefined;
    const idleSince = now.getTime() - Date.parse(row.last_seen_at);
    if (
      Number(row.disabled) === 1 ||
      Date.parse(row.expires_at) <= now.getTime() ||
      idleSince >= this.policy.idleMinutes * 60_000
    ) {
      await this.db.deleteFrom('sessions').where('id', '=', row.id).execute();
      return undefined;
    }
    // last use, at most once a minute (a page with many requests writes once)
    if (idleSince >= 60_000)
      await this.db.updateTable('sessions').set({ last_seen_at: now.toISOString() }).where('id', '=', row.id).execute();
    const userId = Number(row.user_id);
    return {
      kind: 'user',
      userId,
      email: row.email,
      sessionId: Number(row.id),
      hubAdmin: Number(row.hub_admin) === 1,
      memberships: await this.accounts.memberships(userId),
    };
  }

  /** Signs one session out. */
  async close(secret: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', secretHash(secret)).execute();
  }

  /** Signs a user out everywhere: every session of theirs ends. Returns how many. */
  async closeAll(userId: number): Promise<number> {
    const r = await this.db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async count(userId: number): Promise<number> {
    const r = await this.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
