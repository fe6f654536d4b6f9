/**
 * Data for the portal properties: what the target holds (a customer and items to build documents from, a
 * record read back through `/api/1/`), and tagged documents created with a form POST (record-rest-api.md
 * §4 rule 1) and put into the ledger before the test goes on (DESIGN.md "Running against somebody's
 * staging ERP"). The run tag goes into the row text `Spec` of every row created (IVVc/ORVc rows,
 * record-rest-api.md §2), the one free-text field the documented row fields offer; QTVc rows have no
 * such field (ArtCode, Quant, Price, Sum), so a quotation is known by the ledger alone.
 */
import type { RestRecord } from '@erpcert/client';
import { accepted } from './accepted.js';
import { type Created, createForm, probe } from './data.js';
import { fieldValue, rowsOf } from './records.js';
import type { RuleContext } from './rule-test.js';
import { runShared } from './run-shared.js';
import { accountVatPairs, suppliers } from './write-data.js';

/** A row to create: an item row (stp 1, the default) or a text row (stp 2). */
export interface RowSpec {
  readonly stp: '1' | '2' | '3';
  readonly quant?: string;
  readonly price?: string;
}

/** The master data documents are made from. */
export interface DocumentBasis {
  readonly customer: string;
  readonly items: readonly string[];
}

const basisKey = Symbol.for('erpcert.conformance.portalBasis');
type Holder = { [basisKey]?: Promise<DocumentBasis | string> };

async function findBasis(ctx: RuleContext): Promise<DocumentBasis | string> {
  // a customer (CUType 1 where the target says so) and a few items that are not terminated
  let customers = await probe(ctx, 'CUVc', { fields: 'Code,CUType', 'filter.CUType': '1', limit: 5 });
  if (!customers.ok || customers.records.length === 0)
    customers = await probe(ctx, 'CUVc', { fields: 'Code', limit: 5 });
  if (!customers.ok) return `the target refuses CUVc: ${customers.why}`;
  // never one of this run's own contacts: another test file may delete it while this one uses it
  const customer = customers.records
    .map((r) => fieldValue(r, 'Code'))
    .find((c) => c !== '' && !c.startsWith(ctx.target.runTag));
  if (customer === undefined) return 'the target has no contact (CUVc) to make a document for';
  const items = await probe(ctx, 'INVc', { fields: 'Code,Terminated', limit: 30 });
  if (!items.ok) return `the target refuses INVc: ${items.why}`;
  const codes = items.records
    .filter((r) => fieldValue(r, 'Terminated') !== '1')
    .map((r) => fieldValue(r, 'Code'))
    .filter((c) => c !== '' && !c.includes(':') && !c.startsWith(ctx.target.runTag));
  if (codes.length === 0) return 'the target has no item (INVc) to put on a document row';
  return { customer, items: codes.slice(0, 10) };
}

/** A customer and items of the target (read once per worker); skips the test when it has none. */
export async function documentBasis(ctx: RuleContext): Promise<DocumentBasis> {
  const holder = globalThis as Holder;
  holder[basisKey] ??= findBasis(ctx);
  const basis = await holder[basisKey];
  if (typeof basis === 'string') ctx.skip(basis);
  return basis;
}

/** The row text that carries the run tag: `<tag> <what> <n>`. */
export function taggedSpec(ctx: Pick<RuleContext, 'target'>, what: string, n: number): string {
  return `${ctx.target.runTag} ${what} ${n}`;
}

/**
 * Creates a draft document (`IVVc`, `ORVc`, `QTVc`) for the basis customer with the given rows (form POST,
 * so auto-fill prices them), ledgered; returns its SerNr. Item rows take the basis items in turn; QTVc
 * rows are all item rows. `header` adds header fields (after CustCode, so that they win over auto-fill).
 */
export async function createDocument(
  ctx: RuleContext,
  register: 'IVVc' | 'ORVc' | 'QTVc',
  rows: readonly RowSpec[],
  what = 'row',
  header: Readonly<Record<string, string>> = {},
): Promise<string> {
  return (await createDocumentAnswer(ctx, register, rows, what, header)).key;
}

/** {@link createDocument}, answering the create's key, record (as the POST answered it) and envelope. */
export async function createDocumentAnswer(
  ctx: RuleContext,
  register: 'IVVc' | 'ORVc' | 'QTVc',
  rows: readonly RowSpec[],
  what = 'row',
  header: Readonly<Record<string, string>> = {},
): Promise<Created> {
  const basis = await documentBasis(ctx);
  const rowFields = rows.map((r, i) => {
    if (register === 'QTVc')
      return { ArtCode: basis.items[i % basis.items.length]!, Quant: r.quant ?? String(1 + (i % 4)) };
    const spec = taggedSpec(ctx, what, i + 1);
    if (r.stp === '2') return { stp: '2', Spec: spec };
    return {
      // stp sent on every row (1 normal item row, §2 "Identifier formats"): a read of it can then be checked
      stp: r.stp,
      ArtCode: basis.items[i % basis.items.length]!,
      Quant: r.quant ?? String(1 + (i % 4)),
      ...(r.price !== undefined ? { Price: r.price } : {}),
      Spec: spec,
    };
  });
  return createForm(ctx, register, { CustCode: basis.customer, ...header }, rowFields, { format: 'json' });
}

/** The record with this SerNr, read through `/api/1/` (`filter.SerNr`, JSON); undefined when there is none. */
export async function readBySerNr(ctx: RuleContext, register: string, serNr: string): Promise<RestRecord | undefined> {
  const env = await accepted(
    'REST.QUERY.FILTER_EXACT',
    ctx.client.rest.list(register, { 'filter.SerNr': serNr } as never, { format: 'json' }),
    `GET /api/1/${register}?filter.SerNr=${serNr}`,
  );
  return env.records.find((r) => fieldValue(r, 'SerNr') === serNr);
}

/** The rows of a record without `@rownumber`, for comparing row contents before and after a row operation. */
export function rowContents(record: RestRecord | undefined): Record<string, string>[] {
  if (!record) return [];
  return rowsOf(record).map((row) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(row)) if (k !== '@rownumber') out[k] = String(v);
    return out;
  });
}

/**
 * The vendor, account and VAT code purchase invoices are made from, read once per run and shared by the test
 * workers (run-shared.ts): the first supplier and account/VAT pair the target shows, or why there is none.
 */
function purchaseBasis(ctx: RuleContext): Promise<{ vendor: string; account: string; vatCode: string } | string> {
  return runShared(ctx, 'purchase-basis', async () => {
    const [vendors, pairs] = await Promise.all([suppliers(ctx), accountVatPairs(ctx)]);
    if (vendors.length === 0 || pairs.length === 0)
      return 'the target has no supplier or no account with a VAT code for a purchase invoice';
    return { vendor: vendors[0]!.code, account: pairs[0]!.account, vatCode: pairs[0]!.vatCode };
  });
}

/**
 * A tagged purchase invoice (VIVc) of the suite's own, with one row per amount (an account and VAT code the
 * target's purchase invoices use, `Comment` tagged), created with a form POST and ledgered: its SerNr; or why
 * there is none (no vendor, no account with a VAT code). VIVc is a member of the portal's delete, deleterow, insertrow,
 * sendforapproval and checkapprovalstatus registers (portal-action-api.md §2 "Registers per operation").
 */
export async function createPurchaseInvoice(
  ctx: RuleContext,
  amounts: readonly string[],
  what: string,
): Promise<{ readonly serNr: string } | string> {
  const basis = await purchaseBasis(ctx);
  if (typeof basis === 'string') return basis;
  const rows = amounts.map((sum, i) => ({
    stp: '1',
    AccNumber: basis.account,
    VATCode: basis.vatCode,
    Sum: sum,
    Comment: taggedSpec(ctx, what, i + 1),
  }));
  const made = await createForm(ctx, 'VIVc', { VECode: basis.vendor }, rows, { format: 'json' });
  return { serNr: made.key };
}
