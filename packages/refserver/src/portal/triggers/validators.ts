/**
 * Validation of the CUVc and EmplVc field triggers (portal-action-api.md §2 "Field-trigger catalogue":
 * "IBANCode (validates)", "VATNr (validates per VAT rules)", "RegNr1 (validates per VAT rules)"; EmplVc
 * IDCode). A failed check is a warning: the trigger answers `success: true` with the text in `messages`
 * (§7 "In field-trigger responses, warnings are returned in messages[].description while success stays
 * true"). Each function returns the normalised value, or the warning.
 */

import { isCalendarDate } from '@erpcert/contract';

export type Checked = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly warning: string };

const ok = (value: string): Checked => ({ ok: true, value });
const bad = (warning: string): Checked => ({ ok: false, warning });

/** IBAN lengths of the countries the reference server knows (ISO 13616 registry). */
const IBAN_LENGTH: Readonly<Record<string, number>> = {
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LT: 20,
  LU: 20,
  LV: 21,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
};

/** The remainder of a long decimal string modulo 97, digit by digit. */
function mod97(digits: string): number {
  let r = 0;
  for (const ch of digits) r = (r * 10 + Number(ch)) % 97;
  return r;
}

/** An IBAN: country, check digits, length per country, and the ISO 7064 mod-97 check (remainder 1). */
export function checkIban(text: string): Checked {
  const iban = text.replace(/[\s-]/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban))
    return bad(`IBANCode "${text}" is not an IBAN: two letters, two check digits, then letters and digits`);
  const country = iban.slice(0, 2);
  const length = IBAN_LENGTH[country];
  if (length !== undefined && iban.length !== length)
    return bad(`IBANCode "${text}" has ${iban.length} characters; an IBAN of ${country} has ${length}`);
  if (length === undefined && (iban.length < 15 || iban.length > 34))
    return bad(`IBANCode "${text}" has ${iban.length} characters; an IBAN has 15 to 34`);
  const moved = iban.slice(4) + iban.slice(0, 4);
  const digits = moved.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  if (mod97(digits) !== 1) return bad(`IBANCode "${text}": the check digits do not match (ISO 7064 mod 97)`);
  return ok(iban);
}

/** Check digit of the Estonian 7-3-1 style VAT number (KMKR): weights 3,7,1 over the first 8 digits. */
function eeVatCheck(d: string): boolean {
  const w = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = w.reduce((a, x, i) => a + x * Number(d[i]), 0);
  return (10 - (sum % 10)) % 10 === Number(d[8]);
}

/** EU VAT number formats (the country part after the prefix; VIES). */
const VAT_FORMAT: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^\d[A-Z0-9+*]\d{5}[A-Z]{1,2}$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};

/** Greece's VAT prefix is EL, its ISO country code GR. */
const vatPrefix = (country: string) => (country === 'GR' ? 'EL' : country);

/**
 * A VAT number "per VAT rules": an EU country prefix and that country's format (plus the Estonian check
 * digit). Without a prefix the contact's country is assumed and a warning asks for it; a prefix that
 * differs from the contact's country is a warning too.
 */
export function checkVatNr(text: string, countryCode: string): Checked {
  const v = text.replace(/[\s.-]/g, '').toUpperCase();
  const hasPrefix = /^[A-Z]{2}/.test(v) && VAT_FORMAT[v.slice(0, 2)] !== undefined;
  const prefix = hasPrefix ? v.slice(0, 2) : vatPrefix(countryCode.toUpperCase());
  const body = hasPrefix ? v.slice(2) : v;
  const format = VAT_FORMAT[prefix];
  if (!format)
    return bad(
      /^[A-Z]{2}/.test(v)
        ? `VATNr "${text}": ${v.slice(0, 2)} is not an EU VAT country prefix`
        : `VATNr "${text}" has no country prefix and the contact has no EU country code`,
    );
  if (!format.test(body)) return bad(`VATNr "${text}" does not have the format of a ${prefix} VAT number`);
  if (prefix === 'EE' && !eeVatCheck(body)) return bad(`VATNr "${text}": the Estonian check digit does not match`);
  if (!hasPrefix) return bad(`VATNr "${text}" should start with the country prefix ${prefix}`);
  const own = vatPrefix(countryCode.toUpperCase());
  if (own !== '' && VAT_FORMAT[own] && own !== prefix)
    return bad(`VATNr "${text}" is a ${prefix} VAT number but the contact's country is ${countryCode}`);
  return ok(prefix + body);
}

/** The Estonian modulo-11 check digit (personal and registry codes): weights 1..9,1 then 3..9,1,2,3. */
function estonianCheck(digits: string): number {
  const pass = (weights: number[]) => weights.reduce((a, w, i) => a + w * Number(digits[i]), 0) % 11;
  const n = digits.length;
  const w1 = Array.from({ length: n }, (_, i) => (i % 9) + 1);
  const w2 = Array.from({ length: n }, (_, i) => ((i + 2) % 9) + 1);
  const first = pass(w1);
  if (first < 10) return first;
  const second = pass(w2);
  return second < 10 ? second : 0;
}

/** Company registration number formats per country (RegNr1). */
const REG_FORMAT: Readonly<Record<string, { re: RegExp; what: string }>> = {
  EE: { re: /^[189]\d{7}$/, what: '8 digits (Estonian registry code)' },
  LV: { re: /^\d{11}$/, what: '11 digits' },
  LT: { re: /^\d{7}$|^\d{9}$/, what: '7 or 9 digits' },
  FI: { re: /^\d{7}-\d$/, what: '7 digits, a dash and a check digit (Y-tunnus)' },
};

/** Finnish business id check digit: weights 7,9,10,5,8,4,2, remainder 0 -> 0, 1 invalid, else 11 - r. */
function fiCheck(v: string): boolean {
  const w = [7, 9, 10, 5, 8, 4, 2];
  const r = w.reduce((a, x, i) => a + x * Number(v[i]), 0) % 11;
  return r !== 1 && (r === 0 ? 0 : 11 - r) === Number(v[8]);
}

/** A registration number (RegNr1) per the rules of the contact's country; countries without rules pass. */
export function checkRegNr(text: string, countryCode: string): Checked {
  const v = text.replace(/\s/g, '');
  const country = countryCode.toUpperCase();
  const rule = REG_FORMAT[country];
  if (!rule) return ok(v);
  if (!rule.re.test(v)) return bad(`RegNr1 "${text}" is not a ${country} registration number: ${rule.what}`);
  if (country === 'EE' && estonianCheck(v.slice(0, 7)) !== Number(v[7]))
    return bad(`RegNr1 "${text}": the Estonian check digit does not match`);
  if (country === 'FI' && !fiCheck(v)) return bad(`RegNr1 "${text}": the Finnish check digit does not match`);
  return ok(v);
}

/** An Estonian personal code (isikukood) GYYMMDDSSSC: its birth date, or the warning. */
export function checkEstonianIdCode(text: string): Checked {
  const v = text.trim();
  if (!/^[1-6]\d{10}$/.test(v))
    return bad(`IDCode "${text}" is not an Estonian personal code: 11 digits, the first 1 to 6`);
  const century = [1800, 1800, 1900, 1900, 2000, 2000][Number(v[0]) - 1]!;
  const date = `${century + Number(v.slice(1, 3))}-${v.slice(3, 5)}-${v.slice(5, 7)}`;
  if (!isCalendarDate(date)) return bad(`IDCode "${text}" holds no real birth date (${date})`);
  if (estonianCheck(v.slice(0, 10)) !== Number(v[10])) return bad(`IDCode "${text}": the check digit does not match`);
  return ok(date);
}
