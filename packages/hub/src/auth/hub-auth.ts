/**
 * The hub's accounts, sessions, tokens, audit log and sign-in throttle over one store, with one clock (tests inject
 * theirs) and the settings of the HTTP side (trusted proxy).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { Accounts } from './accounts.js';
import { ApiTokens } from './api-tokens.js';
import { AuditLog } from './audit-log.js';
import type { ScryptCost } from './password.js';
import { type SessionPolicy, Sessions } from './sessions.js';
import { SignInThrottle, type ThrottlePolicy } from './sign-in-throttle.js';

export interface AuthOptions {
  readonly now?: () => Date;
  /** The scrypt cost of new passwords (default OWASP's; tests lower it). */
  readonly scrypt?: ScryptCost;
  readonly sessions?: SessionPolicy;
  readonly throttle?: ThrottlePolicy;
  /**
   * The hub runs behind a reverse proxy that terminates TLS: its `X-Forwarded-Proto` says whether the browser
   * used https (the cookie gets `Secure`), its last `X-Forwarded-For` entry is the client's address. Without it
   * both headers are ignored (anybody can send them).
   */
  readonly trustProxy?: boolean;
}

export interface HubAuth {
  readonly accounts: Accounts;
  readonly sessions: Sessions;
  readonly tokens: ApiTokens;
  readonly audit: AuditLog;
  readonly throttle: SignInThrottle;
  readonly trustProxy: boolean;
  readonly now: () => Date;
}

export function hubAuth(db: Kysely<Database>, o: AuthOptions = {}): HubAuth {
  const now = o.now ?? (() => new Date());
  const accounts = new Accounts(db, now, o.scrypt);
  return {
    accounts,
    sessions: new Sessions(db, accounts, now, o.sessions),
    tokens: new ApiTokens(db, now),
    audit: new AuditLog(db, now),
    throttle: new SignInThrottle(db, now, o.throttle),
    trustProxy: o.trustProxy ?? false,
    now,
  };
}
