import { randomBytes } from 'node:crypto';

/** A random opaque id for sessions, tokens and codes (192 bits, URL-safe). */
export function randomId(): string {
  return randomBytes(24).toString('base64url');
}

interface Entry<V> {
  value: V;
  expires: number;
}

/**
 * Entries that expire: sliding (each use extends the lifetime, sessions) or fixed (tokens, codes).
 * Holds at most `max` entries; the least recently used goes first. Expiry is checked on access, so no
 * timer keeps the process alive.
 */
export class ExpiringMap<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #ttlMs: number;
  readonly #max: number;
  readonly #sliding: boolean;
  readonly #now: () => number;

  constructor(options: { ttlMs: number; max: number; sliding: boolean; now?: () => number }) {
    this.#ttlMs = options.ttlMs;
    this.#max = options.max;
    this.#sliding = options.sliding;
    this.#now = options.now ?? Date.now;
  }

  /** Stores a value under a new random id; returns the id. */
  add(value: V): string {
    const id = randomId();
    this.#entries.set(id, { value, expires: this.#now() + this.#ttlMs });
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
    return id;
  }

  /** The value of a live id (extending it when sliding), or undefined. */
  get(id: string): V | undefined {
    const e = this.#entries.get(id);
    if (!e) return undefined;
    const now = this.#now();
    if (e.expires <= now) {
      this.#entries.delete(id);
      return undefined;
    }
    if (this.#sliding) {
      e.expires = now + this.#ttlMs;
      this.#entries.delete(id);
      this.#entries.set(id, e);
    }
    return e.value;
  }

  /** Removes an id (single-use codes, logout). */
  delete(id: string): boolean {
    return this.#entries.delete(id);
  }

  /** Lifetime of new entries in seconds. */
  get ttlSeconds(): number {
    return Math.round(this.#ttlMs / 1000);
  }

  get size(): number {
    return this.#entries.size;
  }
}
