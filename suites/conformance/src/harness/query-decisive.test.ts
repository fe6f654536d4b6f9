import { describe, expect, it } from 'vitest';
import { combinationSeparates, parameterSeparates, type QueryParameter } from './query-decisive.js';
import type { QuerySpec } from './query-model.js';

// three contacts of a small register: Code ascending, Name not, City the same in two of them
const all = [
  { '@url': '/api/1/CUVc/A', Code: 'A', Name: 'Zeta', City: 'Riga' },
  { '@url': '/api/1/CUVc/B', Code: 'B', Name: 'Alpha', City: 'Riga' },
  { '@url': '/api/1/CUVc/C', Code: 'C', Name: 'Mu', City: 'Tartu' },
];
const byName = [all[1]!, all[2]!, all[0]!];

describe('parameterSeparates: does a server ignoring the parameter answer otherwise?', () => {
  it.each<[string, QueryParameter, QuerySpec, boolean]>([
    ['a filter some records fail', 'filter', { filters: [['City', 'Riga']] }, true],
    ['a filter matching one record', 'filter', { filters: [['Code', 'A']] }, true],
    ['a filter matching nobody (a cut value)', 'filter', { filters: [['City', 'Rig']] }, true],
    [
      'filters that one record matches only in part',
      'filterAnd',
      {
        filters: [
          ['City', 'Riga'],
          ['Name', 'Alpha'],
        ],
      },
      true,
    ],
    ['a single filter cannot show AND', 'filterAnd', { filters: [['City', 'Riga']] }, false],
    ['sort by a field the unsorted read already ascends', 'sort', { sort: 'Code' }, false],
    ['sort by a field the unsorted read does not ascend', 'sort', { sort: 'Name' }, true],
    ['a limit below the register size', 'limit', { limit: 2 }, true],
    ['a limit at the register size', 'limit', { limit: 3 }, false],
    ['an offset that skips a record', 'offset', { sort: 'Name', offset: 1 }, true],
    ['an offset of 0', 'offset', { sort: 'Name', offset: 0 }, false],
    ['pages smaller than the register', 'paging', { limit: 2 }, true],
    ['one page holding everything', 'paging', { limit: 3 }, false],
    ['fields leaving fields out', 'fields', { fields: ['Code'] }, true],
    ['fields naming every field', 'fields', { fields: ['Code', 'Name', 'City'] }, false],
    ['a range leaving a record out', 'range', { sort: 'Name', range: { form: 'from:', from: 'Mu' } }, true],
    ['a range over every record', 'range', { sort: 'Name', range: { form: 'from:', from: 'Alpha' } }, false],
  ])('%s: %s', (_name, parameter, spec, want) => {
    const got = parameterSeparates('CUVc', parameter, spec, all, byName);
    expect(got.decisive).toBe(want);
    if (!want) expect(got.missing).toEqual(expect.any(String));
  });

  it('a filter every record passes is told apart from one that separates', () => {
    const everyone = parameterSeparates('CUVc', 'filter', { filters: [['City', 'Riga']] }, all.slice(0, 2), undefined);
    expect(everyone).toEqual({ decisive: false, missing: expect.stringContaining('passes the filters') });
  });

  it('a combination separates when two of its parameters each change the answer', () => {
    expect(
      combinationSeparates('CUVc', { filters: [['City', 'Riga']], sort: 'Name', limit: 1 }, all, byName).decisive,
    ).toBe(true);
    expect(combinationSeparates('CUVc', { sort: 'Code', limit: 3 }, all, all).decisive).toBe(false);
  });
});
