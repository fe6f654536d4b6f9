/**
 * Edit locks: the reference server's model of a record "open in another session" (README "Portal action
 * API", "What locks a record"). A client opens one with `POST /erpcert/lock?register=IVVc&id=...` on its
 * HSESSION session; until it is released or expires, portal writes of that record from any OTHER session
 * answer `Record is locked` (portal-action-api.md §7).
 */
export class EditLocks {
  readonly #locks = new Map<string, { session: string; expires: number }>();
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(ttlSeconds: number, now: () => number) {
    this.#ttlMs = ttlSeconds * 1000;
    this.#now = now;
  }

  static #key(company: number, register: string, id: string): string {
    return `${company}\u0000${register}\u0000${id}`;
  }

  #live(key: string): { session: string; expires: number } | undefined {
    const l = this.#locks.get(key);
    if (l && l.expires <= this.#now()) {
      this.#locks.delete(key);
      return undefined;
    }
    return l;
  }

  /** Opens (or renews) a lock for a session; false when another session holds it. */
  open(company: number, register: string, id: string, session: string): boolean {
    const key = EditLocks.#key(company, register, id);
    const held = this.#live(key);
    if (held && held.session !== session) return false;
    this.#locks.set(key, { session, expires: this.#now() + this.#ttlMs });
    return true;
  }

  /** Releases a session's lock; false when the session held none. */
  release(company: number, register: string, id: string, session: string): boolean {
    const key = EditLocks.#key(company, register, id);
    if (this.#live(key)?.session !== session) return false;
    this.#locks.delete(key);
    return true;
  }

  /** True when a session other than `session` holds a live lock on the record. */
  lockedAgainst(company: number, register: string, id: string, session: string | undefined): boolean {
    const held = this.#live(EditLocks.#key(company, register, id));
    return held !== undefined && held.session !== session;
  }

  /** Drops the lock of a record that no longer exists. */
  forget(company: number, register: string, id: string): void {
    this.#locks.delete(EditLocks.#key(company, register, id));
  }
}
