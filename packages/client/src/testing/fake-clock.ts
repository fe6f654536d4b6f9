import type { Clock } from '../clock.js';

/** A clock for tests: time moves only by `advance`; `sleep` resolves when its time is reached. */
export class FakeClock implements Clock {
  #now: number;
  readonly #timers: { at: number; resolve: () => void }[] = [];
  /** Every sleep asked for, in ms, in call order. */
  readonly sleeps: number[] = [];

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    return new Promise((resolve) => {
      this.#timers.push({ at: this.#now + ms, resolve });
      this.#timers.sort((a, b) => a.at - b.at);
    });
  }

  /** Sleeps not yet over. */
  get pending(): number {
    return this.#timers.length;
  }

  /** Moves time forward, waking due sleepers in time order (letting each one's continuation run). */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    while (this.#timers.length > 0 && this.#timers[0]!.at <= target) {
      const t = this.#timers.shift()!;
      this.#now = t.at;
      t.resolve();
      for (let i = 0; i < 10; i++) await Promise.resolve();
    }
    this.#now = target;
  }
}
