import type { Statement } from 'better-sqlite3';
import { outputFields, type RegisterSchema } from '../schema/register-schema.js';
import { quoteIdent } from './database.js';
import { OffsetBookmarks } from './offset-bookmarks.js';
import type { RecordStore } from './record-store.js';
import { encodeRows, type StoredRecord } from './record-table.js';

/** `range` of record-rest-api.md §4: `from:to` inclusive, `from:` onwards, or one exact value. */
export type RangeSpec = { readonly exact: string } | { readonly from: string; readonly to?: string };

/** A checked list query (field names already validated against the schema). */
export interface ListQuery {
  /** Fields to return (header, base and row fields); undefined returns all. */
  readonly select?: readonly string[];
  readonly sort?: string;
  readonly range?: RangeSpec;
  readonly limit?: number;
  readonly offset?: number;
  /** `filter.<Field>` pairs, ANDed. */
  readonly filters?: readonly (readonly [string, string])[];
  readonly updatesAfter?: number;
  /** Restricts to the one record with this key (GET by key). */
  readonly keyParts?: readonly string[];
}

/** Where each output value sits in a raw result row. */
export interface RenderPlan {
  readonly register: string;
  /** Header fields in output order with their column index. */
  readonly header: readonly { readonly name: string; readonly col: number }[];
  readonly keyCols: readonly number[];
  readonly seqCol: number;
  /** Whether records carry the `rows` element (left out when `fields` names no row field, README "fields"). */
  readonly rowsElement: boolean;
  /** Column of the JSON rows, or -1 when there are none to read (no lines, or `rows` left out). */
  readonly rowsCol: number;
  /** Row fields in output order. */
  readonly rowFields: readonly string[];
  /** True for deleted records: only key fields, no rows. */
  readonly deleted?: boolean;
}

/** A page of raw rows and how to render them. */
export interface RecordPage {
  readonly plan: RenderPlan;
  readonly rows: readonly unknown[][];
}

const caches = new WeakMap<RecordStore, Map<string, Statement>>();
const bookmarks = new WeakMap<RecordStore, OffsetBookmarks>();

function bookmarksOf(store: RecordStore): OffsetBookmarks {
  let b = bookmarks.get(store);
  if (!b) {
    b = new OffsetBookmarks();
    bookmarks.set(store, b);
  }
  return b;
}

/** A prepared statement from the store's cache (raw mode: rows come back as arrays). */
function prepared(store: RecordStore, sql: string): Statement {
  let cache = caches.get(store);
  if (!cache) {
    cache = new Map();
    caches.set(store, cache);
  }
  let stmt = cache.get(sql);
  if (!stmt) {
    if (cache.size > 500) cache.clear();
    stmt = store.db.prepare(sql).raw(true);
    cache.set(sql, stmt);
  }
  return stmt;
}

/**
 * LIMIT/OFFSET as literals (checked whole numbers): SQLite runs a point query several times slower
 * when LIMIT is a bound parameter, and most reads have none.
 */
function limitClause(q: { readonly limit?: number; readonly offset?: number }): string {
  const limit = q.limit !== undefined ? Math.trunc(q.limit) : undefined;
  const offset = q.offset !== undefined ? Math.trunc(q.offset) : 0;
  if (limit === undefined && offset === 0) return '';
  return ` LIMIT ${limit ?? -1}${offset > 0 ? ` OFFSET ${offset}` : ''}`;
}

/** The SQL column behind a field: ServerSequence is the record's `_seq`. */
function column(field: string): string {
  return field === 'ServerSequence' ? '_seq' : quoteIdent(field);
}

/** Which header and row fields a selection names. */
export function splitSelection(schema: RegisterSchema, select: readonly string[] | undefined) {
  const all = outputFields(schema);
  if (!select) return { header: all, rowFields: schema.rowFields, rows: true };
  const wanted = new Set(select);
  const rowFields = schema.rowFields.filter((f) => wanted.has(f));
  return {
    header: all.filter((f) => wanted.has(f)),
    rowFields: wanted.has('rows') ? schema.rowFields : rowFields,
    rows: wanted.has('rows') || rowFields.length > 0,
  };
}

/** Runs a list (or by-key) query of one company. */
export function listRecords(store: RecordStore, register: string, company: number, q: ListQuery): RecordPage {
  const table = store.table(register);
  const schema = table.schema;
  const sel = splitSelection(schema, q.select);
  const cols = ['_seq', ...schema.key.map(quoteIdent)];
  const colOf = (f: string) => {
    const c = column(f);
    let i = cols.indexOf(c);
    if (i < 0) i = cols.push(c) - 1;
    return i;
  };
  const header = sel.header.map((name) => ({ name, col: colOf(name) }));
  const rowsCol = sel.rows && sel.rowFields.length > 0 && !schema.viewSql ? cols.push('_rows') - 1 : -1;

  const where = ['_company = ?'];
  const params: (string | number)[] = [company];
  const bind = (f: string, v: string) => (f === 'ServerSequence' ? v : table.bindValue(f, v));
  if (q.keyParts) {
    schema.key.forEach((k, i) => {
      where.push(`${quoteIdent(k)} = ?`);
      params.push(bind(k, q.keyParts![i] ?? ''));
    });
  }
  if (q.updatesAfter !== undefined) {
    where.push('_seq > ?');
    params.push(q.updatesAfter);
  }
  for (const [f, v] of q.filters ?? []) {
    where.push(`${column(f)} = ?`);
    params.push(bind(f, v));
  }
  if (q.sort && q.range) {
    const c = column(q.sort);
    if ('exact' in q.range) {
      where.push(`${c} = ?`);
      params.push(bind(q.sort, q.range.exact));
    } else {
      where.push(`${c} >= ?`);
      params.push(bind(q.sort, q.range.from));
      if (q.range.to !== undefined) {
        where.push(`${c} <= ?`);
        params.push(bind(q.sort, q.range.to));
      }
    }
  }
  const keyOrder = schema.key.map(quoteIdent);
  const order = q.sort
    ? [column(q.sort), ...keyOrder]
    : q.updatesAfter !== undefined && !schema.viewSql
      ? ['_seq']
      : keyOrder;
  const orderCols = [...new Set(order)];
  const orderIdx = orderCols.map((c) => {
    let i = cols.indexOf(c);
    if (i < 0) i = cols.push(c) - 1;
    return i;
  });
  const select = `SELECT ${cols.join(', ')} FROM ${quoteIdent(table.name)} WHERE ${where.join(' AND ')}`;
  const orderBy = ` ORDER BY ${orderCols.join(', ')}`;
  const offset = q.offset ?? 0;
  let rows: unknown[][];
  if (offset > 0 && !q.keyParts && !schema.viewSql) {
    // keyset seek from the nearest bookmark (offset-bookmarks.ts); fetch the row before the page too
    const marks = bookmarksOf(store);
    const signature = `${select}${orderBy}\u0000${JSON.stringify(params)}`;
    const version = store.version(register);
    const mark = marks.find(signature, version, offset);
    const seek = mark ? ` AND (${orderCols.join(', ')}) > (${orderCols.map(() => '?').join(', ')})` : '';
    const skip = mark ? offset - mark.position - 1 : offset;
    const before = skip > 0 ? 1 : 0;
    const limit = q.limit === undefined ? undefined : q.limit + before;
    const got = prepared(
      store,
      `${select}${seek}${orderBy}${limitClause({ ...(limit !== undefined ? { limit } : {}), offset: skip - before })}`,
    ).all(...params, ...(mark?.values ?? [])) as unknown[][];
    const valuesOf = (r: unknown[]) => orderIdx.map((i) => r[i]);
    if (before && got.length > 0) marks.remember(signature, version, offset - 1, valuesOf(got[0]!));
    rows = before ? got.slice(1) : got;
    if (rows.length > 0) marks.remember(signature, version, offset + rows.length - 1, valuesOf(rows[rows.length - 1]!));
  } else rows = prepared(store, `${select}${orderBy}${limitClause(q)}`).all(...params) as unknown[][];
  return {
    plan: {
      register,
      header,
      keyCols: schema.key.map((_, i) => i + 1),
      seqCol: 0,
      rowsElement: sel.rows,
      rowsCol,
      rowFields: sel.rowFields,
    },
    rows,
  };
}

/** A page made from records in hand (a write's answer), rendered like a GET of all fields. */
export function pageFromRecords(schema: RegisterSchema, records: readonly StoredRecord[]): RecordPage {
  const header = outputFields(schema);
  const k = schema.key.length;
  const rowsCol = schema.rowFields.length > 0 ? 1 + k + header.length : -1;
  return {
    plan: {
      register: schema.name,
      header: header.map((name, i) => ({ name, col: 1 + k + i })),
      keyCols: schema.key.map((_, i) => i + 1),
      seqCol: 0,
      rowsElement: true,
      rowsCol,
      rowFields: schema.rowFields,
    },
    rows: records.map((r) => [
      r.seq,
      ...schema.key.map((f) => r.fields[f] ?? ''),
      ...header.map((f) => (f === 'ServerSequence' ? String(r.seq) : (r.fields[f] ?? ''))),
      ...(rowsCol >= 0 ? [encodeRows(r.rows)] : []),
    ]),
  };
}

/** A checked `deletes_after` query: filters, sort and range only on key fields. */
export interface DeletesQuery {
  readonly after: number;
  readonly updatesAfter?: number;
  readonly sort?: string;
  readonly range?: RangeSpec;
  readonly limit?: number;
  readonly offset?: number;
  readonly filters?: readonly (readonly [string, string])[];
}

/** Lists tombstones of one register and company with a sequence above `after`, oldest first. */
export function listDeletes(store: RecordStore, register: string, company: number, q: DeletesQuery): RecordPage {
  const schema = store.table(register).schema;
  const k = (f: string) => `k${schema.key.indexOf(f)}`;
  const where = ['register = ?', '_company = ?', '_seq > ?'];
  const params: (string | number)[] = [register, company, Math.max(q.after, q.updatesAfter ?? q.after)];
  for (const [f, v] of q.filters ?? []) {
    where.push(`${k(f)} = ?`);
    params.push(v);
  }
  if (q.sort && q.range) {
    if ('exact' in q.range) {
      where.push(`${k(q.sort)} = ?`);
      params.push(q.range.exact);
    } else {
      where.push(`${k(q.sort)} >= ?`);
      params.push(q.range.from);
      if (q.range.to !== undefined) {
        where.push(`${k(q.sort)} <= ?`);
        params.push(q.range.to);
      }
    }
  }
  const order = q.sort ? `${k(q.sort)}, _seq` : '_seq';
  const sql = `SELECT _seq, k0, k1, k2 FROM tombstones WHERE ${where.join(' AND ')} ORDER BY ${order}${limitClause(q)}`;
  const rows = prepared(store, sql).all(...params) as unknown[][];
  return {
    plan: {
      register,
      header: schema.key.map((name, i) => ({ name, col: i + 1 })),
      keyCols: schema.key.map((_, i) => i + 1),
      seqCol: 0,
      rowsElement: true,
      rowsCol: -1,
      rowFields: [],
      deleted: true,
    },
    rows,
  };
}
