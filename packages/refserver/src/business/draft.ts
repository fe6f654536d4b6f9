import type { RecordStore } from '../store/record-store.js';

/** A record being written: header fields and rows, all strings, mutable. */
export interface Draft {
  fields: Record<string, string>;
  rows: Record<string, string>[];
}

/** What a write can look up: the store, the company and today's date. */
export interface WriteContext {
  readonly store: RecordStore;
  readonly company: number;
  /** Today as YYYY-MM-DD (injectable for tests). */
  readonly today: string;
}

/** The header fields of a record of another register in the same company, or undefined. */
export function lookup(
  ctx: WriteContext,
  register: string,
  ...keyParts: string[]
): Readonly<Record<string, string>> | undefined {
  if (keyParts.some((k) => k === '')) return undefined;
  return ctx.store.lookup(register, ctx.company, keyParts);
}

/**
 * Which fields the request itself set: auto-fill never overwrites them (an explicit PayDeal beats the
 * customer's). Header names as-is; row fields as `<row>.<field>`.
 */
export class Explicit {
  readonly #set = new Set<string>();
  add(field: string, row = -1): void {
    this.#set.add(row < 0 ? field : `${row}.${field}`);
  }
  has(field: string, row = -1): boolean {
    return this.#set.has(row < 0 ? field : `${row}.${field}`);
  }
}

/** Adds `days` to a YYYY-MM-DD date; undefined when the date is not one. */
export function addDays(date: string, days: number): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return undefined;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (Number.isNaN(t)) return undefined;
  return new Date(t + days * 86_400_000).toISOString().slice(0, 10);
}

/** Today's date in the server's local time zone as YYYY-MM-DD. */
export function localDate(now: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}
