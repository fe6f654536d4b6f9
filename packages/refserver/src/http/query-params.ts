import { badParameter, ErpError, ErrorCode } from '../errors.js';
import { outputFields, type RegisterSchema } from '../schema/register-schema.js';
import type { DeletesQuery, ListQuery, RangeSpec } from '../store/record-query.js';

/** The parsed query of a GET (record-rest-api.md §4 "Query parameters"). */
export interface ParsedListParams {
  readonly list: ListQuery;
  /** Set when `deletes_after` asks for deletions instead of records. */
  readonly deletes?: DeletesQuery;
  /** `fieldmode=nonblank|all` (ours; docs §4 rule 7 says the selecting parameter is not shown). */
  readonly nonBlank?: boolean;
}

const unknownField = (param: string, field: string, schema: RegisterSchema) =>
  new ErpError(400, ErrorCode.unknownField, `${param}: ${schema.name} has no field "${field}"`, { field });

/** The single value of a parameter; a parameter given twice with different values is refused. */
function single(q: URLSearchParams, name: string): string | undefined {
  const all = q.getAll(name);
  if (all.length > 1 && new Set(all).size > 1) throw badParameter(`${name} is given ${all.length} times`, name);
  return all[0];
}

/** A whole number >= 0 (limit, offset, updates_after, deletes_after). */
function count(q: URLSearchParams, name: string): number | undefined {
  const v = single(q, name);
  if (v === undefined) return undefined;
  if (!/^\d{1,15}$/.test(v)) throw badParameter(`${name} must be a whole number from 0, got "${v}"`, name);
  return Number(v);
}

/** `from:to` (inclusive), `from:` (onwards) or `value` (exact); docs §4 "range". */
export function parseRange(text: string): RangeSpec {
  const parts = text.split(':');
  if (parts.length === 1) return { exact: text };
  if (parts.length > 2 || parts[0] === '')
    throw badParameter(`range must be from:to, from: or one value, got "${text}"`, 'range');
  return parts[1] === '' ? { from: parts[0]! } : { from: parts[0]!, to: parts[1]! };
}

/**
 * Checks and parses the query parameters of a list GET against the register: unknown fields in
 * `fields`, `sort` and `filter.*`, malformed numbers, `range` without `sort` or with two colons
 * all answer 400 with what is wrong. Parameters the docs do not name are ignored.
 */
export function parseListParams(schema: RegisterSchema, q: URLSearchParams): ParsedListParams {
  const header = new Set(outputFields(schema));
  const rows = new Set(schema.rowFields);
  const select = (() => {
    const v = single(q, 'fields');
    if (v === undefined) return undefined;
    const names = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (names.length === 0) throw badParameter('fields names no field', 'fields');
    for (const n of names) if (!header.has(n) && !rows.has(n) && n !== 'rows') throw unknownField('fields', n, schema);
    return names;
  })();
  const sort = single(q, 'sort');
  if (sort !== undefined && !header.has(sort)) {
    if (rows.has(sort)) throw badParameter(`sort: ${sort} is a row field; sort takes a header field`, 'sort');
    throw unknownField('sort', sort, schema);
  }
  const rangeText = single(q, 'range');
  if (rangeText !== undefined && sort === undefined)
    throw badParameter('range requires sort (record-rest-api.md §4)', 'range');
  const range = rangeText === undefined ? undefined : parseRange(rangeText);
  const filters: [string, string][] = [];
  for (const [name, value] of q) {
    if (!name.startsWith('filter.')) continue;
    const field = name.slice('filter.'.length);
    if (!header.has(field)) {
      if (rows.has(field)) throw badParameter(`filter.${field}: filters take header fields`, name);
      throw unknownField(name, field, schema);
    }
    const filterable = schema.behaviour?.filters;
    if (filterable && !filterable.includes(field))
      throw badParameter(
        `filter.${field}: ${schema.name} filters on ${filterable.length > 0 ? filterable.join(', ') : 'no field'} only`,
        name,
      );
    filters.push([field, value]);
  }
  const limit = count(q, 'limit');
  const offset = count(q, 'offset');
  const updatesAfter = count(q, 'updates_after');
  const deletesAfter = count(q, 'deletes_after');
  const mode = single(q, 'fieldmode');
  if (mode !== undefined && mode !== 'all' && mode !== 'nonblank')
    throw badParameter(`fieldmode must be all or nonblank, got "${mode}"`, 'fieldmode');
  const feeds = schema.behaviour?.feeds ?? (schema.base ? ['updates_after', 'deletes_after'] : []);
  const missingFeed = (
    [
      ['updates_after', updatesAfter],
      ['deletes_after', deletesAfter],
    ] as const
  ).find(([feed, v]) => v !== undefined && !feeds.includes(feed))?.[0];
  if (missingFeed) {
    // the plain-text 404 of live servers on a register without a synchronisation index (issues 10 and 21)
    throw new ErpError(
      404,
      ErrorCode.notFound,
      `${missingFeed} is not supported for this register (${schema.name}): it has no synchronization index. ` +
        `To read its changes with ${missingFeed}, add a synchronization index to ${schema.name} in the ERP's ` +
        'register settings, then read it once in full (record-rest-api.md §4).',
      { plainText: true },
    );
  }
  const list: ListQuery = {
    ...(select ? { select } : {}),
    ...(sort !== undefined ? { sort } : {}),
    ...(range ? { range } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(offset !== undefined ? { offset } : {}),
    ...(updatesAfter !== undefined ? { updatesAfter } : {}),
    filters,
  };
  const nonBlank = mode === undefined ? undefined : mode === 'nonblank';
  if (deletesAfter === undefined) return { list, ...(nonBlank !== undefined ? { nonBlank } : {}) };
  const keys = new Set(schema.key);
  for (const [f] of filters)
    if (!keys.has(f)) throw badParameter(`filter.${f}: deletes_after lists deleted keys; filter key fields only`, f);
  if (sort !== undefined && !keys.has(sort))
    throw badParameter(`sort: deletes_after lists deleted keys; sort by a key field`, 'sort');
  const deletes: DeletesQuery = {
    after: deletesAfter,
    ...(updatesAfter !== undefined ? { updatesAfter } : {}),
    ...(sort !== undefined ? { sort } : {}),
    ...(range ? { range } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(offset !== undefined ? { offset } : {}),
    filters,
  };
  return { list, deletes, ...(nonBlank !== undefined ? { nonBlank } : {}) };
}

/** `fieldmode` of a write's response; writes answer with non-blank fields by default (DESIGN.md). */
export function parseFieldMode(q: URLSearchParams, dflt: 'all' | 'nonblank'): boolean {
  const mode = single(q, 'fieldmode') ?? dflt;
  if (mode !== 'all' && mode !== 'nonblank')
    throw badParameter(`fieldmode must be all or nonblank, got "${mode}"`, 'fieldmode');
  return mode === 'nonblank';
}
