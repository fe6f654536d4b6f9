import { quoteIdent } from '../../store/database.js';
import { tableName } from '../../store/record-table.js';
import type { PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { ensurePortalTables, fold } from '../portal-tables.js';
import { recordElementXml } from '../xml.js';

/** At most this many lookup results (portal-action-api.md §4 rule 1, §8 "Lookup results: 50 maximum"). */
export const LOOKUP_MAX = 50;

/** What one lookup register searches and answers. */
interface LookupDef {
  /** The table behind it (VEVc and AllCUVc are views over CUVc, registers.ts). */
  readonly source: string;
  /** Searched fields (§4 rule 2). */
  readonly search: readonly string[];
  /** Fields of each result element (INVc: Code, Name, UPrice1 per §2 "Lookup result"; the rest ours). */
  readonly fields: readonly string[];
  readonly where?: string;
}

const CONTACT_FIELDS = ['Code', 'Name', 'RegNr1', 'VATNr', 'eMail'];

/** §4 rule 2 "Searched fields of pastespecial"; CUVc looks up customers (CUType 1): VEVc has the vendors. */
export const LOOKUPS: Readonly<Record<string, LookupDef>> = {
  INVc: { source: 'INVc', search: ['Code', 'Name'], fields: ['Code', 'Name', 'UPrice1', 'Unittext', 'VATCode'] },
  CUVc: { source: 'CUVc', search: ['Code', 'Name', 'RegNr1'], fields: CONTACT_FIELDS, where: `"CUType" = '1'` },
  VEVc: { source: 'VEVc', search: ['Code', 'Name', 'RegNr1'], fields: CONTACT_FIELDS },
  AllCUVc: { source: 'AllCUVc', search: ['Code', 'Name', 'RegNr1'], fields: CONTACT_FIELDS },
  UserVc: { source: 'UserVc', search: ['Code', 'Name'], fields: ['Code', 'Name', 'emailAddr'] },
};

/**
 * `action=pastespecial&register=<R>&id=<search text>[&bfilter=<item group>]` (§4 rule 1): `id` holds the
 * search text; terms separated by spaces are ANDed; a record matches a term when one of the searched
 * fields STARTS with it, case-insensitively (the whole field value, not a word inside it: README
 * "pastespecial"). At most 50 results, ordered by Code, no pagination. `bfilter` (INVc only) keeps the items
 * of one item group (INVc Group).
 */
const pastespecial: PortalHandler = {
  kind: 'action',
  name: 'pastespecial',
  registers: { operation: 'pastespecial', param: 'register' },
  handle(ctx) {
    const register = ctx.register!;
    const def = LOOKUPS[register];
    if (!def) throw new PortalError(`pastespecial of ${register} is not implemented`);
    const db = ctx.app.store.db;
    ensurePortalTables(db);
    const where = ['_company = ?'];
    const params: (string | number)[] = [ctx.company];
    if (def.where) where.push(def.where);
    const terms = fold(ctx.params.get('id') ?? '')
      .split(/\s+/)
      .filter(Boolean);
    for (const term of terms) {
      // substr and length count characters, so the prefix test is exact for any text
      where.push(`(${def.search.map((f) => `substr(portal_fold(${quoteIdent(f)}), 1, length(?)) = ?`).join(' OR ')})`);
      for (const _ of def.search) params.push(term, term);
    }
    const bfilter = ctx.params.get('bfilter') ?? '';
    if (bfilter !== '') {
      if (register !== 'INVc') throw new PortalError(`bfilter applies to INVc only (the item group), not ${register}`);
      where.push('"Group" = ?');
      params.push(bfilter);
    }
    const sql =
      `SELECT ${def.fields.map(quoteIdent).join(', ')} FROM ${quoteIdent(tableName(def.source))} ` +
      `WHERE ${where.join(' AND ')} ORDER BY "Code" LIMIT ${LOOKUP_MAX}`;
    const rows = db
      .prepare(sql)
      .raw(true)
      .all(...params) as unknown[][];
    const body = rows
      .map((r) =>
        recordElementXml(
          register,
          def.fields.map((f, i) => [f, r[i] === null ? '' : String(r[i])] as const),
        ),
      )
      .join('');
    return { xml: `<data>${body}</data>\n` };
  },
};

export const lookupHandlers: readonly PortalHandler[] = [pastespecial];
