import { describe, expect, it } from 'vitest';
import { deleteRowsBlame } from './deleterow-blame.js';

const rows = ['a', 'b', 'c', 'd'];

describe('deleteRowsBlame: the count apart from the identity', () => {
  it.each<[string, string[], number[], string | undefined]>([
    ['exactly the listed rows went, in order', ['a', 'c'], [2, 4], undefined],
    ['the listed row went and the next one too', ['a', 'd'], [2], 'PORTAL.ROWS.DELETEROW_REMOVES'],
    ['the listed row went and the one before', ['c', 'd'], [2], 'PORTAL.ROWS.DELETEROW_REMOVES'],
    ['the listed rows went, the others reordered', ['d', 'a'], [2, 3], 'PORTAL.ROWS.DELETEROW_REMOVES'],
    ['nothing went', ['a', 'b', 'c', 'd'], [2], 'PORTAL.ROWS.DELETEROW_REMOVES'],
    // read from 0, the number of the last row names no row: nothing going is no sign of that reading
    ['nothing went, the last row listed', ['a', 'b', 'c', 'd'], [4], 'PORTAL.ROWS.DELETEROW_REMOVES'],
    ['nothing went, the last two rows listed', ['a', 'b', 'c', 'd'], [3, 4], 'PORTAL.ROWS.DELETEROW_REMOVES'],
    ['the numbers read from 0', ['a', 'b', 'd'], [2], 'PORTAL.ROWS.DELETEROW_ROWS_1_BASED'],
    ['the numbers read from 0, two of them', ['a', 'c'], [1, 3], 'PORTAL.ROWS.DELETEROW_ROWS_1_BASED'],
    ['as many went as listed, other ones', ['b', 'c', 'd'], [4], 'PORTAL.ROWS.DELETEROW_ROWS_1_BASED'],
  ])('%s', (_name, after, remove, rule) => {
    expect(deleteRowsBlame(rows, after, remove, 'deleterow')?.rule).toBe(rule);
  });

  it('says what it saw', () => {
    expect(deleteRowsBlame(rows, ['a', 'd'], [2], 'deleterow id=7:2')?.detail).toBe(
      'deleterow id=7:2 on 4 rows ["a","b","c","d"] left ["a","d"]; removing rows 2 (1-based) leaves ["a","c","d"]: the listed rows went (the numbering held), and 1 more',
    );
  });
});
