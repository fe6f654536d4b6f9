import { formatQuantity, isDecimal, parseDecimal } from '../values/decimal.js';
import { addDays, type Draft, type Explicit, lookup, type WriteContext } from './draft.js';

/**
 * Field auto-fill of form-encoded writes (record-rest-api.md §4 rule 1) and the field triggers of
 * portal-action-api.md §2 "Field-trigger catalogue" that the REST registers share. A trigger fills
 * the fields that depend on the changed one, never a field the request set itself.
 * README "Auto-fill" lists every rule.
 */

/**
 * Sets a header field unless the request set it or the register lacks it (drafts hold every field of
 * their register); records it as changed so that later triggers run.
 */
function fill(d: Draft, ex: Explicit, changed: Set<string>, field: string, value: string | undefined): void {
  if (value === undefined || ex.has(field) || !(field in d.fields)) return;
  if (d.fields[field] !== value) changed.add(field);
  d.fields[field] = value;
}

function fillRow(d: Draft, ex: Explicit, row: number, field: string, value: string | undefined): void {
  if (value === undefined || ex.has(field, row) || !(field in d.rows[row]!)) return;
  d.rows[row]![field] = value;
}

const SALES = new Set(['IVVc', 'ORVc', 'QTVc']);

/** Defaults of a new record (the `__new` of the field-trigger catalogue): dates, draft state, type. */
const newDefaults: Record<string, (today: string) => Record<string, string>> = {
  IVVc: (t) => ({ InvDate: t, OKFlag: '0', InvType: '1' }),
  ORVc: (t) => ({ OrdDate: t, OKFlag: '0' }),
  QTVc: (t) => ({ QTDate: t }),
  VIVc: (t) => ({ InvDate: t, OKFlag: '0' }),
  POVc: (t) => ({ TransDate: t, OKFlag: '0' }),
  PUVc: (t) => ({ RegDate: t, TransDate: t, OKFlag: '0' }),
  ExpVc: (t) => ({ TransDate: t, OKFlag: '0' }),
  TRVc: (t) => ({ TransDate: t, RegDate: t }),
  IPVc: (t) => ({ TransDate: t, OKFlag: '0' }),
  OPVc: (t) => ({ TransDate: t, PayDate: t }),
  StockMovVc: (t) => ({ RegDate: t, OKFlag: '0' }),
  SDVc: (t) => ({ TransDate: t, OKFlag: '0' }),
  GCVc: (t) => ({ TransDate: t, OKFlag: '0' }),
  FBVc: (t) => ({ TransDate: t }),
  OpenTransVc: (t) => ({ TransDate: t, OKFlag: '0' }),
  CUVc: (t) => ({ DateCreated: t }),
  COVc: (t) => ({ CODate: t, OKFlag: '0' }),
};

/** Fills the defaults of a new record; returns the fields it set. */
export function applyNewDefaults(ctx: WriteContext, register: string, d: Draft, ex: Explicit): Set<string> {
  const changed = new Set<string>();
  const defaults = newDefaults[register]?.(ctx.today) ?? {};
  for (const [f, v] of Object.entries(defaults)) if ((d.fields[f] ?? '') === '') fill(d, ex, changed, f, v);
  return changed;
}

/** The days of a payment term (PDVc pdays), or undefined. */
function payDays(ctx: WriteContext, payDeal: string): number | undefined {
  const pd = lookup(ctx, 'PDVc', payDeal);
  if (!pd) return undefined;
  const n = parseDecimal(pd.pdays);
  return Number.isFinite(n) ? n : 0;
}

type HeaderTrigger = (ctx: WriteContext, d: Draft, ex: Explicit, changed: Set<string>, register: string) => void;

/** Header triggers per register, in the order they run; each fires when its field changed. */
const headerTriggers: Record<string, [string, HeaderTrigger][]> = {};
function on(registers: string[], field: string, t: HeaderTrigger): void {
  for (const r of registers) {
    headerTriggers[r] ??= [];
    headerTriggers[r].push([field, t]);
  }
}

// CustCode loads the customer's defaults (portal doc IVVc H "CustCode (loads customer defaults)"; rule 1)
on(['IVVc', 'ORVc', 'QTVc'], 'CustCode', (ctx, d, ex, ch) => {
  const cu = lookup(ctx, 'CUVc', d.fields.CustCode ?? '');
  if (!cu) return;
  fill(d, ex, ch, 'Addr0', cu.Name);
  fill(d, ex, ch, 'Addr1', cu.InvAddr0);
  fill(d, ex, ch, 'Addr2', cu.InvAddr1);
  fill(d, ex, ch, 'Addr3', cu.InvAddr2);
  if (cu.PayDeal) fill(d, ex, ch, 'PayDeal', cu.PayDeal);
  if (cu.CurncyCode) fill(d, ex, ch, 'CurncyCode', cu.CurncyCode);
  fill(d, ex, ch, 'InvCountry', cu.CountryCode);
  if (cu.SalesMan) fill(d, ex, ch, 'SalesMan', cu.SalesMan);
  const cat = lookup(ctx, 'CCatVc', cu.Classification ?? '');
  if (cat?.PLCode) fill(d, ex, ch, 'PriceList', cat.PLCode);
  if (cat?.ARAcc) fill(d, ex, ch, 'ARAcc', cat.ARAcc);
});
// VECode loads the supplier's name and terms (purchase invoice, portal doc VIVc H)
on(['VIVc'], 'VECode', (ctx, d, ex, ch) => {
  const ve = lookup(ctx, 'CUVc', d.fields.VECode ?? '');
  if (!ve) return;
  fill(d, ex, ch, 'VEName', ve.Name);
  if (ve.PayDeal) fill(d, ex, ch, 'PayDeal', ve.PayDeal);
  if (ve.CurncyCode) fill(d, ex, ch, 'CurncyCode', ve.CurncyCode);
});
on(['POVc', 'PUVc'], 'VECode', (ctx, d, ex, ch) => {
  const ve = lookup(ctx, 'CUVc', d.fields.VECode ?? '');
  if (ve?.CurncyCode) fill(d, ex, ch, 'CurncyCode', ve.CurncyCode);
  if (ve?.PayDeal) fill(d, ex, ch, 'PayDeal', ve.PayDeal);
});
// InvDate sets TransDate (IVVc, VIVc)
on(['IVVc', 'VIVc'], 'InvDate', (_ctx, d, ex, ch) => fill(d, ex, ch, 'TransDate', d.fields.InvDate));
// PayDeal sets the due date from the term's days (IVVc "updates PayDate", VIVc "also updates DueDate");
// a credit invoice (PayDeal K, rule 4) gets InvType 3
const dueDate =
  (dateField: string, target: string): HeaderTrigger =>
  (ctx, d, ex, ch) => {
    const days = payDays(ctx, d.fields.PayDeal ?? '');
    if (days === undefined) return;
    fill(d, ex, ch, target, addDays(d.fields[dateField] ?? '', days));
  };
on(['IVVc'], 'PayDeal', (ctx, d, ex, ch, reg) => {
  dueDate('InvDate', 'PayDate')(ctx, d, ex, ch, reg);
  fill(d, ex, ch, 'InvType', d.fields.PayDeal === 'K' ? '3' : '1');
});
on(['IVVc'], 'InvDate', dueDate('InvDate', 'PayDate'));
on(['VIVc'], 'PayDeal', dueDate('InvDate', 'DueDate'));
on(['VIVc'], 'InvDate', dueDate('InvDate', 'DueDate'));
// TRVc: the year code follows the transaction date when not given
on(['TRVc'], 'TransDate', (_ctx, d, ex, ch) => {
  if ((d.fields.IntYc ?? '') === '' && /^\d{4}-/.test(d.fields.TransDate ?? ''))
    fill(d, ex, ch, 'IntYc', d.fields.TransDate!.slice(0, 4));
});
// INVc: Width, Height, Depth recalculate Volume; Density gives NetWeight; NetWeight gives Density
const volume: HeaderTrigger = (_ctx, d, ex, ch) => {
  const dims = [d.fields.Width, d.fields.Height, d.fields.Depth];
  if (dims.every((v) => v !== undefined && isDecimal(v)))
    fill(
      d,
      ex,
      ch,
      'Volume',
      formatQuantity(
        dims.reduce((a, v) => a * Number(v), 1),
        6,
      ),
    );
};
on(['INVc'], 'Width', volume);
on(['INVc'], 'Height', volume);
on(['INVc'], 'Depth', volume);
on(['INVc'], 'Density', (_ctx, d, ex, ch) => {
  if (isDecimal(d.fields.Volume ?? '') && isDecimal(d.fields.Density ?? ''))
    fill(d, ex, ch, 'NetWeight', formatQuantity(Number(d.fields.Volume) * Number(d.fields.Density), 3));
});
on(['INVc'], 'NetWeight', (_ctx, d, ex, ch) => {
  const vol = Number(d.fields.Volume);
  if (isDecimal(d.fields.Volume ?? '') && vol !== 0 && isDecimal(d.fields.NetWeight ?? ''))
    fill(d, ex, ch, 'Density', formatQuantity(Number(d.fields.NetWeight) / vol, 6));
});

/** Runs the header triggers of the changed fields, in catalogue order (a trigger's fills can fire later ones). */
export function runHeaderTriggers(
  ctx: WriteContext,
  register: string,
  d: Draft,
  ex: Explicit,
  changed: Set<string>,
): void {
  for (const [field, trigger] of headerTriggers[register] ?? []) {
    if (changed.has(field)) trigger(ctx, d, ex, changed, register);
  }
}

/** The price of an item on a price list (PLVc ExVatPrice), else its base price UPrice1. */
function itemPrice(ctx: WriteContext, priceList: string, item: Record<string, string>, code: string): string {
  const pl = lookup(ctx, 'PLVc', priceList, code);
  return pl?.ExVatPrice ? pl.ExVatPrice : (item.UPrice1 ?? '');
}

/**
 * Row triggers for the changed fields of one row: an item code loads name, price, VAT code, sales
 * account and unit (IVVc R "ArtCode (loads price, VAT, description, sales account)").
 */
export function runRowTriggers(
  ctx: WriteContext,
  register: string,
  d: Draft,
  ex: Explicit,
  row: number,
  changed: ReadonlySet<string>,
): void {
  const r = d.rows[row]!;
  if (changed.has('ArtCode') && r.ArtCode) {
    const item = lookup(ctx, 'INVc', r.ArtCode);
    if (!item) return;
    if (SALES.has(register)) {
      fillRow(d, ex, row, 'stp', r.stp || '1');
      fillRow(d, ex, row, 'Spec', item.Name);
      fillRow(d, ex, row, 'Price', itemPrice(ctx, d.fields.PriceList ?? '', item, r.ArtCode));
      fillRow(d, ex, row, 'VATCode', item.VATCode);
      fillRow(d, ex, row, 'UnitCode', item.Unittext);
      fillRow(d, ex, row, 'SalesAcc', lookup(ctx, 'ITVc', item.Group ?? '')?.SalesAcc);
      if ((r.Quant ?? '') === '') fillRow(d, ex, row, 'Quant', '1');
    } else if (register === 'POVc') {
      fillRow(d, ex, row, 'Price', item.InPrice);
      fillRow(d, ex, row, 'VATCode', item.VATCode);
      if ((r.Quant ?? '') === '') fillRow(d, ex, row, 'Quant', '1');
    } else if (register === 'PUVc') {
      fillRow(d, ex, row, 'UPrice', item.InPrice);
      if ((r.Quant ?? '') === '') fillRow(d, ex, row, 'Quant', '1');
    }
  }
  if (changed.has('AccNumber') && r.AccNumber && (register === 'VIVc' || register === 'ExpVc')) {
    const acc = lookup(ctx, 'AccVc', r.AccNumber);
    if (acc?.VATCode) fillRow(d, ex, row, 'VATCode', acc.VATCode);
  }
  if (register === 'IPVc' && changed.has('InvoiceNr') && r.InvoiceNr) {
    const inv = lookup(ctx, 'IVVc', r.InvoiceNr);
    if (!inv) return;
    fillRow(d, ex, row, 'CustCode', inv.CustCode);
    fillRow(d, ex, row, 'CustName', inv.Addr0);
    fillRow(d, ex, row, 'InvVal', inv.Sum4);
    if ((r.RecVal ?? '') === '') fillRow(d, ex, row, 'RecVal', inv.Sum4);
    if ((r.BankVal ?? '') === '') fillRow(d, ex, row, 'BankVal', r.RecVal);
  }
  if (register === 'OPVc' && changed.has('VISerNr') && r.VISerNr) {
    const vi = lookup(ctx, 'VIVc', r.VISerNr);
    if (!vi) return;
    fillRow(d, ex, row, 'VECode', vi.VECode);
    fillRow(d, ex, row, 'PInvVal', vi.PayVal);
    if ((r.RecVal ?? '') === '') fillRow(d, ex, row, 'RecVal', vi.PayVal);
    if ((r.BankVal ?? '') === '') fillRow(d, ex, row, 'BankVal', r.RecVal);
  }
}

/** PriceList reprices the item rows whose price the request did not set (IVVc H "PriceList (reprices rows)"). */
export function repriceRows(ctx: WriteContext, register: string, d: Draft, ex: Explicit): void {
  if (!SALES.has(register)) return;
  d.rows.forEach((r, i) => {
    if (!r.ArtCode || ex.has('Price', i)) return;
    const item = lookup(ctx, 'INVc', r.ArtCode);
    if (item) r.Price = itemPrice(ctx, d.fields.PriceList ?? '', item, r.ArtCode);
  });
}
