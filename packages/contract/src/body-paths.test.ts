import { describe, expect, it } from 'vitest';
import { BodyPathPatternError, blameOf, compileCoverPattern, coverIndex } from './body-paths.js';

describe('compileCoverPattern', () => {
  it.each([
    ['portal-list:data/IVVc/*', 'portal-list:data/IVVc/Sum4', true],
    ['portal-list:data/IVVc/*', 'portal-list:data/IVVc/rows/row', false],
    ['portal-list:data/@*', 'portal-list:data/@count', true],
    ['portal-list:data/@*', 'portal-list:data/IVVc', false],
    ['*Envelope:data/*/@url', 'IVVcEnvelope:data/IVVc/@url', true],
    ['*Envelope:data/*/@url', 'rest-envelope:data/IVVc/@url', false],
    ['rest-envelope:data/IVVc/**', 'rest-envelope:data/IVVc/rows/row/stp', true],
    ['rest-envelope:data/IVVc/**', 'rest-envelope:data/IVVc', false],
    ['portal-login:**', 'portal-login:data', true],
    ['a:x/**/z', 'a:x/z', true],
    ['a:x/**/z', 'a:x/y/w/z', true],
  ] as const)('%s matches %s: %s', (pattern, path, want) => {
    expect(compileCoverPattern(pattern).test(path)).toBe(want);
  });

  it.each(['no-colon', ':data', 'a:x/a**', 'a:x//y', 'a b:x'])('refuses %s', (bad) => {
    expect(() => compileCoverPattern(bad)).toThrow(BodyPathPatternError);
  });

  it('reads a trailing #value as the value aspect and #null as the null aspect', () => {
    expect(compileCoverPattern('a:x/y#value').aspect).toBe('value');
    expect(compileCoverPattern('a:x/y#null').aspect).toBe('null');
    expect(compileCoverPattern('a:x/y#null').test('a:x/y')).toBe(true);
    expect(compileCoverPattern('a:x/y').aspect).toBe('element');
  });
});

describe('coverIndex and blameOf', () => {
  const index = coverIndex([
    { id: 'CONTAINER', covers: ['b:data', 'b:data/@*', 'b:data/*'] },
    { id: 'FIELDS', covers: ['b:data/R/*'] },
    { id: 'STRINGS', covers: ['b:data/*/*#value'] },
    { id: 'CODES', covers: ['b:data/R/code#value'] },
    { id: 'OTHER', covers: ['b:data/R/*'] },
  ]);

  it('gives a path to its most specific pattern and reports a tie of two rules', () => {
    expect(index.owners('b:data/@count').element).toBe('CONTAINER');
    expect(index.owners('b:data/R').element).toBe('CONTAINER');
    expect(index.owners('b:data/R/name').ties).toEqual(['FIELDS', 'OTHER']);
  });

  it('blames a wrong value on the value owner and a missing element on the element owner', () => {
    const clean = coverIndex([
      { id: 'CONTAINER', covers: ['b:data', 'b:data/*'] },
      { id: 'FIELDS', covers: ['b:data/R/*'] },
      { id: 'STRINGS', covers: ['b:data/*/*#value'] },
      { id: 'CODES', covers: ['b:data/R/code#value'] },
    ]);
    expect(blameOf(clean, 'b:data/R/name', 'element')).toBe('FIELDS');
    // FIELDS (1 wildcard) is more specific than STRINGS (2): it keeps the value of its field
    expect(blameOf(clean, 'b:data/R/name', 'value')).toBe('FIELDS');
    expect(blameOf(clean, 'b:data/Q/name', 'value')).toBe('STRINGS');
    expect(blameOf(clean, 'b:data/R/code', 'value')).toBe('CODES');
    expect(blameOf(clean, 'b:data/R/code', 'element')).toBe('FIELDS');
    // an undocumented child goes to the nearest owned ancestor
    expect(blameOf(clean, 'b:data/Q/x/y', 'element')).toBe('CONTAINER');
    expect(blameOf(clean, 'c:data', 'element')).toBeUndefined();
  });
});
