/**
 * fast-check arbitraries of the REST query space (record-rest-api.md §4 "Query parameters"). Data-bound
 * choices (which record a filter copies its values from, which values bound a range) are generated as
 * indices and resolved against the target's data in the predicate ({@link resolveFilters},
 * {@link resolveRange}), so that shrinking works on small numbers and no data is assumed up front.
 */
import fc from 'fast-check';
import type { RangeSpec } from './query-model.js';
import { type AnyRecord, fieldValue } from './records.js';

/** One of the given register names. */
export function registerName(names: readonly string[]): fc.Arbitrary<string> {
  if (names.length === 0) throw new RangeError('registerName: no register to choose from');
  return fc.constantFrom(...names);
}

/** A non-empty subset of `fields`, in their order. */
export function fieldSubset(fields: readonly string[], maxLength = 4): fc.Arbitrary<string[]> {
  return fc.subarray([...fields], { minLength: 1, maxLength: Math.min(maxLength, fields.length) });
}

/** One field to sort by. */
export function sortField(fields: readonly string[]): fc.Arbitrary<string> {
  return fc.constantFrom(...fields);
}

/** How a filter value is changed to test exactness: cut, extended, or in other letter case. */
export type Mutation = 'prefix' | 'suffix' | 'case';

/** A filter combination: the record whose values it copies, which of its fields, and maybe a changed value. */
export interface FilterChoice {
  readonly record: number;
  readonly fields: readonly number[];
  readonly mutation: Mutation | null;
}

/** 1 to `max` filters copied from one record, sometimes with the first value changed. */
export function filterChoice(max = 3): fc.Arbitrary<FilterChoice> {
  return fc.record({
    record: fc.nat(),
    fields: fc.uniqueArray(fc.nat({ max: 63 }), { minLength: 1, maxLength: max }),
    mutation: fc.option(fc.constantFrom<Mutation>('prefix', 'suffix', 'case'), { nil: null, freq: 3 }),
  });
}

function mutate(value: string, how: Mutation): string {
  if (how === 'prefix') return value.length > 1 ? value.slice(0, -1) : `${value}X`;
  if (how === 'suffix') return `${value}Z`;
  const swapped = value.toLowerCase() === value ? value.toUpperCase() : value.toLowerCase();
  return swapped === value ? `${value}z` : swapped;
}

/**
 * The filters of a choice over `records` and the filterable `fields`: the values of one real record
 * (so the combination matches at least that one), the first changed when the choice says so.
 */
export function resolveFilters(
  choice: FilterChoice,
  records: readonly AnyRecord[],
  fields: readonly string[],
): [string, string][] {
  if (records.length === 0 || fields.length === 0) return [];
  const record = records[choice.record % records.length]!;
  const names = [...new Set(choice.fields.map((i) => fields[i % fields.length]!))];
  return names.map((f, i) => {
    const v = fieldValue(record, f);
    return [f, i === 0 && choice.mutation ? mutate(v, choice.mutation) : v];
  });
}

/** A range choice: its form and two positions among the distinct values of the sort field. */
export interface RangeChoice {
  readonly form: RangeSpec['form'];
  readonly a: number;
  readonly b: number;
}

/** One of the three range forms with two value positions. */
export function rangeChoice(): fc.Arbitrary<RangeChoice> {
  return fc.record({
    form: fc.constantFrom<RangeSpec['form']>('from:to', 'from:', 'exact'),
    a: fc.nat(),
    b: fc.nat(),
  });
}

/**
 * The distinct values of a field in the server's sort order that can bound a range: not empty and without
 * `:` (the range separator, §4).
 */
export function rangeableValues(sorted: readonly AnyRecord[], field: string): string[] {
  const out: string[] = [];
  for (const r of sorted) {
    const v = fieldValue(r, field);
    if (v !== '' && !v.includes(':') && out[out.length - 1] !== v && !out.includes(v)) out.push(v);
  }
  return out;
}

/** The range of a choice over the sorted distinct values (`from` never after `to`); undefined without values. */
export function resolveRange(choice: RangeChoice, values: readonly string[]): RangeSpec | undefined {
  if (values.length === 0) return undefined;
  const i = choice.a % values.length;
  const j = choice.b % values.length;
  if (choice.form === 'exact') return { form: 'exact', value: values[i]! };
  if (choice.form === 'from:') return { form: 'from:', from: values[i]! };
  return { form: 'from:to', from: values[Math.min(i, j)]!, to: values[Math.max(i, j)]! };
}

/** An `offset` and a `limit` around a result of `size` records (past the end included). */
export function offsetLimit(size: number): fc.Arbitrary<{ offset: number; limit: number }> {
  return fc.record({ offset: fc.nat({ max: size + 2 }), limit: fc.integer({ min: 1, max: Math.max(1, size + 2) }) });
}

/** A page size for walking a result of `size` records in pages. */
export function pageSize(size: number): fc.Arbitrary<number> {
  return fc.integer({ min: 1, max: Math.max(1, Math.min(size + 1, 50)) });
}

/** A list parameter whose value does not fit its documented type (§4 "Query parameters"). */
export interface MalformedParameter {
  readonly name: string;
  readonly value: string;
}

/** Malformed list parameters: `limit`/`offset`/`updates_after` that are not integers, `range` without `sort`. */
export function malformedListParameter(): fc.Arbitrary<MalformedParameter> {
  const notInteger = fc.oneof(
    fc.constantFrom('abc', '1.5', '', ' ', '-', '1e3x', '0x10'),
    fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !/^\s*-?\d+\s*$/.test(s)),
  );
  return fc.oneof(
    fc.record({ name: fc.constantFrom('limit', 'offset', 'updates_after', 'deletes_after'), value: notInteger }),
    fc.record({ name: fc.constant('range'), value: fc.constantFrom('a:b', '1:', 'x') }),
  );
}
