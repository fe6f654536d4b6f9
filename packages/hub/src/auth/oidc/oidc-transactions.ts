/**
 * Sign-ins in progress, kept on the server: the state, nonce and PKCE verifier of each redirect to the provider,
 * found again by a random id that only the browser's HttpOnly cookie carries, and taken once (a replayed callback
 * finds nothing). They live ten minutes in this process's memory: with several hubs behind one address, the
 * provider's redirect must come back to the hub that started it (sticky sessions), or pass a shared store.
 */
import { randomBytes } from 'node:crypto';

export interface OidcTransaction {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
  /** A path of the hub to go back to after signing in. */
  readonly returnTo: string;
}

/** Where transactions are kept: in memory by default; a database table would do for several hubs. */
export interface OidcTransactionStore {
  /** Keeps a transaction; answers its id (for the cookie). */
  put(tx: OidcTransaction): string;
  /** The transaction of this id, removed: a second take answers undefined. Undefined too when expired. */
  take(id: string): OidcTransaction | undefined;
}

/** How long the provider may take to send the user back. */
export const TRANSACTION_TTL_MS = 10 * 60 * 1000;
/** At most this many sign-ins in progress; the oldest go first (a flood of /start cannot fill the memory). */
const MAX_PENDING = 10_000;

export class MemoryTransactions implements OidcTransactionStore {
  readonly #pending = new Map<string, { tx: OidcTransaction; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  put(tx: OidcTransaction): string {
    const id = randomBytes(32).toString('base64url');
    this.#pending.set(id, { tx, expires: this.now() + TRANSACTION_TTL_MS });
    this.#prune();
    return id;
  }

  take(id: string): OidcTransaction | undefined {
    const entry = this.#pending.get(id);
    if (!entry) return undefined;
    this.#pending.delete(id);
    return entry.expires > this.now() ? entry.tx : undefined;
  }

  get size(): number {
    return this.#pending.size;
  }

  #prune(): void {
    const now = this.now();
    // a Map iterates in insertion order, which is expiry order (one lifetime for all): stop at the first still alive
    for (const [id, { expires }] of this.#pending) {
      if (expires > now && this.#pending.size <= MAX_PENDING) break;
      this.#pending.delete(id);
    }
  }
}
