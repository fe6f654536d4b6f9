import { isCalendarDate } from '@erpcert/contract';
import { formatAmount, parseDecimal } from '../../values/decimal.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { attrs, recordElementXml } from '../xml.js';
import { type ListRequest, parseListRequest } from './list-params.js';

/** An open item row: field name to text, in output order. */
type Row = Record<string, string>;

const cents = (text: string | null | undefined) => {
  const n = parseDecimal(text ?? '');
  return Number.isFinite(n) ? Math.round(n * 100) : 0;
};

/**
 * A reference number by the 7-3-1 method (Estonian "viitenumber"): the digits of `base` weighted 7, 3, 1
 * from the right, the check digit makes the weighted sum a multiple of 10. README "ARVc and APVc".
 */
export function referenceNumber(base: string): string {
  const digits = base.replace(/\D/g, '');
  if (digits === '') return '';
  const weights = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * weights[i % 3]!;
  return `${digits}${(10 - (sum % 10)) % 10}`;
}

/** The first of the dates that is a real date, else today: every open item has a due date (README). */
function dueDate(today: string, ...dates: (string | null | undefined)[]): string {
  return dates.find((d): d is string => typeof d === 'string' && isCalendarDate(d)) ?? today;
}

/** Sums of a row field per key over the rows of a register's records (json_each over `_rows`). */
function rowSums(ctx: PortalContext, register: string, keyField: string, valueField: string, confirmedOnly: boolean) {
  const sql =
    `SELECT json_extract(j.value, '$.${keyField}'), json_extract(j.value, '$.${valueField}') ` +
    `FROM "reg_${register}" t, json_each(t._rows) j WHERE t._company = ?${confirmedOnly ? " AND t.OKFlag = '1'" : ''}`;
  const out = new Map<string, number>();
  for (const [k, v] of ctx.app.store.db.prepare(sql).raw(true).all(ctx.company) as [unknown, unknown][]) {
    if (k === null || k === undefined || k === '') continue;
    const key = String(k);
    out.set(key, (out.get(key) ?? 0) + cents(v === null ? '' : String(v)));
  }
  return out;
}

/**
 * ARVc, open receivables: confirmed sales invoices (OKFlag 1) less the receipts of confirmed IPVc rows
 * (InvoiceNr, RecVal) and less confirmed credit invoices (PayDeal K, the stp 3 row's OrdRow); an invoice
 * with more than a cent open is listed. Fields per §2 "ARVc record fields".
 */
export function openReceivables(ctx: PortalContext): Row[] {
  const db = ctx.app.store.db;
  const paid = rowSums(ctx, 'IPVc', 'InvoiceNr', 'RecVal', true);
  const invoices = db
    .prepare(
      'SELECT SerNr, OfficialSerNr, CustCode, Addr0, CurncyCode, PayDate, InvDate, TransDate, Sum4, PayDeal, _rows ' +
        'FROM "reg_IVVc" WHERE _company = ? AND OKFlag = \'1\' ORDER BY SerNr',
    )
    .all(ctx.company) as Record<string, string | number | null>[];
  const credited = new Map<string, number>();
  for (const inv of invoices) {
    if (inv.PayDeal !== 'K') continue;
    const rows = JSON.parse(String(inv._rows ?? '[]')) as Record<string, string>[];
    const original = rows.find((r) => r.stp === '3' && r.OrdRow)?.OrdRow;
    if (original) credited.set(original, (credited.get(original) ?? 0) + cents(String(inv.Sum4 ?? '')));
  }
  const names = new Map(
    (
      db.prepare('SELECT Code, Name FROM "reg_CUVc" WHERE _company = ?').raw(true).all(ctx.company) as [
        string,
        string,
      ][]
    ).map(([c, n]) => [c, n]),
  );
  const out: Row[] = [];
  for (const inv of invoices) {
    if (inv.PayDeal === 'K') continue;
    const serNr = String(inv.SerNr);
    const open = cents(String(inv.Sum4 ?? '')) - (paid.get(serNr) ?? 0) - (credited.get(serNr) ?? 0);
    if (open <= 0) continue;
    const cust = String(inv.CustCode ?? '');
    out.push({
      InvoiceNr: serNr,
      OfficialSerNr: String(inv.OfficialSerNr ?? ''),
      RefStr: referenceNumber(serNr),
      RVal: formatAmount(open / 100),
      ARCurncyCode: String(inv.CurncyCode ?? ''),
      CustCode: cust,
      CustName: names.get(cust) || String(inv.Addr0 ?? ''),
      DueDate: dueDate(ctx.today, inv.PayDate as string, inv.InvDate as string, inv.TransDate as string),
    });
  }
  return out;
}

/**
 * APVc, open payables: confirmed purchase invoices (OKFlag 1) less the outgoing payments of OPVc rows
 * (VISerNr, RecVal). Fields per §2 "APVc record fields".
 */
export function openPayables(ctx: PortalContext): Row[] {
  const paid = rowSums(ctx, 'OPVc', 'VISerNr', 'RecVal', false);
  const invoices = ctx.app.store.db
    .prepare(
      'SELECT SerNr, InvoiceNr, RefStr, PayVal, CurncyCode, VECode, VEName, DueDate, InvDate, TransDate ' +
        'FROM "reg_VIVc" WHERE _company = ? AND OKFlag = \'1\' ORDER BY SerNr',
    )
    .all(ctx.company) as Record<string, string | number | null>[];
  const out: Row[] = [];
  for (const inv of invoices) {
    const serNr = String(inv.SerNr);
    const open = cents(String(inv.PayVal ?? '')) - (paid.get(serNr) ?? 0);
    if (open <= 0) continue;
    out.push({
      SerNr: serNr,
      InvoiceNr: String(inv.InvoiceNr ?? ''),
      RefStr: String(inv.RefStr ?? ''),
      RVal: formatAmount(open / 100),
      CurncyCode: String(inv.CurncyCode ?? ''),
      VECode: String(inv.VECode ?? ''),
      // the invoice's own VEName, else the vendor's name (as ARVc's CustName: "VEName" of §2 names the vendor)
      VEName: String(inv.VEName ?? '') || vendorName(ctx, String(inv.VECode ?? '')),
      DueDate: dueDate(ctx.today, inv.DueDate as string, inv.InvDate as string, inv.TransDate as string),
    });
  }
  return out;
}

interface OpenItemList {
  readonly register: 'ARVc' | 'APVc';
  readonly fields: readonly string[];
  /** §4 rule 8: the fields `search` matches ("and amount": RVal). */
  readonly search: readonly string[];
  readonly key: string;
  readonly numeric: readonly string[];
  /** What `bfilter` selects: the contact. */
  readonly bfilter: string;
  readonly rows: (ctx: PortalContext) => Row[];
}

const LISTS: readonly OpenItemList[] = [
  {
    register: 'ARVc',
    fields: ['InvoiceNr', 'OfficialSerNr', 'RefStr', 'RVal', 'ARCurncyCode', 'CustCode', 'CustName', 'DueDate'],
    search: ['InvoiceNr', 'CustCode', 'CustName', 'RefStr', 'OfficialSerNr', 'RVal'],
    key: 'InvoiceNr',
    numeric: ['InvoiceNr', 'RVal'],
    bfilter: 'CustCode',
    rows: openReceivables,
  },
  {
    register: 'APVc',
    fields: ['SerNr', 'InvoiceNr', 'RefStr', 'RVal', 'CurncyCode', 'VECode', 'VEName', 'DueDate'],
    search: ['SerNr', 'VECode', 'VEName', 'RefStr', 'InvoiceNr', 'RVal'],
    key: 'SerNr',
    numeric: ['SerNr', 'RVal'],
    bfilter: 'VECode',
    rows: openPayables,
  },
];

/** Filters, sorts and pages computed rows as the table-backed lists do (list-params.ts). */
function select(list: OpenItemList, rows: Row[], req: ListRequest): { total: number; page: Row[] } {
  const matches = rows.filter(
    (r) =>
      req.terms.every((t) => list.search.some((f) => (r[f] ?? '').toLowerCase().includes(t))) &&
      (req.sd === undefined || r.DueDate! >= req.sd) &&
      (req.ed === undefined || r.DueDate! <= req.ed) &&
      (req.bfilter === undefined || r[list.bfilter] === req.bfilter),
  );
  const key = req.sortkey ?? list.key;
  const num = list.numeric.includes(key);
  const cmp = (a: Row, b: Row) => {
    const x = a[key] ?? '';
    const y = b[key] ?? '';
    const c = num ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
    return c !== 0 ? c : Number(a[list.key]) - Number(b[list.key]);
  };
  matches.sort((a, b) => (req.descending ? -cmp(a, b) : cmp(a, b)));
  const start = (req.page - 1) * req.perpage;
  return { total: matches.length, page: matches.slice(start, start + req.perpage) };
}

/** `register=ARVc` / `register=APVc`: `<data page total>` with the open items (§2 "Paged list (ARVc, APVc)"). */
function openItemList(list: OpenItemList): PortalHandler {
  return {
    kind: 'list',
    name: list.register,
    handle(ctx) {
      const req = parseListRequest(ctx, list.register, list.fields);
      const { total, page } = select(list, list.rows(ctx), req);
      const body = page.map((r) =>
        recordElementXml(
          list.register,
          list.fields.map((f) => [f, r[f] ?? ''] as const),
        ),
      );
      return { xml: `<data${attrs({ page: req.page, total })}>${body.join('')}</data>\n` };
    },
  };
}

export const openItemHandlers: readonly PortalHandler[] = LISTS.map(openItemList);

/** The Name of the contact `code` (the vendor of a purchase invoice), '' when there is none. */
function vendorName(ctx: PortalContext, code: string): string {
  if (code === '') return '';
  const name = ctx.app.store.db
    .prepare('SELECT Name FROM "reg_CUVc" WHERE _company = ? AND Code = ?')
    .pluck()
    .get(ctx.company, code);
  return typeof name === 'string' ? name : '';
}
