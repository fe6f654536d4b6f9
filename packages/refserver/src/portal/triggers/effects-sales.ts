import { repriceRows } from '../../business/auto-fill.js';
import { Explicit } from '../../business/draft.js';
import { formatAmount, isDecimal, parseDecimal } from '../../values/decimal.js';
import { fold } from '../portal-tables.js';
import { getSetting } from '../settings.js';
import { recipe } from '../workflow/workflow-config.js';
import {
  business,
  changed,
  documentDate,
  type Effect,
  find,
  rowOf,
  sums,
  type TriggerRun,
  warn,
} from './trigger-run.js';

/**
 * Effects of the sales and purchase documents (IVVc, ORVc, QTVc, VIVc) of the field-trigger catalogue
 * (portal-action-api.md §2). Where the REST auto-fill has the rule (business/auto-fill.ts, sums.ts) it is
 * called, not copied.
 */

/** The setting that names a machine's cash drawer (MachineName "sets DrawerCode"); unset: the machine name. */
export const drawerSetting = (machine: string) => `machine.${machine}.drawer`;

/** Reprices the item rows when the price list changed (CustCode, PayDeal), then sums. */
function repriceIfChanged(t: TriggerRun, before: string): void {
  if ((t.d.fields.PriceList ?? '') !== before) repriceRows(t.write, t.register, t.d, new Explicit());
}

/** The list price of a row: the price list's price, else the item's base price (repriceRows on a copy). */
function listPrice(t: TriggerRun, r: Record<string, string>): string | undefined {
  const tmp = { fields: t.d.fields, rows: [{ ...r }] };
  repriceRows(t.write, t.register, tmp, new Explicit());
  const p = tmp.rows[0]!.Price;
  return p !== undefined && isDecimal(p) ? p : undefined;
}

/**
 * The quantity discount of a row (ORVc "Quant (may change price for quantity discounts)"): the header's
 * discount matrix RebVc (RebCode), valid on the document date, with its scale StaffVc: every limit Lim1..Lim9
 * the quantity reaches adds DiscPerc percent (at most 100). Price becomes the list price less that discount.
 * No RebCode: the price stays as it is.
 */
function quantityDiscount(t: TriggerRun, index: number): void {
  const code = t.d.fields.RebCode ?? '';
  const r = t.d.rows[index]!;
  if (code === '' || !r.ArtCode) return;
  const reb = find(t, 'RebVc', code);
  if (!reb) {
    warn(t, `RebCode "${code}" is not a discount matrix (RebVc)`);
    return;
  }
  const date = documentDate(t);
  let perc = 0;
  if ((reb.FromDate && date < reb.FromDate) || (reb.ToDate && date > reb.ToDate))
    warn(t, `discount matrix ${code} is valid ${reb.FromDate || '...'} to ${reb.ToDate || '...'}, not on ${date}`);
  else {
    const scale = find(t, 'StaffVc', reb.StaffCode ?? '');
    const quant = parseDecimal(r.Quant);
    let steps = 0;
    for (let i = 1; i <= 9; i++) {
      const lim = scale?.[`Lim${i}`] ?? '';
      if (lim !== '' && isDecimal(lim) && quant >= Number(lim)) steps++;
    }
    perc = Math.min(100, steps * (parseDecimal(reb.DiscPerc) || 0));
  }
  const list = listPrice(t, r);
  if (list !== undefined) r.Price = formatAmount(Number(list) * (1 - perc / 100));
}

const customer: Effect = (t) => {
  const code = t.d.fields.CustCode ?? '';
  if (code !== '' && !find(t, 'CUVc', code)) return warn(t, `CustCode "${code}" is not a contact`);
  const before = t.d.fields.PriceList ?? '';
  business(t);
  repriceIfChanged(t, before);
  sums(t);
};

/** Addr0 "customer lookup by name": an exact name (case-insensitive), else a unique prefix among customers. */
const customerByName: Effect = (t) => {
  const name = fold(changed(t).trim());
  if (name === '') return;
  const all = t.ctx.app.store.db
    .prepare(`SELECT Code, Name FROM "reg_CUVc" WHERE _company = ? AND CUType = '1' ORDER BY Code`)
    .raw(true)
    .all(t.wf.company) as [string, string][];
  const exact = all.filter(([, n]) => fold(n ?? '') === name);
  const hits = exact.length > 0 ? exact : all.filter(([, n]) => fold(n ?? '').startsWith(name));
  if (hits.length === 0) return warn(t, `no customer is named "${changed(t)}"`);
  if (hits.length > 1)
    return warn(
      t,
      `${hits.length} customers match "${changed(t)}": ${hits
        .slice(0, 5)
        .map(([c]) => c)
        .join(', ')}`,
    );
  const before = t.d.fields.PriceList ?? '';
  t.d.fields.CustCode = hits[0]![0];
  business(t, 'CustCode', new Explicit());
  repriceIfChanged(t, before);
  sums(t);
};

const payDeal: Effect = (t) => {
  const code = t.d.fields.PayDeal ?? '';
  if (code !== '' && !find(t, 'PDVc', code)) return warn(t, `PayDeal "${code}" is not a payment term`);
  business(t);
  if (t.register === 'IVVc') {
    // "updates PayDate and PriceList": the price list that goes with the customer (its class)
    const before = t.d.fields.PriceList ?? '';
    const cu = find(t, 'CUVc', t.d.fields.CustCode ?? '');
    const pl = find(t, 'CCatVc', cu?.Classification ?? '')?.PLCode;
    if (pl) t.d.fields.PriceList = pl;
    repriceIfChanged(t, before);
  }
  sums(t);
};

const priceList: Effect = (t) => {
  const code = t.d.fields.PriceList ?? '';
  const any = t.ctx.app.store.db
    .prepare('SELECT 1 FROM "reg_PLVc" WHERE _company = ? AND PLCode = ? LIMIT 1')
    .get(t.wf.company, code);
  if (code !== '' && !any) warn(t, `PriceList "${code}" has no prices (PLVc); the items' base prices apply`);
  repriceRows(t.write, t.register, t.d, t.ex);
  sums(t);
};

const rebate: Effect = (t) => {
  t.d.rows.forEach((_r, i) => {
    quantityDiscount(t, i);
  });
  sums(t);
};

const deliveryAddress: Effect = (t) => {
  const code = t.d.fields.DelAddrCode ?? '';
  if (code === '') return;
  const addr = find(t, 'DelAddrVc', t.d.fields.CustCode ?? '', code);
  if (!addr) return warn(t, `DelAddrCode "${code}" is no delivery address of customer "${t.d.fields.CustCode ?? ''}"`);
  if ('DelCountry' in t.d.fields && addr.DelCountry) t.d.fields.DelCountry = addr.DelCountry;
};

const drawer: Effect = (t) => {
  const machine = t.d.fields.MachineName ?? '';
  t.d.fields.DrawerCode =
    machine === '' ? '' : (getSetting(t.ctx.app.store, t.wf.company, drawerSetting(machine)) ?? machine);
};

const item: Effect = (t) => {
  const code = changed(t);
  if (code !== '' && !find(t, 'INVc', code)) return warn(t, `ArtCode "${code}" is not an item`);
  business(t);
  if (t.register === 'ORVc') quantityDiscount(t, t.row);
  sums(t);
};

const quantity: Effect = (t) => {
  if (t.register === 'ORVc') quantityDiscount(t, t.row);
  sums(t);
};

/** Recepy "loads recipe/BOM": text rows (stp 2) listing the components, replacing those of an earlier load. */
const recipeRows: Effect = (t) => {
  const code = changed(t);
  const parts = code === '' ? [] : recipe(t.ctx.app.store, t.wf.company, code);
  if (code !== '' && !parts) return warn(t, `Recepy "${code}" is not a recipe`);
  const marker = `${code}: `;
  let end = t.row + 1;
  while (end < t.d.rows.length && t.d.rows[end]!.stp === '2' && (t.d.rows[end]!.Spec ?? '').startsWith(marker)) end++;
  const template = Object.fromEntries(Object.keys(rowOf(t)).map((k) => [k, '']));
  const quant = parseDecimal(rowOf(t).Quant) || 1;
  const added = (parts ?? []).map(([art, q]) => ({
    ...template,
    stp: '2',
    Spec: `${marker}${art} ${find(t, 'INVc', art)?.Name ?? ''} x ${String((parseDecimal(q) || 0) * quant)}`,
  }));
  t.d.rows.splice(t.row + 1, end - t.row - 1, ...added);
  sums(t);
};

/** QTVc row Markup: Price = InPrice x (1 + Markup / 100). */
const markup: Effect = (t) => {
  const r = rowOf(t);
  const m = changed(t);
  if (m === '') return;
  if (!isDecimal(m)) return warn(t, `Markup "${m}" is not a number`);
  const cost = find(t, 'INVc', r.ArtCode ?? '')?.InPrice ?? '';
  if (!isDecimal(cost)) return warn(t, `the item "${r.ArtCode ?? ''}" has no cost price (InPrice) to mark up`);
  r.Price = formatAmount(Number(cost) * (1 + Number(m) / 100));
  sums(t);
};

const vendor: Effect = (t) => {
  const code = t.d.fields.VECode ?? '';
  if (code !== '' && !find(t, 'CUVc', code)) return warn(t, `VECode "${code}" is not a contact`);
  business(t);
};

/** VIVc PayVal/VATVal: the other total from the rows; a PayVal that is not rows + VAT is a warning (rule 5). */
const purchaseTotals: Effect = (t) => {
  sums(t);
  const rows = t.d.rows.reduce((a, r) => a + (parseDecimal(r.Sum) || 0), 0);
  const vat = parseDecimal(t.d.fields.VATVal) || 0;
  const pay = parseDecimal(t.d.fields.PayVal) || 0;
  if (Math.abs(pay - (rows + vat)) >= 0.005)
    warn(
      t,
      `PayVal ${formatAmount(pay)} is not the row sum ${formatAmount(rows)} plus VATVal ${formatAmount(vat)} (record-rest-api.md §4 rule 5)`,
    );
};

const account: Effect = (t) => {
  const code = changed(t);
  if (code !== '' && !find(t, 'AccVc', code)) warn(t, `AccNumber "${code}" is not an account`);
  else business(t);
  sums(t);
};

/** The effects of this file, by name. */
export const salesEffects = {
  customer,
  customerByName,
  docDate: business,
  rates: sums,
  payDeal,
  priceList,
  rebate,
  discount: sums,
  deliveryAddress,
  drawer,
  item,
  rowSum: sums,
  rowSumBack: sums,
  quantity,
  vat: sums,
  recipe: recipeRows,
  markup,
  vendor,
  purchaseTotals,
  account,
  purchaseRowSum: sums,
} satisfies Record<string, Effect>;
