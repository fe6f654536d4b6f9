import { describe, expect, it } from 'vitest';
import { escapeText, evidenceText, Html, href, html, SHOWN_CHARS } from './html.js';

describe('html, the one escaping helper', () => {
  const cases: [string, unknown, string][] = [
    ['a script tag', '<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['an attribute breakout', '"><img src=x onerror=alert(1)>', '&quot;&gt;&lt;img src=x onerror=alert(1)&gt;'],
    ['single quotes and ampersands', "a'b&c", 'a&apos;b&amp;c'],
    ['a number', 42, '42'],
    ['null', null, ''],
    ['a list', ['<a>', 1], '&lt;a&gt;1'],
    // objects shaped like another library's "already escaped" string stay text
    ['an object claiming to be escaped', { isEscaped: true, toString: () => '<b>' }, '&lt;b&gt;'],
    ['an object with a text field', { text: '<b>' }, '[object Object]'],
    // Html's prototype does not make markup: only html's own objects carry its brand
    [
      'an object given the prototype of Html',
      Object.assign(Object.create(Html.prototype), { text: '<b>', toString: () => '<b>' }),
      '&lt;b&gt;',
    ],
  ];
  it.each(cases)('escapes %s', (_name, value, want) => {
    expect(html`<p title="${value as string}">${value as string}</p>`.text).toBe(`<p title="${want}">${want}</p>`);
  });

  it('keeps markup made by html itself', () => {
    const inner = html`<em>${'<x>'}</em>`;
    expect(html`<p>${inner}</p>`.text).toBe('<p><em>&lt;x&gt;</em></p>');
  });

  it('escapes what escapeText is given, for text and double-quoted attributes', () => {
    expect(escapeText(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&apos;');
  });
});

describe('href', () => {
  const cases: [string, (string | number)[], Record<string, string | undefined>, string][] = [
    ['a run', ['runs', 12], {}, '/runs/12'],
    ['a rule id with a slash and a query', ['runs', 1, 'rules', 'A/B?c=d#e'], {}, '/runs/1/rules/A%2FB%3Fc%3Dd%23e'],
    ['a javascript: segment', ['javascript:alert(1)'], {}, '/javascript%3Aalert(1)'],
    ['a protocol-relative try', ['', 'evil.example.com'], {}, '//evil.example.com'],
    ['query values, empty ones left out', ['compare'], { a: '1&b=2', b: '', c: undefined }, '/compare?a=1%26b%3D2'],
  ];
  it.each(cases)('builds %s', (_name, segments, query, want) => {
    expect(href(segments, query)).toBe(want);
  });
});

describe('evidenceText', () => {
  it('shows control and direction characters as \\u escapes', () => {
    expect(evidenceText('PK\u0003\u0004\u001b[31m\u202e!')).toBe('PK\\u0003\\u0004\\u001b[31m\\u202e!');
  });
  it('keeps newlines and tabs', () => {
    expect(evidenceText('a\n\tb')).toBe('a\n\tb');
  });
  it('cuts an over-long value and says how much is left out', () => {
    const shown = evidenceText('x'.repeat(SHOWN_CHARS + 5));
    expect(shown.startsWith('x'.repeat(SHOWN_CHARS))).toBe(true);
    expect(shown).toMatch(/5 more characters/);
  });
});
