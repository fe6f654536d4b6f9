import { describe, expect, it } from 'vitest';
import { editJson, editXml, type PathEdit } from './body-edit.js';

const list =
  '<?xml version="1.0"?><data count="2" page="1"><IVVc><SerNr>1</SerNr><Sum4>1.00</Sum4></IVVc><IVVc><SerNr>2</SerNr><Sum4/></IVVc></data>';

describe('editXml', () => {
  it.each([
    [
      'removes an element in every record',
      ['data', 'IVVc', 'Sum4'],
      { op: 'remove' } as const,
      '<?xml version="1.0"?><data count="2" page="1"><IVVc><SerNr>1</SerNr></IVVc><IVVc><SerNr>2</SerNr></IVVc></data>',
    ],
    [
      'removes an attribute',
      ['data', '@count'],
      { op: 'remove' } as const,
      '<?xml version="1.0"?><data page="1"><IVVc><SerNr>1</SerNr><Sum4>1.00</Sum4></IVVc><IVVc><SerNr>2</SerNr><Sum4/></IVVc></data>',
    ],
    [
      'renames an element',
      ['data', 'IVVc', 'SerNr'],
      { op: 'rename', to: 'SerNrX' } as const,
      '<?xml version="1.0"?><data count="2" page="1"><IVVc><SerNrX>1</SerNrX><Sum4>1.00</Sum4></IVVc><IVVc><SerNrX>2</SerNrX><Sum4/></IVVc></data>',
    ],
    [
      'renames an attribute',
      ['data', '@page'],
      { op: 'rename', to: 'pageX' } as const,
      '<?xml version="1.0"?><data count="2" pageX="1"><IVVc><SerNr>1</SerNr><Sum4>1.00</Sum4></IVVc><IVVc><SerNr>2</SerNr><Sum4/></IVVc></data>',
    ],
    [
      'replaces a value, a self-closing element included',
      ['data', 'IVVc', 'Sum4'],
      { op: 'value', value: () => 'x&y' } as const,
      '<?xml version="1.0"?><data count="2" page="1"><IVVc><SerNr>1</SerNr><Sum4>x&amp;y</Sum4></IVVc><IVVc><SerNr>2</SerNr><Sum4>x&amp;y</Sum4></IVVc></data>',
    ],
    [
      'replaces an attribute value',
      ['data', '@count'],
      { op: 'value', value: (o: unknown) => `${o}x` } as const,
      '<?xml version="1.0"?><data count="2x" page="1"><IVVc><SerNr>1</SerNr><Sum4>1.00</Sum4></IVVc><IVVc><SerNr>2</SerNr><Sum4/></IVVc></data>',
    ],
    ['leaves a body without the path alone', ['data', 'CUVc', 'Code'], { op: 'remove' } as const, list],
  ])('%s', (_name, steps, edit, want) => {
    expect(editXml(list, steps, edit)).toBe(want);
  });
  it('does not take a same-named element at another depth', () => {
    expect(editXml('<data><A><B>1</B><C><B>2</B></C></A></data>', ['data', 'A', 'B'], { op: 'remove' })).toBe(
      '<data><A><C><B>2</B></C></A></data>',
    );
  });
});

describe('editJson', () => {
  const env = JSON.stringify({
    data: { '@register': 'IVVc', IVVc: [{ SerNr: '1', rows: [{ stp: '1' }, { stp: '2' }] }] },
  });
  it.each<[string, string[], PathEdit, unknown]>([
    [
      'removes a member',
      ['data', '@register'],
      { op: 'remove' } as const,
      { data: { IVVc: [{ SerNr: '1', rows: [{ stp: '1' }, { stp: '2' }] }] } },
    ],
    [
      'replaces a value in every row',
      ['data', 'IVVc', 'rows', 'stp'],
      { op: 'value', value: () => 9 } as const,
      { data: { '@register': 'IVVc', IVVc: [{ SerNr: '1', rows: [{ stp: 9 }, { stp: 9 }] }] } },
    ],
    [
      'makes an array member itself null (whole), not each of its elements',
      ['data', 'IVVc', 'rows'],
      { op: 'value', value: () => null, whole: true } as const,
      { data: { '@register': 'IVVc', IVVc: [{ SerNr: '1', rows: null }] } },
    ],
    [
      'renames a member',
      ['data', 'IVVc', 'SerNr'],
      { op: 'rename', to: 'SerNrX' } as const,
      { data: { '@register': 'IVVc', IVVc: [{ rows: [{ stp: '1' }, { stp: '2' }], SerNrX: '1' }] } },
    ],
  ])('%s', (_name, steps, edit, want) => {
    expect(JSON.parse(editJson(env, steps, edit))).toEqual(want);
  });
  it('leaves a body that is not JSON, or lacks the path, as it is', () => {
    expect(editJson('<data/>', ['data'], { op: 'remove' })).toBe('<data/>');
    expect(editJson(env, ['data', 'nothing'], { op: 'remove' })).toBe(env);
  });
  it('makes an empty array null when whole (an element edit finds nothing to change there)', () => {
    const empty = JSON.stringify({ data: { GCVc: [{ SerNr: '1', rows: [] }] } });
    const toNull = { op: 'value', value: () => null } as const;
    expect(editJson(empty, ['data', 'GCVc', 'rows'], toNull)).toBe(empty);
    expect(JSON.parse(editJson(empty, ['data', 'GCVc', 'rows'], { ...toNull, whole: true }))).toEqual({
      data: { GCVc: [{ SerNr: '1', rows: null }] },
    });
  });
});
