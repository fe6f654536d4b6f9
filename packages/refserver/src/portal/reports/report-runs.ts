import { formatAmount, formatQuantity, parseDecimal } from '../../values/decimal.js';
import type { PortalContext } from '../handler.js';
import { openReceivables } from '../lists/open-items.js';

/** What a report computes: rows of text values (like every value of the APIs) and totals. */
export interface ReportOutput {
  readonly rows: Record<string, string>[];
  readonly totals: Record<string, string>;
}

/** The computations of the reports of report-catalogue.ts; `spec` holds every field, defaults filled in. */

const num = (v: unknown) => parseDecimal(v === null || v === undefined ? '' : String(v)) || 0;
const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/**
 * Sales journal: invoices (IVVc) dated sd..ed (InvDate), confirmed only unless OnlyConfirmed is 0, of one
 * customer when CustCode is set; Net = Sum1, VAT = Sum3, Total = Sum4; credit invoices (PayDeal K or
 * InvType 3) count negative. Totals: Count, Net, VAT, Total.
 */
export function salesJournal(ctx: PortalContext, spec: Readonly<Record<string, string>>): ReportOutput {
  const where = ['_company = ?', 'InvDate >= ?', 'InvDate <= ?'];
  const args: unknown[] = [ctx.company, spec.sd, spec.ed];
  if (spec.OnlyConfirmed === '1') where.push("OKFlag = '1'");
  if (spec.CustCode) {
    where.push('CustCode = ?');
    args.push(spec.CustCode);
  }
  const rows = ctx.app.store.db
    .prepare(
      `SELECT SerNr, InvDate, CustCode, Addr0, CurncyCode, Sum1, Sum3, Sum4, PayDeal, InvType FROM "reg_IVVc" ` +
        `WHERE ${where.join(' AND ')} ORDER BY InvDate, SerNr`,
    )
    .all(...args) as Record<string, unknown>[];
  let net = 0;
  let vat = 0;
  let total = 0;
  const out = rows.map((r) => {
    const sign = r.PayDeal === 'K' || r.InvType === '3' ? -1 : 1;
    const [n, v, t] = [sign * num(r.Sum1), sign * num(r.Sum3), sign * num(r.Sum4)];
    net += n;
    vat += v;
    total += t;
    return {
      SerNr: text(r.SerNr),
      InvDate: text(r.InvDate),
      CustCode: text(r.CustCode),
      Addr0: text(r.Addr0),
      CurncyCode: text(r.CurncyCode),
      Net: formatAmount(n),
      VAT: formatAmount(v),
      Total: formatAmount(t),
    };
  });
  return {
    rows: out,
    totals: { Count: String(out.length), Net: formatAmount(net), VAT: formatAmount(vat), Total: formatAmount(total) },
  };
}

const DAY = 86_400_000;
const BUCKETS = ['current', '1-30', '31-60', '61-90', '90+'] as const;

function bucket(days: number): (typeof BUCKETS)[number] {
  if (days <= 0) return 'current';
  if (days <= 30) return '1-30';
  if (days <= 60) return '31-60';
  if (days <= 90) return '61-90';
  return '90+';
}

/**
 * Open receivables with ageing: the open items of ARVc (lists/open-items.ts: confirmed invoices less receipts
 * and credit notes), of one customer when CustCode is set, overdue ones only when OnlyOverdue is 1;
 * DaysOverdue from DueDate to today; Bucket current, 1-30, 31-60, 61-90, 90+. Totals: RVal and per bucket.
 */
export function openReceivablesReport(ctx: PortalContext, spec: Readonly<Record<string, string>>): ReportOutput {
  const today = Date.parse(`${ctx.today}T00:00:00Z`);
  const totals: Record<string, number> = Object.fromEntries(BUCKETS.map((b) => [b, 0]));
  let all = 0;
  const rows = openReceivables(ctx)
    .filter((r) => !spec.CustCode || r.CustCode === spec.CustCode)
    .map((r) => {
      const days = Math.round((today - Date.parse(`${r.DueDate}T00:00:00Z`)) / DAY);
      return { r, days: Math.max(0, days) };
    })
    .filter(({ days }) => spec.OnlyOverdue !== '1' || days > 0)
    .map(({ r, days }) => {
      const b = bucket(days);
      totals[b] = (totals[b] ?? 0) + num(r.RVal);
      all += num(r.RVal);
      return {
        InvoiceNr: r.InvoiceNr ?? '',
        CustCode: r.CustCode ?? '',
        CustName: r.CustName ?? '',
        DueDate: r.DueDate ?? '',
        RVal: r.RVal ?? '',
        DaysOverdue: String(days),
        Bucket: b,
      };
    });
  return {
    rows,
    totals: {
      Count: String(rows.length),
      RVal: formatAmount(all),
      ...Object.fromEntries(BUCKETS.map((b) => [b, formatAmount(totals[b] ?? 0)])),
    },
  };
}

/**
 * Stock levels: ItemStatusVc (the derived stock register) with the item name, per item and location; a
 * Location and an item code prefix filter; OnlyInStock 1 leaves out items with nothing in stock.
 * Available = Instock - OrddOut. Totals: Count, Instock.
 */
export function stockLevels(ctx: PortalContext, spec: Readonly<Record<string, string>>): ReportOutput {
  const rows = ctx.app.store.db
    .prepare(
      'SELECT s.Code, COALESCE(i.Name, \'\') AS Name, s.Location, s.Instock, s.OrddOut, s.POQty FROM "reg_ItemStatusVc" s ' +
        'LEFT JOIN "reg_INVc" i ON i._company = s._company AND i.Code = s.Code WHERE s._company = ? ORDER BY s.Code, s.Location',
    )
    .all(ctx.company) as Record<string, unknown>[];
  let instock = 0;
  const out = rows
    .filter((r) => !spec.Location || r.Location === spec.Location)
    .filter((r) => !spec.ArtCode || text(r.Code).startsWith(spec.ArtCode))
    .filter((r) => spec.OnlyInStock !== '1' || num(r.Instock) > 0)
    .map((r) => {
      instock += num(r.Instock);
      return {
        Code: text(r.Code),
        Name: text(r.Name),
        Location: text(r.Location),
        Instock: text(r.Instock),
        OrddOut: text(r.OrddOut),
        POQty: text(r.POQty),
        Available: formatQuantity(num(r.Instock) - num(r.OrddOut)),
      };
    });
  return { rows: out, totals: { Count: String(out.length), Instock: formatQuantity(instock) } };
}
