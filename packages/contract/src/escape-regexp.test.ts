/**
 * The one regular-expression escaper's cases: those of every former copy (client mask.ts, the suite's rule-tags.ts,
 * contract body-paths.ts, the cli's masking e2e test).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeRegExp } from './escape-regexp.js';

describe('escapeRegExp', () => {
  it.each<[string, string]>([
    ['REST.QUERY.LIMIT', 'REST\\.QUERY\\.LIMIT'],
    ['p@ss wörd&"<x>', 'p@ss wörd&"<x>'],
    ['a*b+c?', 'a\\*b\\+c\\?'],
    ['^$', '\\^\\$'],
    ['{1}(x)|[y]', '\\{1\\}\\(x\\)\\|\\[y\\]'],
    ['back\\slash', 'back\\\\slash'],
    ['', ''],
  ])('%j -> %j', (given, want) => {
    expect(escapeRegExp(given)).toBe(want);
  });

  it('a pattern of the escaped text matches exactly the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ maxLength: 5 }), (s, other) => {
        const re = new RegExp(`^${escapeRegExp(s)}$`);
        expect(re.test(s)).toBe(true);
        expect(re.test(s + other)).toBe(other === '');
      }),
    );
  });
});
