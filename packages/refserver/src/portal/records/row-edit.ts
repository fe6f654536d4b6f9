import { checkRecord } from '../../business/checks.js';
import { Explicit } from '../../business/draft.js';
import { computeSums } from '../../business/sums.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { okXml } from '../xml.js';
import { assertUnlocked, loadRecord, registerSchema } from './record-ref.js';

const ROW_NUMBER = /^[1-9]\d{0,5}$/;

/**
 * `deleterow` id `{SerNr}:{rows}`: rows a comma-separated list of 1-based row numbers
 * (portal-action-api.md §2 "Identifier formats"). Returns the 0-based indexes, checked against nothing yet.
 */
export function parseDeleteRowId(id: string): { serNr: string; rows: number[] } {
  const usage = `id "${id}" must be {SerNr}:{rows}, rows 1-based and comma-separated (e.g. 10000001:1,3)`;
  const colon = id.indexOf(':');
  if (colon <= 0) throw new PortalError(usage);
  const serNr = id.slice(0, colon);
  const list = id.slice(colon + 1);
  if (list === '') throw new PortalError(`${usage}: no row numbers`);
  const rows: number[] = [];
  for (const part of list.split(',')) {
    if (!ROW_NUMBER.test(part)) throw new PortalError(`${usage}: "${part}" is not a row number from 1`);
    const n = Number(part);
    if (rows.includes(n - 1)) throw new PortalError(`${usage}: row ${n} is named twice`);
    rows.push(n - 1);
  }
  return { serNr, rows };
}

/**
 * `insertrow` id `{SerNr}:{afterRow}:{rowType}`: afterRow 0 inserts at the beginning, rowType is the stp
 * value 1, 2 or 3 (portal-action-api.md §2 "Identifier formats").
 */
export function parseInsertRowId(id: string): { serNr: string; after: number; stp: '1' | '2' | '3' } {
  const usage = `id "${id}" must be {SerNr}:{afterRow}:{rowType}, afterRow from 0, rowType 1, 2 or 3 (e.g. 10000001:0:1)`;
  const parts = id.split(':');
  if (parts.length !== 3 || parts[0] === '') throw new PortalError(usage);
  const [serNr, after, stp] = parts as [string, string, string];
  if (!/^(0|[1-9]\d{0,5})$/.test(after)) throw new PortalError(`${usage}: afterRow "${after}" is not a number from 0`);
  if (stp !== '1' && stp !== '2' && stp !== '3')
    throw new PortalError(`${usage}: rowType "${stp}" is not 1 (item), 2 (text) or 3 (credit)`);
  return { serNr, after: Number(after), stp };
}

/** Rewrites a record's rows in one transaction: lock check, row edit, sums (as a form write computes them). */
function editRows(
  ctx: PortalContext,
  serNr: string,
  edit: (rows: Record<string, string>[], rowFields: readonly string[]) => void,
  check: boolean,
): void {
  const register = ctx.register!;
  const schema = registerSchema(ctx, register);
  const store = ctx.app.store;
  store.write(() => {
    const ref = loadRecord(ctx, register, serNr);
    assertUnlocked(ctx, ref);
    const d = { fields: { ...ref.rec.fields }, rows: ref.rec.rows.map((r) => ({ ...r })) };
    delete d.fields.ServerSequence;
    edit(d.rows, schema.rowFields);
    computeSums(register, d, new Explicit());
    if (check) checkRecord(ctx.write, schema, d);
    store.update(register, ref.rec, d);
  });
}

/**
 * `action=deleterow&register=<R>&id={SerNr}:{rows}`: removes the rows; the rest are renumbered and the sums
 * recomputed. A malformed id, a row beyond the record or a row named twice changes nothing.
 */
const deleteRow: PortalHandler = {
  kind: 'action',
  name: 'deleterow',
  registers: { operation: 'deleterow', param: 'register' },
  required: ['id'],
  handle(ctx) {
    const { serNr, rows } = parseDeleteRowId(ctx.params.require('id'));
    editRows(
      ctx,
      serNr,
      (list) => {
        const beyond = rows.find((i) => i >= list.length);
        if (beyond !== undefined)
          throw new PortalError(
            `row ${beyond + 1} is beyond the record: ${ctx.register} ${serNr} has ${list.length} row(s)`,
          );
        const drop = new Set(rows);
        const keep = list.filter((_, i) => !drop.has(i));
        list.splice(0, list.length, ...keep);
      },
      true,
    );
    return { xml: okXml() };
  },
};

/**
 * `action=insertrow&register=<R>&id={SerNr}:{afterRow}:{rowType}`: an empty row of type stp goes after row
 * afterRow (1-based; 0 = first). Its fields are filled by a later write (PATCH /api/1/, windowactions), whose
 * record checks then run; the insert itself checks the id and the position only (README "Rows").
 */
const insertRow: PortalHandler = {
  kind: 'action',
  name: 'insertrow',
  registers: { operation: 'insertrow', param: 'register' },
  required: ['id'],
  handle(ctx) {
    const { serNr, after, stp } = parseInsertRowId(ctx.params.require('id'));
    editRows(
      ctx,
      serNr,
      (list, rowFields) => {
        if (!rowFields.includes('stp')) throw new PortalError(`${ctx.register} rows have no row type (stp)`);
        if (after > list.length)
          throw new PortalError(
            `afterRow ${after} is beyond the record: ${ctx.register} ${serNr} has ${list.length} row(s)`,
          );
        const row: Record<string, string> = {};
        for (const f of rowFields) row[f] = '';
        row.stp = stp;
        list.splice(after, 0, row);
      },
      false,
    );
    return { xml: okXml() };
  },
};

export const rowHandlers: readonly PortalHandler[] = [deleteRow, insertRow];
