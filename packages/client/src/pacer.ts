import { type Clock, systemClock } from './clock.js';

/** Pacing of one client: at most one request start per interval, shared by all its calls. */
export interface PacingOptions {
  /** Minimum milliseconds between the starts of two requests. */
  readonly minIntervalMs?: number;
  /** Maximum request starts per second (another way to say `minIntervalMs = 1000 / n`). */
  readonly maxPerSecond?: number;
}

/**
 * Hands out request start times at least `interval` apart, in call order (DESIGN.md: "requests are paced").
 * The slot is reserved synchronously, so concurrent callers queue up in the order they called `acquire`.
 */
export class Pacer {
  readonly intervalMs: number;
  readonly #clock: Clock;
  #next = Number.NEGATIVE_INFINITY;

  constructor(options: PacingOptions = {}, clock: Clock = systemClock) {
    const fromRate = options.maxPerSecond && options.maxPerSecond > 0 ? 1000 / options.maxPerSecond : 0;
    this.intervalMs = Math.max(options.minIntervalMs ?? 0, fromRate);
    this.#clock = clock;
  }

  /** Waits for this caller's slot. Resolves at once when pacing is off. */
  async acquire(): Promise<void> {
    if (this.intervalMs <= 0) return;
    const now = this.#clock.now();
    const slot = Math.max(now, this.#next);
    this.#next = slot + this.intervalMs;
    if (slot > now) await this.#clock.sleep(slot - now);
  }
}
