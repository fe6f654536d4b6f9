import { describe, expect, it } from 'vitest';
import { namePatternFor, rulesInName } from './rule-tags.js';

describe('rulesInName', () => {
  it.each([
    ['[REST.QUERY.SORT_ASC] sort is ascending', ['REST.QUERY.SORT_ASC']],
    [
      '[REST.QUERY.RANGE_INCLUSIVE, REST.QUERY.RANGE_NEEDS_SORT] range',
      ['REST.QUERY.RANGE_INCLUSIVE', 'REST.QUERY.RANGE_NEEDS_SORT'],
    ],
    ['  [portal.lookup.cap50]  lower case is read', ['PORTAL.LOOKUP.CAP50']],
    ['[REST.SEQ.RAISED REST.SEQ.RAISED] duplicates once', ['REST.SEQ.RAISED']],
    ['no prefix [REST.QUERY.SORT_ASC] later in the name', []],
    ['[] empty prefix', []],
    ['[not an id] prefix without ids', []],
    ['plain name', []],
  ])('%s', (name, want) => {
    expect(rulesInName(name)).toEqual(want);
  });
});

describe('namePatternFor', () => {
  const pattern = namePatternFor(['REST.QUERY.SORT_ASC', 'PORTAL.LOOKUP.CAP50']);
  it.each([
    ['rest query [REST.QUERY.SORT_ASC] ascending', true],
    ['area [REST.QUERY.FILTER_AND, PORTAL.LOOKUP.CAP50] both', true],
    ['area [rest.query.sort_asc] lower case', true],
    ['area [REST.QUERY.SORT_ASC_EXTRA] a longer id', false],
    ['area [XREST.QUERY.SORT_ASC] a longer id in front', false],
    ['area [REST.QUERY.FILTER_AND] another rule', false],
    ['area untagged test', true],
  ])('%s -> %s', (fullName, want) => {
    expect(pattern.test(fullName)).toBe(want);
  });

  it('selects nothing for an empty selection', () => {
    expect(namePatternFor([]).test('[REST.QUERY.SORT_ASC] x')).toBe(false);
    expect(namePatternFor([]).test('untagged')).toBe(false);
  });
});
