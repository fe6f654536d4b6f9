import { describe, expect, it } from 'vitest';
import {
  ascendingOrder,
  compareWithModel,
  describeQuery,
  isAscending,
  type QuerySpec,
  rangeMembers,
  singleParameters,
} from './query-model.js';
import type { AnyRecord } from './records.js';

const rec = (code: string, name: string, group: string): AnyRecord => ({
  '@register': 'CUVc',
  '@sequence': '1',
  '@url': `/api/1/CUVc/${code}`,
  Code: code,
  Name: name,
  Group: group,
  rows: [],
});
// the server's order of sort=Group: ties (B, B) broken by code
const all = [rec('C1', 'Ann', 'B'), rec('C2', 'Bob', 'A'), rec('C3', 'Cid', 'B'), rec('C4', 'Dan', 'C')];
const byGroup = [all[1]!, all[0]!, all[2]!, all[3]!];
const codes = (rs: readonly AnyRecord[]) => rs.map((r) => r.Code);

describe('describeQuery', () => {
  it('writes the query as on the wire, filters first', () => {
    expect(
      describeQuery({
        filters: [['Group', 'B']],
        sort: 'Name',
        range: { form: 'from:', from: 'A' },
        offset: 1,
        limit: 2,
      }),
    ).toBe('filter.Group=B&sort=Name&range=A:&offset=1&limit=2');
  });
});

describe('rangeMembers over the server order', () => {
  it.each([
    [{ form: 'from:to', from: 'A', to: 'B' } as const, ['C2', 'C1', 'C3']],
    [{ form: 'from:to', from: 'B', to: 'B' } as const, ['C1', 'C3']],
    [{ form: 'from:', from: 'B' } as const, ['C1', 'C3', 'C4']],
    [{ form: 'exact', value: 'C' } as const, ['C4']],
    [{ form: 'exact', value: 'Z' } as const, []],
  ])('%j', (range, want) => {
    const ids = rangeMembers('CUVc', byGroup, 'Group', range);
    expect([...ids].sort()).toEqual(want.map((c) => `/api/1/CUVc/${c}`).sort());
  });
});

describe('rangeMembers whichever direction the server sorts in', () => {
  // a server sorting descending: the same range selects the same records (by value)
  const descending = [...byGroup].reverse();
  it.each([
    [{ form: 'from:to', from: 'A', to: 'B' } as const, ['C2', 'C1', 'C3']],
    [{ form: 'from:', from: 'B' } as const, ['C1', 'C3', 'C4']],
    [{ form: 'exact', value: 'B' } as const, ['C1', 'C3']],
  ])('%j', (range, want) => {
    const ids = rangeMembers('CUVc', descending, 'Group', range);
    expect([...ids].sort()).toEqual(want.map((c) => `/api/1/CUVc/${c}`).sort());
  });

  it('the model keeps the server order: a descending answer of the range agrees with it', () => {
    const spec: QuerySpec = { sort: 'Group', range: { form: 'from:', from: 'B' } };
    const answer = descending.filter((r) => r.Group !== 'A');
    expect(compareWithModel('CUVc', spec, answer, all, descending)).toBeUndefined();
    // and one that leaves out a record equal to "from" does not
    expect(compareWithModel('CUVc', spec, answer.slice(0, 2), all, descending)).toMatch(/record\(s\) returned/);
  });
});

describe('ascendingOrder', () => {
  it('keeps an ascending order, reverses a descending one, refuses a shuffled one', () => {
    expect(codes(ascendingOrder(byGroup, 'Group')!)).toEqual(['C2', 'C1', 'C3', 'C4']);
    expect(codes(ascendingOrder([...byGroup].reverse(), 'Group')!)).toEqual(['C2', 'C1', 'C3', 'C4']);
    expect(ascendingOrder([all[0]!, all[1]!, all[3]!], 'Group')).toBeUndefined(); // B, A, C
  });
});

describe('singleParameters', () => {
  it('asks each parameter of a combination alone, with the sort it rests on', () => {
    const spec: QuerySpec = {
      filters: [
        ['Group', 'B'],
        ['Name', 'Ann'],
      ],
      sort: 'Name',
      range: { form: 'from:', from: 'A' },
      fields: ['Code'],
      offset: 1,
      limit: 2,
    };
    expect(singleParameters(spec)).toEqual([
      { parameter: 'filter', spec: { filters: spec.filters } },
      { parameter: 'range', spec: { sort: 'Name', range: spec.range } },
      { parameter: 'fields', spec: { fields: ['Code'] } },
      { parameter: 'offset', spec: { sort: 'Name', offset: 1 } },
      { parameter: 'limit', spec: { sort: 'Name', limit: 2 } },
    ]);
  });

  it('has nothing to ask of sort alone (the sorted baseline is that answer)', () => {
    expect(singleParameters({ sort: 'Name' })).toEqual([]);
  });
});

describe('isAscending', () => {
  it.each([
    [['1', '2', '10'], true], // numeric
    [['a', 'B', 'c'], true], // case-insensitive
    [['2024-01-02', '2024-01-10'], true],
    [['10', '9'], true], // text order
    [['9', '10', '2'], false],
    [['b', 'a'], false],
    [[], true],
  ])('%j -> %s', (values, want) => {
    expect(isAscending(values)).toBe(want);
  });
});

describe('compareWithModel', () => {
  const cases: [string, QuerySpec, AnyRecord[], string | undefined][] = [
    ['exact filter answered right', { filters: [['Group', 'B']] }, [all[0]!, all[2]!], undefined],
    [
      'filters ORed instead of ANDed',
      {
        filters: [
          ['Group', 'B'],
          ['Name', 'Ann'],
        ],
      },
      [all[0]!, all[2]!],
      '2 record(s) returned',
    ],
    ['a record that does not match', { filters: [['Group', 'A']] }, [all[0]!], 'Group is "B", not "A"'],
    ['a record is missing', { filters: [['Group', 'B']] }, [all[0]!], '1 record(s) returned'],
    ['a duplicate', { filters: [['Group', 'B']] }, [all[0]!, all[0]!], 'returned twice'],
    ['sorted with ties in the other order', { sort: 'Group' }, [all[1]!, all[2]!, all[0]!, all[3]!], undefined],
    ['sorted wrongly', { sort: 'Group' }, [all[3]!, all[0]!, all[2]!, all[1]!], 'position 0 holds'],
    ['offset and limit inside a tie', { sort: 'Group', offset: 1, limit: 1 }, [all[2]!], undefined],
    ['offset ignored', { sort: 'Group', offset: 2 }, byGroup, '4 record(s) returned'],
    [
      'range from:to',
      { sort: 'Group', range: { form: 'from:to', from: 'A', to: 'B' } },
      byGroup.slice(0, 3),
      undefined,
    ],
    [
      'range applied exclusively',
      { sort: 'Group', range: { form: 'from:to', from: 'A', to: 'B' } },
      [all[1]!],
      '1 record(s) returned',
    ],
    ['fields projects', { fields: ['Name'] }, all.map((r) => ({ '@url': r['@url'], Name: r.Name })), undefined],
    ['fields ignored', { fields: ['Name'] }, all, 'carries Code, Group, which fields=Name did not name'],
    [
      'a changed value',
      {},
      [{ ...all[0]!, Name: 'X' }, ...all.slice(1)],
      'Name is "X" here and "Ann" in the unfiltered read',
    ],
  ];
  it.each(cases)('%s', (_label, spec, actual, problem) => {
    const result = compareWithModel('CUVc', spec, actual, all, spec.sort ? byGroup : undefined);
    if (problem === undefined) expect(result).toBeUndefined();
    else expect(result).toContain(problem);
  });

  it('without sort, limit and offset only bound the count and membership', () => {
    expect(compareWithModel('CUVc', { offset: 1, limit: 2 }, [all[3]!, all[0]!], all)).toBeUndefined();
    expect(codes([all[3]!, all[0]!])).toEqual(['C4', 'C1']);
  });
});
