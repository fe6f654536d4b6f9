import type { Statement } from 'better-sqlite3';
import { parseDecimal, round } from '../values/decimal.js';
import { vatRate } from '../values/vat.js';
import type { Db } from './database.js';
import type { RecordData } from './record-table.js';

/**
 * The read-only registers (record-rest-api.md §2: ItemStatusVc, SerBalVc, ARPayVc) are derived from
 * other data (issue 3). Every write of a source register replaces that record's entries in three
 * ledgers inside the same transaction; the registers are SQL views over the ledgers. Only confirmed
 * records (OKFlag 1) count; README "Derived registers" lists the rules.
 */

const LEDGERS = `
  CREATE TABLE IF NOT EXISTS ledger_stock (_company INTEGER NOT NULL, src TEXT NOT NULL, item TEXT NOT NULL,
    location TEXT NOT NULL, instock INTEGER NOT NULL, orddout INTEGER NOT NULL, poqty INTEGER NOT NULL,
    _seq INTEGER NOT NULL);
  CREATE INDEX IF NOT EXISTS ledger_stock_src ON ledger_stock (src);
  CREATE INDEX IF NOT EXISTS ledger_stock_key ON ledger_stock (_company, item, location);
  CREATE TABLE IF NOT EXISTS ledger_serial (_company INTEGER NOT NULL, src TEXT NOT NULL, item TEXT NOT NULL,
    serial TEXT NOT NULL, location TEXT NOT NULL, qty INTEGER NOT NULL, cost TEXT NOT NULL, _seq INTEGER NOT NULL);
  CREATE INDEX IF NOT EXISTS ledger_serial_src ON ledger_serial (src);
  CREATE INDEX IF NOT EXISTS ledger_serial_key ON ledger_serial (_company, item, location, serial);
  CREATE TABLE IF NOT EXISTS ledger_prepay (_company INTEGER NOT NULL, src TEXT NOT NULL, cupnr TEXT NOT NULL,
    custcode TEXT NOT NULL, curncy TEXT NOT NULL, paydate TEXT NOT NULL, vatcode TEXT NOT NULL,
    amount INTEGER NOT NULL, vat INTEGER NOT NULL, _seq INTEGER NOT NULL);
  CREATE INDEX IF NOT EXISTS ledger_prepay_src ON ledger_prepay (src);
  CREATE INDEX IF NOT EXISTS ledger_prepay_key ON ledger_prepay (_company, cupnr);
`;

/** Quantities are stored in thousandths; this formats a thousandths sum as the ERP's decimal text. */
const qty = (x: string) =>
  `CASE WHEN (${x}) % 1000 = 0 THEN CAST((${x}) / 1000 AS TEXT) ` +
  `ELSE rtrim(rtrim(printf('%.3f', (${x}) / 1000.0), '0'), '.') END`;
const amount = (x: string) => `printf('%.2f', (${x}) / 100.0)`;

/** The SELECT of each derived register; column names are the register's fields plus `_company`, `_seq`. */
export const derivedViews: Readonly<Record<string, string>> = {
  ItemStatusVc:
    `SELECT _company, item AS "Code", location AS "Location", ${qty('SUM(instock)')} AS "Instock", ` +
    `${qty('SUM(orddout)')} AS "OrddOut", ${qty('SUM(poqty)')} AS "POQty", '0' AS "RsrvQty", MAX(_seq) AS _seq ` +
    'FROM ledger_stock GROUP BY _company, item, location',
  SerBalVc:
    `SELECT l._company AS _company, ${qty('SUM(l.qty)')} AS "Quant", l.item AS "Item", l.serial AS "Serial", ` +
    'l.location AS "Location", COALESCE((SELECT c.cost FROM ledger_serial c WHERE c._company = l._company ' +
    'AND c.item = l.item AND c.serial = l.serial AND c.qty > 0 ORDER BY c._seq DESC LIMIT 1), \'\') AS "CostPrice", ' +
    'MAX(l._seq) AS _seq FROM ledger_serial l GROUP BY l._company, l.item, l.location, l.serial HAVING SUM(l.qty) <> 0',
  ARPayVc:
    `SELECT _company, cupnr AS "CUPNr", ${amount('SUM(amount)')} AS "RVal", ` +
    `COALESCE(MAX(CASE WHEN amount > 0 THEN paydate END), '') AS "PayDate", ` +
    `COALESCE(MAX(CASE WHEN amount > 0 THEN custcode END), '') AS "CustCode", ` +
    `COALESCE(MAX(CASE WHEN amount > 0 THEN curncy END), '') AS "CurncyCode", ` +
    `${amount('SUM(amount)')} AS "BookRVal", ${amount('SUM(vat)')} AS "VATVal", ` +
    `COALESCE(MAX(CASE WHEN amount > 0 THEN vatcode END), '') AS "VATCode", MAX(_seq) AS _seq ` +
    'FROM ledger_prepay GROUP BY _company, cupnr HAVING SUM(amount) <> 0',
};

interface StockEntry {
  item: string;
  location: string;
  instock: number;
  orddout: number;
  poqty: number;
}
interface SerialEntry {
  item: string;
  serial: string;
  location: string;
  qty: number;
  cost: string;
}
interface PrepayEntry {
  cupnr: string;
  custcode: string;
  curncy: string;
  paydate: string;
  vatcode: string;
  amount: number;
}
interface Entries {
  stock: StockEntry[];
  serial: SerialEntry[];
  prepay: PrepayEntry[];
}

const milli = (text: string | undefined, dflt = 0) => {
  const n = text === undefined || text === '' ? dflt : parseDecimal(text);
  return Number.isFinite(n) ? Math.round(n * 1000) : 0;
};
const cents = (text: string | undefined) => {
  const n = parseDecimal(text);
  return Number.isFinite(n) ? Math.round(round(n, 2) * 100) : 0;
};
const ITEM_STP = new Set(['', '1']);
/** A normal item row (stp 1 or blank) with an item code (record-rest-api.md §2 "Row types"). */
const itemRow = (r: Record<string, string>) => ITEM_STP.has(r.stp ?? '') && (r.ArtCode ?? '') !== '';

/** Ledger entries of one record of a source register (confirmed records only). */
function entriesOf(register: string, rec: RecordData): Entries {
  const out: Entries = { stock: [], serial: [], prepay: [] };
  const h = rec.fields;
  if (h.OKFlag !== '1') return out;
  const stock = (item: string, location: string, field: 'instock' | 'orddout' | 'poqty', n: number) => {
    if (item && n !== 0) out.stock.push({ item, location, instock: 0, orddout: 0, poqty: 0, [field]: n });
  };
  switch (register) {
    case 'PUVc':
      for (const r of rec.rows) {
        stock(r.ArtCode ?? '', h.Location ?? '', 'instock', milli(r.Quant));
        if (r.SerialNr && r.ArtCode) {
          out.serial.push({
            item: r.ArtCode,
            serial: r.SerialNr,
            location: h.Location ?? '',
            qty: milli(r.Quant, 1),
            cost: r.UPrice ?? '',
          });
        }
      }
      break;
    case 'IVVc': {
      // a credit invoice (PayDeal K, record-rest-api.md §4 rule 4) takes goods back in
      const sign = h.PayDeal === 'K' ? 1 : -1;
      for (const r of rec.rows) {
        if (itemRow(r)) {
          stock(r.ArtCode!, h.Location ?? '', 'instock', sign * milli(r.Quant));
          if (r.SerialNr) {
            out.serial.push({
              item: r.ArtCode!,
              serial: r.SerialNr,
              location: h.Location ?? '',
              qty: sign * milli(r.Quant, 1),
              cost: '',
            });
          }
        }
        if (r.CUPNr) {
          out.prepay.push({
            cupnr: r.CUPNr,
            custcode: h.CustCode ?? '',
            curncy: h.CurncyCode ?? '',
            paydate: h.InvDate ?? '',
            vatcode: r.VATCode ?? '',
            amount: -cents(r.Sum),
          });
        }
      }
      break;
    }
    case 'StockMovVc':
      for (const r of rec.rows) {
        stock(r.ArtCode ?? '', h.FrLocation ?? '', 'instock', -milli(r.Quant));
        stock(r.ArtCode ?? '', h.ToLocation ?? '', 'instock', milli(r.Quant));
      }
      break;
    case 'SDVc':
      for (const r of rec.rows) stock(r.ArtCode ?? '', h.Location ?? '', 'instock', -milli(r.Qty));
      break;
    case 'ORVc':
      for (const r of rec.rows) if (itemRow(r)) stock(r.ArtCode!, h.Location ?? '', 'orddout', milli(r.Quant));
      break;
    case 'POVc':
      for (const r of rec.rows) stock(r.ArtCode ?? '', '', 'poqty', milli(r.Quant));
      break;
    case 'IPVc':
      for (const r of rec.rows) {
        if (!r.CUPNr) continue;
        out.prepay.push({
          cupnr: r.CUPNr,
          custcode: r.CustCode ?? '',
          curncy: h.PayCurCode ?? '',
          paydate: r.PayDate || (h.TransDate ?? ''),
          vatcode: r.VATCode ?? '',
          amount: cents(r.RecVal),
        });
      }
      break;
  }
  return out;
}

/** Registers whose writes move the ledgers. */
export const ledgerSources: ReadonlySet<string> = new Set([
  'PUVc',
  'IVVc',
  'StockMovVc',
  'SDVc',
  'ORVc',
  'POVc',
  'IPVc',
]);

/** Keeps the ledgers: create them once, then replace a source record's entries on every write or delete. */
export class Ledgers {
  readonly #stmts: Record<string, Statement>;

  constructor(db: Db) {
    db.exec(LEDGERS);
    this.#stmts = {
      delStock: db.prepare('DELETE FROM ledger_stock WHERE src = ?'),
      delSerial: db.prepare('DELETE FROM ledger_serial WHERE src = ?'),
      delPrepay: db.prepare('DELETE FROM ledger_prepay WHERE src = ?'),
      addStock: db.prepare('INSERT INTO ledger_stock VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
      addSerial: db.prepare('INSERT INTO ledger_serial VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
      addPrepay: db.prepare('INSERT INTO ledger_prepay VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
    };
  }

  /** Replaces the entries of record `id` of `register` (undefined record: deleted; `fresh`: a new id, nothing to drop). */
  apply(register: string, company: number, id: number, rec: RecordData | undefined, seq: number, fresh = false): void {
    if (!ledgerSources.has(register)) return;
    const s = this.#stmts;
    const src = `${register}:${id}`;
    if (!fresh) {
      s.delStock!.run(src);
      s.delSerial!.run(src);
      s.delPrepay!.run(src);
    }
    if (!rec) return;
    const e = entriesOf(register, rec);
    for (const x of e.stock) s.addStock!.run(company, src, x.item, x.location, x.instock, x.orddout, x.poqty, seq);
    for (const x of e.serial) s.addSerial!.run(company, src, x.item, x.serial, x.location, x.qty, x.cost, seq);
    for (const x of e.prepay) {
      const rate = vatRate(x.vatcode);
      const vat = Math.round((x.amount * rate) / (100 + rate));
      s.addPrepay!.run(company, src, x.cupnr, x.custcode, x.curncy, x.paydate, x.vatcode, x.amount, vat, seq);
    }
  }
}
