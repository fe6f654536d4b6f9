/**
 * VAT codes and their rates. The docs name `VATCode` on items, accounts and rows but show no VAT
 * register, so the reference server keeps a fixed table (README "Decisions"):
 * `0` 0 %, `1` 22 %, `2` 9 %, `3` 0 % (exempt). An empty or unknown code is 0 %.
 */
export const vatRates: Readonly<Record<string, number>> = Object.freeze({ '0': 0, '1': 22, '2': 9, '3': 0 });

/** The VAT percentage of a code. */
export function vatRate(code: string | undefined): number {
  return (code !== undefined && vatRates[code]) || 0;
}

/** True when the code is in the table (empty counts as known: no VAT). */
export function isKnownVatCode(code: string): boolean {
  return code === '' || code in vatRates;
}
