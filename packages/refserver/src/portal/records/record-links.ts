import { textResponse } from '../../http/respond.js';
import type { RecordStore } from '../../store/record-store.js';
import type { PortalHandler } from '../handler.js';
import { ensurePortalTables } from '../portal-tables.js';
import { elementXml, okXml } from '../xml.js';
import { loadRecord } from './record-ref.js';

/** A link between two records as getrecordlinks reports it. */
export interface RecordLink {
  readonly regname: string;
  readonly id: string;
  /** What the linked record is to the asked one: source, derived, payment, credit, credited, activity. */
  readonly relation: string;
}

/** Stores that record `to` was made from record `from` (a conversion). */
export function addDerivedLink(
  store: RecordStore,
  company: number,
  from: { register: string; id: string },
  to: { register: string; id: string },
): void {
  ensurePortalTables(store.db);
  store.db
    .prepare(
      'INSERT INTO portal_links (company, from_register, from_id, to_register, to_id, relation) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(company, from.register, from.id, to.register, to.id, 'derived');
}

/** The records derived from a record (conversions), as [register, id]. */
export function derivedFrom(store: RecordStore, company: number, register: string, id: string): [string, string][] {
  ensurePortalTables(store.db);
  return (
    store.db
      .prepare('SELECT to_register, to_id FROM portal_links WHERE company = ? AND from_register = ? AND from_id = ?')
      .raw(true)
      .all(company, register, id) as [string, string][]
  ).map(([r, i]) => [r, i]);
}

/** SerNr of the records of `register` whose rows carry `value` in the row field `field`. */
function rowsNaming(store: RecordStore, company: number, register: string, field: string, value: string): string[] {
  return (
    store.db
      .prepare(
        `SELECT DISTINCT t.SerNr FROM "reg_${register}" t, json_each(t._rows) j ` +
          `WHERE t._company = ? AND json_extract(j.value, '$.${field}') = ? ORDER BY t.SerNr`,
      )
      .pluck()
      .all(company, value) as number[]
  ).map(String);
}

/** Every record linked to one (README "getrecordlinks"). */
export function recordLinks(store: RecordStore, company: number, register: string, id: string): RecordLink[] {
  ensurePortalTables(store.db);
  const out: RecordLink[] = [];
  const db = store.db;
  const stored = db
    .prepare(
      'SELECT from_register, from_id, to_register, to_id FROM portal_links WHERE company = ? AND ' +
        '((from_register = ? AND from_id = ?) OR (to_register = ? AND to_id = ?)) ORDER BY rowid',
    )
    .raw(true)
    .all(company, register, id, register, id) as [string, string, string, string][];
  for (const [fr, fi, tr, ti] of stored) {
    if (fr === register && fi === id) out.push({ regname: tr, id: ti, relation: 'derived' });
    else out.push({ regname: fr, id: fi, relation: 'source' });
  }
  const rec = store.get(register, company, [id]);
  if (register === 'IVVc') {
    for (const s of rowsNaming(store, company, 'IPVc', 'InvoiceNr', id))
      out.push({ regname: 'IPVc', id: s, relation: 'payment' });
    for (const s of rowsNaming(store, company, 'IVVc', 'OrdRow', id))
      if (s !== id) out.push({ regname: 'IVVc', id: s, relation: 'credit' });
    for (const r of rec?.rows ?? [])
      if (r.stp === '3' && r.OrdRow) out.push({ regname: 'IVVc', id: r.OrdRow, relation: 'credited' });
  }
  if (register === 'VIVc')
    for (const s of rowsNaming(store, company, 'OPVc', 'VISerNr', id))
      out.push({ regname: 'OPVc', id: s, relation: 'payment' });
  const acts = db
    .prepare(
      'SELECT SerNr FROM "reg_ActVc" WHERE _company = ? AND SourceRegister = ? AND SourceRecordId = ? ORDER BY SerNr',
    )
    .pluck()
    .all(company, register, id) as number[];
  for (const s of acts) out.push({ regname: 'ActVc', id: String(s), relation: 'activity' });
  if (register === 'ActVc' && rec?.fields.SourceRegister && rec.fields.SourceRecordId)
    out.push({ regname: rec.fields.SourceRegister, id: rec.fields.SourceRecordId, relation: 'source' });
  return out;
}

/** Registers whose links `--quirks` answers with the id as four raw bytes (README "getrecordlinks"). */
const RAW_ID_REGISTERS = new Set(['ActVc']);

/** A serial number as the four bytes of a little-endian 32-bit integer, one Latin-1 character per byte. */
export function rawIdBytes(id: string): string {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(Number(id) >>> 0);
  return b.toString('latin1');
}

/**
 * `action=action&register=getrecordlinks&regname=<R>&id=<id>`: the records linked to one, in the shape live servers
 * answer on the ERP's own handler (issue 21): `<data><res errstr="" regname="LinkVc"/>` followed by one
 * `<LinkVc><ID>…</ID><VcName>…</VcName><Comment>relation</Comment></LinkVc>` per link, none when the record has
 * no links (the body is not shown, §4 rule 11; `Comment` holds erpcert's relation word: source, derived, payment,
 * credit, credited, activity). With `--quirks`, links to an activity carry the id as four raw bytes (a
 * little-endian integer) and the body is sent as Latin-1, as some live registers do.
 */
const getrecordlinks: PortalHandler = {
  kind: 'sub-action',
  name: 'getrecordlinks',
  required: ['regname', 'id'],
  handle(ctx) {
    const ref = loadRecord(ctx, ctx.params.require('regname'), ctx.params.require('id'));
    const links = recordLinks(ctx.app.store, ctx.company, ref.register, ref.id);
    const quirks = ctx.app.quirks;
    const raw = (l: RecordLink) => quirks && RAW_ID_REGISTERS.has(l.regname) && /^\d{1,9}$/.test(l.id);
    const id = (l: RecordLink) => (raw(l) ? `<ID>${rawIdBytes(l.id)}</ID>` : elementXml('ID', l.id));
    const xml = okXml(
      { regname: 'LinkVc' },
      links
        .map((l) => `<LinkVc>${id(l)}${elementXml('VcName', l.regname)}${elementXml('Comment', l.relation)}</LinkVc>`)
        .join(''),
    );
    if (!links.some(raw)) return { xml };
    return { response: textResponse({ charset: 'latin1' }, 200, 'application/xml', xml) };
  },
};

export const recordLinkHandlers: readonly PortalHandler[] = [getrecordlinks];
