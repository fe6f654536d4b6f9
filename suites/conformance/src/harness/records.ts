/**
 * Small readers of records in the JSON shape (record-rest-api.md §2 "Record"), which the client returns
 * whichever format was asked for.
 */
import type { RestListQuery, RestRecord } from '@erpcert/client';
import { getRegister } from '@erpcert/contract';

/** A record as the tests see it: `@` members, field values, `rows`. */
export type AnyRecord = Readonly<Record<string, unknown>>;

/** Members that are not fields of the register (record-rest-api.md §2 "Record"). */
export function isMetaMember(name: string): boolean {
  return name.startsWith('@') || name === 'rows';
}

/** A field's value; an absent field reads as the empty string (§2: "Empty fields are empty strings"). */
export function fieldValue(record: AnyRecord | RestRecord, field: string): string {
  const v = (record as AnyRecord)[field];
  return v === undefined || v === null ? '' : String(v);
}

/** The record's `@url`, or '' when it has none. */
export function urlOf(record: AnyRecord | RestRecord): string {
  const v = (record as AnyRecord)['@url'];
  return typeof v === 'string' ? v : '';
}

/** The rows of a record ([] when it has none). */
export function rowsOf(record: AnyRecord | RestRecord): readonly AnyRecord[] {
  const rows = (record as AnyRecord).rows;
  return Array.isArray(rows) ? (rows as AnyRecord[]) : [];
}

/**
 * The key parts of an `@url` (`/api/<n>/<register>/<part>[/<part>...]`), decoded, or undefined when the
 * url does not have that shape (record-rest-api.md §2 "Record", §4 rule 11).
 */
export function keyFromUrl(url: string, register: string): string[] | undefined {
  const m = /^\/api\/[^/]+\/([^/]+)\/(.*)$/.exec(url);
  if (!m || m[1] !== register) return undefined;
  try {
    return m[2]!.split('/').map((p) => decodeURIComponent(p));
  } catch {
    return undefined;
  }
}

/** The key field values of a record of a register of the table, in key order; undefined for others. */
export function keyValues(register: string, record: AnyRecord | RestRecord): string[] | undefined {
  const def = getRegister(register);
  return def ? def.key.map((k) => fieldValue(record, k)) : undefined;
}

/** The ledger's key of a record: key parts, not encoded, joined by `/` (runner/ledger.ts). */
export function ledgerKey(register: string, record: AnyRecord | RestRecord): string | undefined {
  const fromUrl = keyFromUrl(urlOf(record), register);
  if (fromUrl) return fromUrl.join('/');
  const values = keyValues(register, record);
  return values?.every((v) => v !== '') ? values.join('/') : undefined;
}

/** The identity of a record in comparisons: its `@url`, else its key values. */
export function identityOf(register: string, record: AnyRecord | RestRecord): string {
  const url = urlOf(record);
  if (url !== '') return url;
  return `key:${(keyValues(register, record) ?? []).join('/')}`;
}

/**
 * A list query of any register: the documented parameters and `filter.<Field>` (record-rest-api.md §4).
 * The client's `RestListQuery<R>` is precise for the table's registers only; this is the loose form.
 */
export type ListQuery = Readonly<Record<string, string | number | readonly string[] | undefined>>;

/** The client's query type for a loose {@link ListQuery}. */
export function asRestQuery(query: ListQuery): RestListQuery {
  return query as unknown as RestListQuery;
}
