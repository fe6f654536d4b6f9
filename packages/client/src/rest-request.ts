import { getRegister } from '@erpcert/contract';
import type { CompanyPlacement } from './config.js';
import { REST_VERSION_SEGMENT } from './config.js';
import type { RestFields, RestListQuery, RestRowFields } from './rest-types.js';
import { encodeKeyPart, type QueryPair } from './url.js';

/** A record key: one value, the key parts in `@url` order, or the key fields by name. */
export type RecordKey = string | number | readonly (string | number)[] | Readonly<Record<string, string | number>>;

/** Company placement of one REST request. */
export interface CompanyOptions {
  readonly companyIn: CompanyPlacement;
  readonly compcode: string | undefined;
}

/** `/api/1/<register>[/<key>]` (company in the query) or `/api/<compcode>/<register>[/<key>]` (in the path). */
export function restPath(company: CompanyOptions, register?: string, keyParts?: readonly string[]): string {
  const segment = company.companyIn === 'path' ? (company.compcode ?? REST_VERSION_SEGMENT) : REST_VERSION_SEGMENT;
  let path = `/api/${encodeKeyPart(segment)}/`;
  if (register !== undefined) path += encodeKeyPart(register);
  if (keyParts && keyParts.length > 0) path += `/${keyParts.map(encodeKeyPart).join('/')}`;
  return path;
}

/** `compcode=N` when the company goes in the query (record-rest-api.md §4; its location is "not shown", rule 8). */
export function companyQuery(company: CompanyOptions): QueryPair[] {
  return company.companyIn === 'query' && company.compcode !== undefined ? [['compcode', company.compcode]] : [];
}

/**
 * Key parts in `@url` order (composite keys joined by `/`, record-rest-api.md §4 rule 11). An object key is
 * ordered by the register's key fields from the register catalogue.
 */
export function keyParts(register: string, key: RecordKey): string[] {
  if (typeof key === 'string' || typeof key === 'number') return [String(key)];
  if (Array.isArray(key)) return key.map(String);
  const named = key as Readonly<Record<string, string | number>>;
  const order = getRegister(register)?.key ?? Object.keys(named);
  return order.filter((f) => named[f] !== undefined).map((f) => String(named[f]));
}

/** List query pairs in the order given; `fields` arrays are joined with commas, undefined values dropped. */
export function listQueryPairs(query: RestListQuery = {}): QueryPair[] {
  const out: QueryPair[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    out.push([k, Array.isArray(v) ? v.join(',') : String(v)]);
  }
  return out;
}

function formPair(name: string, value: string): string {
  return `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
}

/**
 * The form body of a create or update: `set_field.<Field>=<value>` for the header and
 * `set_row_field.<N>.<Field>=<value>` for row N, 0-based (record-rest-api.md §4). Sent as UTF-8.
 */
export function formBody(header: RestFields<string> = {}, rows: readonly RestRowFields[] = []): string {
  const parts: string[] = [];
  for (const [f, v] of Object.entries(header)) if (v !== undefined) parts.push(formPair(`set_field.${f}`, v));
  rows.forEach((row, n) => {
    for (const [f, v] of Object.entries(row)) if (v !== undefined) parts.push(formPair(`set_row_field.${n}.${f}`, v));
  });
  return parts.join('&');
}
