/**
 * What the write properties need from the target's master data, discovered by reads (never assumed):
 * contacts with a name and payment terms, suppliers, items, accounts with a VAT code. Each returns [] when
 * the target has none; the property then skips with the reason.
 */

import { accepted } from './accepted.js';
import { probe } from './data.js';
import { type AnyRecord, fieldValue } from './records.js';
import type { RuleContext } from './rule-test.js';

/** A contact whose form auto-fill can be observed: it has a Name and a PayDeal (record-rest-api.md §4 rule 1). */
export interface Contact {
  readonly code: string;
  readonly name: string;
  readonly payDeal: string;
}

const SAMPLE = 60;

function contactsOf(records: readonly AnyRecord[]): Contact[] {
  return records
    .map((r) => ({ code: fieldValue(r, 'Code'), name: fieldValue(r, 'Name'), payDeal: fieldValue(r, 'PayDeal') }))
    .filter((c) => c.code !== '' && c.name !== '' && c.payDeal !== '' && !c.code.startsWith('EC'));
}

/** Contacts with Code, Name and PayDeal (not created by a run: codes starting with a run tag are left out). */
export async function contactsWithTerms(ctx: RuleContext): Promise<Contact[]> {
  const p = await probe(ctx, 'CUVc', { fields: 'Code,Name,PayDeal', limit: SAMPLE });
  return p.ok ? contactsOf(p.records) : [];
}

/** Suppliers: contacts with VEType 1 when the target marks them so, else any contact with terms. */
export async function suppliers(ctx: RuleContext): Promise<Contact[]> {
  const p = await probe(ctx, 'CUVc', { 'filter.VEType': '1', fields: 'Code,Name,PayDeal', limit: SAMPLE });
  const found = p.ok ? contactsOf(p.records) : [];
  return found.length > 0 ? found : contactsWithTerms(ctx);
}

/** Item codes (INVc). */
export async function itemCodes(ctx: RuleContext): Promise<string[]> {
  const p = await probe(ctx, 'INVc', { fields: 'Code', limit: SAMPLE });
  return p.ok ? p.records.map((r) => fieldValue(r, 'Code')).filter((c) => c !== '' && !c.startsWith('EC')) : [];
}

/** An account and a VAT code that go together on a purchase-invoice row. */
export interface AccountVat {
  readonly account: string;
  readonly vatCode: string;
}

/** Account/VAT pairs from existing purchase-invoice rows, else from accounts that carry a VAT code. */
export async function accountVatPairs(ctx: RuleContext): Promise<AccountVat[]> {
  const pairs = new Map<string, AccountVat>();
  const vi = await probe(ctx, 'VIVc', { limit: 20 });
  if (vi.ok)
    for (const r of vi.records)
      for (const row of (r.rows as AnyRecord[] | undefined) ?? []) {
        const account = fieldValue(row, 'AccNumber');
        const vatCode = fieldValue(row, 'VATCode');
        if (account !== '' && vatCode !== '') pairs.set(`${account}/${vatCode}`, { account, vatCode });
      }
  if (pairs.size === 0) {
    const acc = await probe(ctx, 'AccVc', { fields: 'AccNumber,VATCode', limit: SAMPLE });
    if (acc.ok)
      for (const r of acc.records) {
        const account = fieldValue(r, 'AccNumber');
        const vatCode = fieldValue(r, 'VATCode');
        if (account !== '' && vatCode !== '') pairs.set(`${account}/${vatCode}`, { account, vatCode });
      }
  }
  return [...pairs.values()];
}

/** The one record of `register` whose `field` is `value` (a read with `filter.<field>`), or undefined. */
export async function readBack(
  ctx: RuleContext,
  register: string,
  field: string,
  value: string,
): Promise<AnyRecord | undefined> {
  // a documented read (§4 filter.<FieldName>): its refusal is REST.QUERY.FILTER_EXACT's FAIL, not the caller's
  const env = await accepted(
    'REST.QUERY.FILTER_EXACT',
    ctx.client.rest.list(register, { [`filter.${field}`]: value } as never, { format: 'json' }),
    `GET /api/1/${register}?filter.${field}=${value}`,
  );
  return (env.records as AnyRecord[]).find((r) => fieldValue(r, field) === value);
}

/** Cents of a decimal string (`12.5` -> 1250), or undefined when it is not a plain decimal. */
export function cents(value: string): number | undefined {
  if (!/^-?\d+(\.\d{1,2})?$/.test(value.trim())) return undefined;
  return Math.round(Number(value) * 100);
}
