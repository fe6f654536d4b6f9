/**
 * Decimal values as the ERP sends them: strings with `.` as the decimal separator and no grouping.
 * Amounts are rounded half away from zero to 2 decimals; quantities keep what they have.
 */

const DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)$/;

/** True when the text is a decimal number (empty is not). */
export function isDecimal(text: string): boolean {
  return DECIMAL.test(text);
}

/** The number in a decimal string; empty counts as 0. NaN when malformed. */
export function parseDecimal(text: string | undefined): number {
  if (text === undefined || text === '') return 0;
  return DECIMAL.test(text) ? Number(text) : Number.NaN;
}

/** Rounds half away from zero to `places` decimals, immune to binary artefacts like 1.005. */
export function round(value: number, places = 2): number {
  const factor = 10 ** places;
  const scaled = Math.abs(value) * factor;
  const r = Math.round(Number(scaled.toPrecision(15)));
  const out = (Math.sign(value) * r) / factor;
  return out === 0 ? 0 : out;
}

/** An amount with exactly two decimals: `12.5` -> `"12.50"`. */
export function formatAmount(value: number): string {
  return round(value, 2).toFixed(2);
}

/** A quantity with at most `places` decimals and no trailing zeros: `2.500` -> `"2.5"`. */
export function formatQuantity(value: number, places = 3): string {
  const r = round(value, places);
  return String(r);
}
