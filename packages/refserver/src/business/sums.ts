import { formatAmount, formatQuantity, isDecimal, parseDecimal, round } from '../values/decimal.js';
import { vatRate } from '../values/vat.js';
import type { Draft, Explicit } from './draft.js';

/**
 * Sums of form-encoded writes (issue 3: "sums (Sum0..Sum4, row Sum from Quant x Price less discount)
 * are computed"). The docs do not say what Sum0..Sum4 mean; the reference server uses
 * (README "Sums"): Sum0 gross (Quant x Price), Sum1 net (row sums less the header discount DiscPerc),
 * Sum2 discounts (Sum0 - Sum1), Sum3 VAT (per VAT code on the net), Sum4 total (Sum1 + Sum3).
 */

const NORMAL_ROW = new Set(['', '1']);
const num = (v: string | undefined) => {
  const n = parseDecimal(v);
  return Number.isFinite(n) ? n : 0;
};
const has = (v: string | undefined) => v !== undefined && v !== '' && isDecimal(v);

/** Row Sum from Quant x Price less vRebate %, or vRebate back from an explicit Sum (IVVc R "Sum (back-calculates vRebate)"). */
function rowSum(r: Record<string, string>, row: number, ex: Explicit, price = 'Price'): void {
  if (!has(r[price])) return;
  const quant = has(r.Quant) ? num(r.Quant) : 0;
  const gross = quant * num(r[price]);
  if ('vRebate' in r && ex.has('Sum', row) && has(r.Sum) && !ex.has('vRebate', row) && gross !== 0) {
    r.vRebate = formatQuantity((1 - num(r.Sum) / gross) * 100, 2);
    return;
  }
  r.Sum = formatAmount(gross * (1 - num(r.vRebate) / 100));
}

/** Sales documents and purchase orders: row sums and Sum0..Sum4 (+ DiscSum, BaseSum4 on IVVc). */
function documentSums(d: Draft, ex: Explicit): void {
  let gross = 0;
  let net = 0;
  const netByVat = new Map<string, number>();
  d.rows.forEach((r, i) => {
    if (!NORMAL_ROW.has(r.stp ?? '')) return;
    rowSum(r, i, ex);
    if (!has(r.Sum)) return;
    const sum = num(r.Sum);
    gross += has(r.Price) ? num(r.Quant) * num(r.Price) : sum;
    net += sum;
    const code = r.VATCode ?? '';
    netByVat.set(code, (netByVat.get(code) ?? 0) + sum);
  });
  const discPerc = num(d.fields.DiscPerc);
  const disc = round((net * discPerc) / 100);
  if ('DiscSum' in d.fields) d.fields.DiscSum = discPerc === 0 ? '' : formatAmount(disc);
  const net1 = round(net - disc);
  let vat = 0;
  for (const [code, sum] of netByVat) vat += round((sum * (1 - discPerc / 100) * vatRate(code)) / 100);
  d.fields.Sum0 = formatAmount(gross);
  d.fields.Sum1 = formatAmount(net1);
  d.fields.Sum2 = formatAmount(gross - net1);
  d.fields.Sum3 = formatAmount(vat);
  d.fields.Sum4 = formatAmount(net1 + vat);
  if ('BaseSum4' in d.fields) {
    // FrRate units of the currency are worth ToRateB1 units of base currency 1; blank rates mean 1:1
    const fr = num(d.fields.FrRate) || 1;
    const to = num(d.fields.ToRateB1) || 1;
    d.fields.BaseSum4 = formatAmount(((net1 + vat) * to) / fr);
  }
}

/** Debit and credit totals (TRVc, FBVc). */
function balanceSums(d: Draft): void {
  let deb = 0;
  let cred = 0;
  for (const r of d.rows) {
    deb += num(r.DebVal);
    cred += num(r.CredVal);
  }
  d.fields.DSum = formatAmount(deb);
  d.fields.CSum = formatAmount(cred);
  d.fields.DiffVal = formatAmount(deb - cred);
}

const total = (d: Draft, field: string) => d.rows.reduce((a, r) => a + num(r[field]), 0);

const perRegister: Record<string, (d: Draft, ex: Explicit) => void> = {
  IVVc: documentSums,
  ORVc: documentSums,
  QTVc: documentSums,
  POVc: documentSums,
  PUVc: (d, ex) => {
    d.rows.forEach((r, i) => {
      rowSum(r, i, ex, 'UPrice');
    });
  },
  // purchase invoice: row Sum excludes VAT, VATVal is the VAT, PayVal the total with VAT (rule 5)
  VIVc: (d, ex) => {
    const byVat = new Map<string, number>();
    for (const r of d.rows) byVat.set(r.VATCode ?? '', (byVat.get(r.VATCode ?? '') ?? 0) + num(r.Sum));
    if (!ex.has('VATVal')) {
      let vat = 0;
      for (const [code, sum] of byVat) vat += round((sum * vatRate(code)) / 100);
      d.fields.VATVal = formatAmount(vat);
    }
    if (!ex.has('PayVal')) d.fields.PayVal = formatAmount(total(d, 'Sum') + num(d.fields.VATVal));
  },
  ExpVc: (d, ex) => {
    d.rows.forEach((r, i) => {
      if (!ex.has('VATSum', i) && has(r.Sum)) r.VATSum = formatAmount((num(r.Sum) * vatRate(r.VATCode)) / 100);
    });
    if (!ex.has('PayVal')) d.fields.PayVal = formatAmount(total(d, 'Sum') + total(d, 'VATSum'));
  },
  TRVc: balanceSums,
  FBVc: balanceSums,
  StockMovVc: (d) => {
    d.fields.TotQty = formatQuantity(total(d, 'Quant'));
  },
  SDVc: (d) => {
    d.fields.TotQty = formatQuantity(total(d, 'Qty'));
  },
  IPVc: (d) => {
    d.fields.CurPayVal = formatAmount(total(d, 'RecVal'));
  },
  OPVc: (d) => {
    d.fields.CurPayVal = formatAmount(total(d, 'RecVal'));
  },
  OpenTransVc: (d) => {
    for (const r of d.rows) if (has(r.Tariff) && has(r.Amount)) r.Sum = formatAmount(num(r.Tariff) * num(r.Amount));
    d.fields.Total = formatAmount(total(d, 'Sum'));
  },
  WorkedHoursVc: (d) => {
    for (const r of d.rows) {
      let hours = 0;
      let days = 0;
      for (let i = 1; i <= 31; i++) {
        const h = num(r[`d${i}`]);
        hours += h;
        if (h !== 0) days++;
      }
      r.HoursTotal = formatQuantity(hours, 2);
      r.DaysTotal = String(days);
    }
  },
  Bud1Vc: (d) => {
    d.fields.BudSum = formatAmount(total(d, 'sval'));
  },
};

/** Computes the sums of a form-encoded write in place. */
export function computeSums(register: string, d: Draft, ex: Explicit): void {
  perRegister[register]?.(d, ex);
}

/** Registers whose sums are computed. */
export const registersWithSums: ReadonlySet<string> = new Set(Object.keys(perRegister));

/** Fields the sums read: they must be decimal numbers (checked on every write). */
export const numericFields: Readonly<Record<string, { header: string[]; rows: string[] }>> = {
  IVVc: { header: ['DiscPerc', 'FrRate', 'ToRateB1'], rows: ['Quant', 'Price', 'Sum', 'vRebate'] },
  ORVc: { header: ['DiscPerc', 'FrRate', 'ToRateB1'], rows: ['Quant', 'Price', 'Sum', 'vRebate'] },
  QTVc: { header: ['DiscPerc', 'FrRate', 'ToRateB1'], rows: ['Quant', 'Price', 'Sum', 'vRebate'] },
  POVc: { header: [], rows: ['Quant', 'Price', 'Sum'] },
  PUVc: { header: [], rows: ['Quant', 'UPrice', 'Sum'] },
  VIVc: { header: ['PayVal', 'VATVal'], rows: ['Sum'] },
  ExpVc: { header: ['PayVal'], rows: ['Sum', 'VATSum'] },
  TRVc: { header: [], rows: ['DebVal', 'CredVal'] },
  FBVc: { header: [], rows: ['DebVal', 'CredVal'] },
  StockMovVc: { header: [], rows: ['Quant'] },
  SDVc: { header: [], rows: ['Qty'] },
  IPVc: { header: [], rows: ['RecVal', 'BankVal', 'InvVal'] },
  OPVc: { header: [], rows: ['RecVal', 'BankVal', 'PInvVal'] },
  OpenTransVc: { header: [], rows: ['Tariff', 'Amount', 'Sum'] },
  Bud1Vc: { header: [], rows: ['sval'] },
  INVc: { header: ['Width', 'Height', 'Depth', 'Density', 'NetWeight', 'UPrice1', 'InPrice'], rows: [] },
};
