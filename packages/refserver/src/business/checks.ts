import { hasForbiddenXmlChar } from '@erpcert/contract';
import { ErrorCode, validationError } from '../errors.js';
import type { RegisterSchema } from '../schema/register-schema.js';
import { isDecimal, parseDecimal } from '../values/decimal.js';
import { isKnownVatCode } from '../values/vat.js';
import { type Draft, lookup, type WriteContext } from './draft.js';
import { numericFields } from './sums.js';

/**
 * Checks every write runs, form or JSON (README "Validation"). Each failure is a validation error:
 * HTTP 200 with `<error code description row field>` naming the field.
 */

const SALES = new Set(['IVVc', 'ORVc', 'QTVc']);
const WITH_ITEMS = new Set(['IVVc', 'ORVc', 'QTVc', 'POVc', 'PUVc', 'StockMovVc', 'SDVc']);
const WITH_PAYDEAL = new Set(['IVVc', 'ORVc', 'QTVc', 'VIVc', 'POVc', 'CUVc']);
const SUPPLIER = new Set(['VIVc', 'POVc', 'PUVc']);
const FLAG = new Set(['', '0', '1']);
const STP = new Set(['', '1', '2', '3']);
/** Integers: 1 to 15 digits, no leading zero (fits a JS number exactly). */
const SERIAL = /^[1-9]\d{0,14}$/;

/** Field-level checks: text XML can carry, integers, decimals, flags, row types, VAT codes. */
export function checkValues(schema: RegisterSchema, d: Draft): void {
  const nums = numericFields[schema.name];
  for (const [f, v] of Object.entries(d.fields)) {
    if (v === '') continue;
    if (hasForbiddenXmlChar(v))
      throw validationError(
        ErrorCode.invalidValue,
        `${f} holds a character XML cannot carry (a control character or a lone surrogate)`,
        f,
      );
    if (schema.intFields.has(f) && !SERIAL.test(v))
      throw validationError(ErrorCode.invalidValue, `${f} must be a whole number from 1, got "${v}"`, f);
    if (nums?.header.includes(f) && !isDecimal(v))
      throw validationError(ErrorCode.invalidValue, `${f} must be a decimal number like 12.50, got "${v}"`, f);
  }
  if (!FLAG.has(d.fields.OKFlag ?? ''))
    throw validationError(ErrorCode.invalidValue, `OKFlag must be 0 or 1, got "${d.fields.OKFlag}"`, 'OKFlag');
  d.rows.forEach((r, i) => {
    for (const [f, v] of Object.entries(r)) {
      if (v === '') continue;
      if (hasForbiddenXmlChar(v))
        throw validationError(
          ErrorCode.invalidValue,
          `row ${i} ${f} holds a character XML cannot carry (a control character or a lone surrogate)`,
          f,
          i,
        );
      if (nums?.rows.includes(f) && !isDecimal(v))
        throw validationError(ErrorCode.invalidValue, `row ${i} ${f} must be a decimal number, got "${v}"`, f, i);
    }
    if (!STP.has(r.stp ?? ''))
      throw validationError(ErrorCode.invalidValue, `row ${i} stp must be 1, 2 or 3, got "${r.stp}"`, 'stp', i);
    if ('VATCode' in r && !isKnownVatCode(r.VATCode ?? ''))
      throw validationError(ErrorCode.invalidValue, `row ${i} VATCode "${r.VATCode}" is not a VAT code`, 'VATCode', i);
  });
}

/** Key fields must be set (serial numbers are assigned before this runs). */
export function checkKey(schema: RegisterSchema, d: Draft): void {
  for (const k of schema.key) {
    if ((d.fields[k] ?? '') === '' && !schema.optionalKeyFields.has(k))
      throw validationError(ErrorCode.required, `${k} is required: it is part of the key of ${schema.name}`, k);
  }
}

/** References to other registers: contacts, items, payment terms (and what confirming needs). */
export function checkReferences(ctx: WriteContext, register: string, d: Draft): void {
  const f = d.fields;
  const contactField = SALES.has(register) ? 'CustCode' : SUPPLIER.has(register) ? 'VECode' : undefined;
  if (contactField) {
    const code = f[contactField] ?? '';
    if (code !== '' && !lookup(ctx, 'CUVc', code))
      throw validationError(ErrorCode.unknownReference, `${contactField} ${code}: no such contact`, contactField);
  }
  if (WITH_PAYDEAL.has(register) && f.PayDeal && !lookup(ctx, 'PDVc', f.PayDeal))
    throw validationError(ErrorCode.unknownReference, `PayDeal ${f.PayDeal}: no such payment term`, 'PayDeal');
  if (WITH_ITEMS.has(register)) {
    d.rows.forEach((r, i) => {
      if (r.ArtCode && !lookup(ctx, 'INVc', r.ArtCode))
        throw validationError(ErrorCode.unknownReference, `row ${i} ArtCode ${r.ArtCode}: no such item`, 'ArtCode', i);
    });
  }
}

/**
 * Credit invoice (record-rest-api.md §4 rule 4) tells how to *make* one (PayDeal K, an stp 3 row whose OrdRow
 * is the original invoice, item rows); it refuses no other form, and live servers accept a credit note made
 * with InvType 3, CredMark 1, CredInv and any payment term (issue 10). So only the reference is guarded: an
 * stp 3 row that names an original (OrdRow) must name an invoice that exists.
 */
export function checkCreditInvoice(ctx: WriteContext, d: Draft): void {
  d.rows.forEach((r, i) => {
    if (r.stp !== '3' || !r.OrdRow) return;
    if (!lookup(ctx, 'IVVc', r.OrdRow))
      throw validationError(
        ErrorCode.creditInvoice,
        `credit row ${i}: invoice ${r.OrdRow} does not exist`,
        'OrdRow',
        i,
      );
  });
}

/**
 * Purchase invoice with VAT (record-rest-api.md §4 rule 5): PayVal is the total including VAT,
 * VATVal the VAT and row Sum excludes it, so PayVal = sum of row Sum + VATVal (to the cent).
 */
export function checkPurchaseVat(d: Draft): void {
  const { PayVal: pay, VATVal: vat } = d.fields;
  if (!pay || d.rows.length === 0) return;
  if (parseDecimal(vat) > parseDecimal(pay))
    throw validationError(ErrorCode.purchaseVat, `VATVal ${vat} exceeds PayVal ${pay}`, 'VATVal');
  const net = d.rows.reduce((a, r) => a + parseDecimal(r.Sum), 0);
  const expected = net + parseDecimal(vat);
  if (Math.abs(expected - parseDecimal(pay)) > 0.005)
    throw validationError(
      ErrorCode.purchaseVat,
      `PayVal ${pay} must be the row sums ${net.toFixed(2)} plus VATVal ${vat || '0'} = ${expected.toFixed(2)}`,
      'PayVal',
    );
}

/** All consistency checks of one register. */
export function checkRecord(ctx: WriteContext, schema: RegisterSchema, d: Draft): void {
  checkValues(schema, d);
  checkKey(schema, d);
  checkReferences(ctx, schema.name, d);
  if (schema.name === 'IVVc') checkCreditInvoice(ctx, d);
  if (schema.name === 'VIVc') checkPurchaseVat(d);
}
