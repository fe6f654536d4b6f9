/** A small deterministic random source (mulberry32): the same seed gives the same demo data. */
export class Prng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }

  /** An amount in [min, max] with two decimals, as text. */
  amount(min: number, max: number): string {
    return (Math.round((min + this.next() * (max - min)) * 100) / 100).toFixed(2);
  }

  /** A version-4 shaped UUID from this source. */
  uuid(): string {
    const hex = (n: number) => Array.from({ length: n }, () => Math.floor(this.next() * 16).toString(16)).join('');
    return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[this.int(0, 3)]}${hex(3)}-${hex(12)}`;
  }
}
