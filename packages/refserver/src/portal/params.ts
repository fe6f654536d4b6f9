import { isCalendarDate } from '@erpcert/contract';
import { PortalError } from './portal-error.js';

/**
 * The parameters of one portal request. Names match case-insensitively (`UUID` and `uuid` are the same
 * parameter); a parameter given twice with different values is refused, naming it.
 */
export class PortalParams {
  readonly #pairs: readonly (readonly [string, string])[];

  constructor(pairs: Iterable<readonly [string, string]>) {
    this.#pairs = [...pairs];
  }

  /** Every name/value pair as sent. */
  pairs(): readonly (readonly [string, string])[] {
    return this.#pairs;
  }

  /** The value of a parameter, or undefined when it is absent. */
  get(name: string): string | undefined {
    const lower = name.toLowerCase();
    const values = this.#pairs.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
    if (new Set(values).size > 1) throw new PortalError(`parameter "${name}" is given ${values.length} times`);
    return values[0];
  }

  /** True when the parameter is present and not empty. */
  has(name: string): boolean {
    return (this.get(name) ?? '') !== '';
  }

  /** The value of a parameter that must be present and non-empty. */
  require(name: string, what = ''): string {
    const v = this.get(name);
    if (v === undefined || v === '')
      throw new PortalError(`missing required parameter "${name}"${what ? ` (${what})` : ''}`);
    return v;
  }

  /** A whole number in [min, max], or the default when absent or empty. */
  int(name: string, range: { min: number; max?: number; dflt: number }): number {
    const v = this.get(name);
    if (v === undefined || v === '') return range.dflt;
    const bounds = range.max === undefined ? `from ${range.min}` : `from ${range.min} to ${range.max}`;
    if (!/^-?\d{1,9}$/.test(v))
      throw new PortalError(`parameter "${name}" must be a whole number ${bounds}, got "${v}"`);
    const n = Number(v);
    if (n < range.min || (range.max !== undefined && n > range.max))
      throw new PortalError(`parameter "${name}" must be a whole number ${bounds}, got ${n}`);
    return n;
  }

  /** A YYYY-MM-DD date, or undefined when absent or empty. */
  date(name: string): string | undefined {
    const v = this.get(name);
    if (v === undefined || v === '') return undefined;
    if (!isCalendarDate(v)) throw new PortalError(`parameter "${name}" must be a date YYYY-MM-DD, got "${v}"`);
    return v;
  }

  /** One of a fixed set of values, or the default when absent or empty. */
  oneOf<T extends string>(name: string, allowed: readonly T[], dflt: T): T;
  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined;
  oneOf<T extends string>(name: string, allowed: readonly T[], dflt?: T): T | undefined {
    const v = this.get(name);
    if (v === undefined || v === '') return dflt;
    if (!(allowed as readonly string[]).includes(v))
      throw new PortalError(`parameter "${name}" must be one of ${allowed.join(', ')}, got "${v}"`);
    return v as T;
  }
}
