import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { rangeableValues, resolveFilters, resolveRange } from './arbitraries.js';
import type { AnyRecord } from './records.js';

const records: AnyRecord[] = [
  { Code: 'A', Name: 'Ann', Group: 'x:y' },
  { Code: 'B', Name: '', Group: 'g' },
];

describe('resolveRange', () => {
  test.prop([
    fc.constantFrom('from:to', 'from:', 'exact' as const),
    fc.nat(),
    fc.nat(),
    fc.uniqueArray(fc.string(), { minLength: 1 }),
  ])('picks values of the list, from never after to', (form, a, b, values) => {
    const range = resolveRange({ form, a, b }, values)!;
    if (range.form === 'from:to') expect(values.indexOf(range.from)).toBeLessThanOrEqual(values.indexOf(range.to));
    else if (range.form === 'from:') expect(values).toContain(range.from);
    else expect(values).toContain(range.value);
  });

  it('is undefined without values', () => {
    expect(resolveRange({ form: 'exact', a: 0, b: 0 }, [])).toBeUndefined();
  });
});

describe('rangeableValues', () => {
  it('keeps distinct, non-empty values without a colon, in order', () => {
    const sorted = [{ F: 'b' }, { F: 'b' }, { F: '' }, { F: 'a:1' }, { F: 'c' }];
    expect(rangeableValues(sorted, 'F')).toEqual(['b', 'c']);
  });
});

describe('resolveFilters', () => {
  it('copies the values of one record', () => {
    expect(resolveFilters({ record: 2, fields: [0, 1], mutation: null }, records, ['Code', 'Name'])).toEqual([
      ['Code', 'A'],
      ['Name', 'Ann'],
    ]);
  });

  it.each([
    ['prefix', 'An'],
    ['suffix', 'AnnZ'],
    ['case', 'ann'],
  ] as const)('changes the first value by %s', (mutation, want) => {
    expect(resolveFilters({ record: 0, fields: [1], mutation }, records, ['Code', 'Name'])).toEqual([['Name', want]]);
  });
});
