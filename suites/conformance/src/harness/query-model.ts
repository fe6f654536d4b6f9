/**
 * The model of a list query (record-rest-api.md §4 "Query parameters"), computed from unfiltered reads of
 * the same register: `filter.*` exact and ANDed, `range` inclusive in its three forms over the server's own
 * `sort` order, `sort` ascending, `fields` projecting, `offset`/`limit` slicing. {@link compareWithModel}
 * says how an answer differs from the model.
 */
import { type AnyRecord, fieldValue, identityOf, isMetaMember, type ListQuery } from './records.js';
import { show } from './violation.js';

/** A `range` in one of its three forms (§4 "Query parameters": `from:to`, `from:`, `value`). */
export type RangeSpec =
  | { readonly form: 'from:to'; readonly from: string; readonly to: string }
  | { readonly form: 'from:'; readonly from: string }
  | { readonly form: 'exact'; readonly value: string };

/** A list query in the model's terms. */
export interface QuerySpec {
  readonly filters?: readonly (readonly [field: string, value: string])[];
  readonly sort?: string;
  readonly range?: RangeSpec;
  readonly fields?: readonly string[];
  readonly offset?: number;
  readonly limit?: number;
}

/** The `range` parameter of a spec. */
export function rangeParameter(range: RangeSpec): string {
  if (range.form === 'from:to') return `${range.from}:${range.to}`;
  if (range.form === 'from:') return `${range.from}:`;
  return range.value;
}

/** The list query of a spec. */
export function toListQuery(spec: QuerySpec): ListQuery {
  const q: Record<string, string | number> = {};
  for (const [f, v] of spec.filters ?? []) q[`filter.${f}`] = v;
  if (spec.sort !== undefined) q.sort = spec.sort;
  if (spec.range !== undefined) q.range = rangeParameter(spec.range);
  if (spec.fields !== undefined) q.fields = spec.fields.join(',');
  if (spec.offset !== undefined) q.offset = spec.offset;
  if (spec.limit !== undefined) q.limit = spec.limit;
  return q;
}

/** The query as it goes on the wire, for messages: `filter.Code=A&sort=Name`. */
export function describeQuery(spec: QuerySpec): string {
  return Object.entries(toListQuery(spec))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** Every filter matches exactly (§4: "exact value match. Several filters combine with AND"). */
export function matchesFilters(record: AnyRecord, filters: QuerySpec['filters']): boolean {
  return (filters ?? []).every(([f, v]) => fieldValue(record, f) === v);
}

/**
 * The identities of the records a range selects, read off the server's own order of `sorted` (every record
 * of the register, as `sort=<field>` returned them) taken ascending ({@link ascendingOrder}): `from:to` is
 * everything from the first record whose value is `from` through the last whose value is `to` (inclusive),
 * `from:` everything from the first `from` on, `value` the records equal to it. The range bounds are values
 * that exist in the data, so no collation of our own is assumed. A range selects by value, whichever
 * direction the server sorts in; an order that runs neither way is taken as it comes (the range properties
 * judge nothing then, see {@link ascendingOrder}).
 */
export function rangeMembers(register: string, sorted: readonly AnyRecord[], field: string, range: RangeSpec) {
  const ordered = ascendingOrder(sorted, field) ?? sorted;
  const values = ordered.map((r) => fieldValue(r, field));
  if (range.form === 'exact') {
    return new Set(ordered.filter((r) => fieldValue(r, field) === range.value).map((r) => identityOf(register, r)));
  }
  const lo = values.indexOf(range.from);
  const hi = range.form === 'from:to' ? values.lastIndexOf(range.to) : values.length - 1;
  if (lo < 0) return new Set<string>();
  return new Set(ordered.slice(lo, hi + 1).map((r) => identityOf(register, r)));
}

/** Comparators a server may sort text by; `sort` is ascending when one of them orders the values. */
const ORDERS: readonly ((a: string, b: string) => number)[] = [
  (a, b) => {
    const x = Number(a);
    const y = Number(b);
    if (a.trim() !== '' && b.trim() !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
    return a < b ? -1 : a > b ? 1 : 0;
  },
  (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  (a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' }),
];

/**
 * The values are in ascending order (§4: "field to sort by, ascending only"). The docs name no collation,
 * so the order is accepted when it is non-decreasing numerically (numbers), by code point, or by a
 * case-insensitive, digit-aware locale comparison; a descending or shuffled list fits none of them.
 */
export function isAscending(values: readonly string[]): boolean {
  return ORDERS.some((cmp) => values.every((v, i) => i === 0 || cmp(values[i - 1]!, v) <= 0));
}

/**
 * The server's `sort=<field>` answer read in ascending order: as it came when it is ascending
 * ({@link isAscending}), reversed when it runs descending, undefined when it runs neither way. Which records a
 * range selects is a matter of values, so the range checks read it off this order and stay independent of
 * the direction the server sorts in (SORT_ASCENDING judges the direction).
 */
export function ascendingOrder(sorted: readonly AnyRecord[], field: string): readonly AnyRecord[] | undefined {
  const values = sorted.map((r) => fieldValue(r, field));
  if (isAscending(values)) return sorted;
  const reversed = [...sorted].reverse();
  return isAscending(reversed.map((r) => fieldValue(r, field))) ? reversed : undefined;
}

/** One query parameter of a combination, asked alone (with `sort` where its meaning rests on an order). */
export interface SingleParameter {
  readonly parameter: 'filter' | 'range' | 'fields' | 'offset' | 'limit';
  readonly spec: QuerySpec;
}

/**
 * The parameters of a combined query, each as a query of its own: the filters together (they AND, §4),
 * `range`, `offset` and `limit` each with the `sort` they rest on, `fields` alone. `sort` alone is the
 * baseline's sorted read. A combination is judged only when each of these holds on its own
 * (REST.QUERY.COMBINABLE: "All query parameters can be combined", each keeping its meaning).
 */
export function singleParameters(spec: QuerySpec): SingleParameter[] {
  const out: SingleParameter[] = [];
  const sort = spec.sort !== undefined ? { sort: spec.sort } : {};
  if (spec.filters && spec.filters.length > 0) out.push({ parameter: 'filter', spec: { filters: spec.filters } });
  if (spec.range !== undefined && spec.sort !== undefined)
    out.push({ parameter: 'range', spec: { ...sort, range: spec.range } });
  if (spec.fields !== undefined) out.push({ parameter: 'fields', spec: { fields: spec.fields } });
  if (spec.offset !== undefined) out.push({ parameter: 'offset', spec: { ...sort, offset: spec.offset } });
  if (spec.limit !== undefined) out.push({ parameter: 'limit', spec: { ...sort, limit: spec.limit } });
  return out;
}

/** The records a query should return, before `offset`/`limit`, in the server's sort order when sorted. */
export function modelRecords(
  register: string,
  spec: QuerySpec,
  all: readonly AnyRecord[],
  sortedAll: readonly AnyRecord[] | undefined,
): AnyRecord[] {
  const base = spec.sort !== undefined && sortedAll ? sortedAll : all;
  let out = base.filter((r) => matchesFilters(r, spec.filters));
  if (spec.range !== undefined && spec.sort !== undefined && sortedAll) {
    const members = rangeMembers(register, sortedAll, spec.sort, spec.range);
    out = out.filter((r) => members.has(identityOf(register, r)));
  }
  return out;
}

function projectionProblem(actual: AnyRecord, fields: readonly string[], full: AnyRecord): string | undefined {
  const extra = Object.keys(actual).filter((k) => !isMetaMember(k) && !fields.includes(k));
  if (extra.length > 0) return `carries ${extra.join(', ')}, which fields=${fields.join(',')} did not name`;
  for (const f of fields)
    if (fieldValue(actual, f) !== fieldValue(full, f))
      return `${f} is ${show(actual[f] ?? '(absent)')}, the record holds ${show(fieldValue(full, f))}`;
  return undefined;
}

function contentProblem(actual: AnyRecord, full: AnyRecord): string | undefined {
  for (const k of new Set([...Object.keys(actual), ...Object.keys(full)])) {
    if (k === '@sequence') continue;
    const a = JSON.stringify(actual[k]);
    const b = JSON.stringify(full[k]);
    if (a !== b) return `${k} is ${a ?? '(absent)'} here and ${b ?? '(absent)'} in the unfiltered read`;
  }
  return undefined;
}

/**
 * How `actual` (the answer to `spec`) differs from the model built from `all` (every record, unfiltered)
 * and `sortedAll` (every record as `sort=<spec.sort>` returned them); undefined when it does not. With
 * `sort`, ties may come in any order: the answer must have the model's sort values position by position,
 * each record from the model's records of that value.
 */
export function compareWithModel(
  register: string,
  spec: QuerySpec,
  actual: readonly AnyRecord[],
  all: readonly AnyRecord[],
  sortedAll?: readonly AnyRecord[],
): string | undefined {
  const q = describeQuery(spec);
  const byId = new Map(all.map((r) => [identityOf(register, r), r]));
  const model = modelRecords(register, spec, all, sortedAll);
  const modelIds = new Set(model.map((r) => identityOf(register, r)));
  const offset = spec.offset ?? 0;
  const page = model.slice(offset, spec.limit === undefined ? undefined : offset + spec.limit);
  if (actual.length !== page.length)
    return `${q}: ${actual.length} record(s) returned, the model of the unfiltered read has ${page.length} (of ${model.length} before offset/limit)`;
  const seen = new Set<string>();
  for (const [i, rec] of actual.entries()) {
    const id = identityOf(register, rec);
    if (seen.has(id)) return `${q}: ${id} is returned twice`;
    seen.add(id);
    const full = byId.get(id);
    if (!full) return `${q}: ${id} is not a record of the unfiltered read`;
    if (!modelIds.has(id)) {
      const why = (spec.filters ?? []).find(([f, v]) => fieldValue(full, f) !== v);
      return `${q}: ${id} should not be returned${why ? ` (${why[0]} is ${show(fieldValue(full, why[0]))}, not ${show(why[1])})` : ' (outside the range)'}`;
    }
    const problem = spec.fields ? projectionProblem(rec, spec.fields, full) : contentProblem(rec, full);
    if (problem) return `${q}: ${id} ${problem}`;
    if (spec.sort !== undefined) {
      const want = fieldValue(page[i]!, spec.sort);
      const got = fieldValue(full, spec.sort);
      if (got !== want)
        return `${q}: position ${offset + i} holds ${id} with ${spec.sort}=${show(got)}, the sorted model has ${show(want)} there`;
    }
  }
  if (spec.offset === undefined && spec.limit === undefined) {
    const missing = model.find((r) => !seen.has(identityOf(register, r)));
    if (missing) return `${q}: ${identityOf(register, missing)} is missing`;
  }
  return undefined;
}
