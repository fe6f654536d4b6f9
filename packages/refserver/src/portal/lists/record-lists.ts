import { quoteIdent } from '../../store/database.js';
import { tableName } from '../../store/record-table.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { ensurePortalTables } from '../portal-tables.js';
import { attrs, recordElementXml } from '../xml.js';
import { LIST_DEFS, type ListDef } from './list-defs.js';
import { type ListRequest, pageAttrs, parseListRequest } from './list-params.js';

/** The WHERE clause of a list query: company, search terms, date window, bfilter, user. */
function whereOf(ctx: PortalContext, def: ListDef, req: ListRequest): { sql: string; params: (string | number)[] } {
  const where = ['_company = ?'];
  const params: (string | number)[] = [ctx.company];
  for (const term of req.terms) {
    where.push(`(${def.search.map((f) => `instr(portal_fold(${quoteIdent(f)}), ?) > 0`).join(' OR ')})`);
    for (const _ of def.search) params.push(term);
  }
  if (def.date && req.sd) {
    where.push(`${quoteIdent(def.date)} >= ?`);
    params.push(req.sd);
  }
  if (def.date && req.ed) {
    where.push(`${quoteIdent(def.date)} <> '' AND ${quoteIdent(def.date)} <= ?`);
    params.push(req.ed);
  }
  if (req.bfilter !== undefined) {
    const b = def.bfilter;
    if (b.values && !b.values.includes(req.bfilter))
      throw new PortalError(
        `parameter "bfilter" of the ${def.register} list is ${b.meaning}: one of ${b.values.join(', ')}; got "${req.bfilter}"`,
      );
    where.push(`${quoteIdent(b.field)} = ?`);
    params.push(req.bfilter);
  }
  if (def.userField && req.usercode) {
    where.push(`instr(',' || replace(${quoteIdent(def.userField)}, ' ', '') || ',', ?) > 0`);
    params.push(`,${req.usercode},`);
  }
  return { sql: where.join(' AND '), params };
}

/** The records of one page (all matching records when `all`), with the total count. */
export function queryList(
  ctx: PortalContext,
  def: ListDef,
  req: ListRequest,
  all = false,
): { count: number; rows: [string, string][][] } {
  const db = ctx.app.store.db;
  ensurePortalTables(db);
  const table = quoteIdent(tableName(def.register));
  const { sql, params } = whereOf(ctx, def, req);
  const count = Number(
    db
      .prepare(`SELECT COUNT(*) FROM ${table} WHERE ${sql}`)
      .pluck()
      .get(...params),
  );
  const dir = req.descending ? 'DESC' : 'ASC';
  const key = req.sortkey ?? def.key;
  const sortExpr = def.numeric.includes(key) ? `CAST(${quoteIdent(key)} AS REAL)` : quoteIdent(key);
  const order = key === def.key ? `${sortExpr} ${dir}` : `${sortExpr} ${dir}, ${quoteIdent(def.key)} ${dir}`;
  const limit = all ? '' : ` LIMIT ${req.perpage} OFFSET ${(req.page - 1) * req.perpage}`;
  const rows = db
    .prepare(`SELECT ${def.fields.map(quoteIdent).join(', ')} FROM ${table} WHERE ${sql} ORDER BY ${order}${limit}`)
    .raw(true)
    .all(...params) as unknown[][];
  return {
    count,
    rows: rows.map((r) => def.fields.map((f, i) => [f, r[i] === null || r[i] === undefined ? '' : String(r[i])])),
  };
}

/**
 * A list query `register=<R>` (no action) of a table-backed register: `<data count page perpage totalpages>`
 * with one element per record (§2 "Paged list (most registers)", README "XML conventions" 7).
 */
function recordList(def: ListDef): PortalHandler {
  return {
    kind: 'list',
    name: def.register,
    handle(ctx) {
      const req = parseListRequest(ctx, def.register, def.fields);
      const { count, rows } = queryList(ctx, def, req);
      const body = rows.map((r) => recordElementXml(def.register, r)).join('');
      return { xml: `<data${attrs(pageAttrs(count, req))}>${body}</data>\n` };
    },
  };
}

export const recordListHandlers: readonly PortalHandler[] = Object.values(LIST_DEFS).map(recordList);
