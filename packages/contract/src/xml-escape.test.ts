/**
 * The one XML escaper's cases: those of every former copy (cli reports/junit.ts, refserver values/xml-escape.ts,
 * load/k6 lib/junit.ts, contract xsd-openapi-example.ts and xsd-rest-registers.ts, client mask.ts and
 * portal-bodies.ts, the self-test's body-edit.ts and mutants) and what XML 1.0 says of the rest; and the one
 * unescaper's, of every former copy (client xml-decode.ts, contract xsd-outline.ts, the suite's cleanup.ts, the
 * self-test's wire.ts, body-edit.ts and mutants-portal-writes.ts, the reference server's render-document.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeXml,
  escapeXmlAttribute,
  escapeXmlContent,
  hasForbiddenXmlChar,
  replaceForbiddenXmlChars,
  unescapeXml,
} from './xml-escape.js';
import { parseXml } from './xml-tree.js';

const R = '\uFFFD';

describe('escapeXml (element content and attribute values)', () => {
  it.each<[string, string, string]>([
    ['plain text is unchanged', 'CUVc 10001', 'CUVc 10001'],
    ['the empty string', '', ''],
    ['the five markup characters (cli junit)', 'a<b>&"c"\'', 'a&lt;b&gt;&amp;&quot;c&quot;&apos;'],
    ['an ampersand is escaped once, entities included', '&amp; &#10;', '&amp;amp; &amp;#10;'],
    ['a k6 threshold title', 'no dropped <iteration> & "rate"', 'no dropped &lt;iteration&gt; &amp; &quot;rate&quot;'],
    [
      'an XSD documentation text (xsd-rest-registers)',
      'key "Code" & <rows>',
      'key &quot;Code&quot; &amp; &lt;rows&gt;',
    ],
    [']]> cannot end a CDATA that is not there', 'x]]>y', 'x]]&gt;y'],
    ['C0 controls become U+FFFD (cli junit)', 'bell\u0007 and nul\u0000', `bell${R} and nul${R}`],
    ['VT, FF, U+001F (refserver) become U+FFFD', 'a\u000Bb\u000Cc\u001Fd', `a${R}b${R}c${R}d`],
    ['U+FFFE and U+FFFF become U+FFFD', 'a\uFFFEb\uFFFFc', `a${R}b${R}c`],
    ['tab, LF and CR stay (cli junit)', 'tab\tline\nok\r', 'tab\tline\nok\r'],
    [
      'a lone high surrogate becomes U+FFFD, a pair stays',
      'lone \uD800 surrogate, pair 😀',
      `lone ${R} surrogate, pair 😀`,
    ],
    ['a lone low surrogate becomes U+FFFD', 'x\uDC00y', `x${R}y`],
    ['a high surrogate at the end', 'x\uD83D', `x${R}`],
    ['a lone high surrogate before a pair', '\uD800\uD83D\uDE00', `${R}😀`],
    ['a pair then a lone low surrogate', '😀\uDE00', `😀${R}`],
    ['DEL and C1 controls are XML 1.0 characters', 'a\u007Fb\u0085c', 'a\u007Fb\u0085c'],
    ['non-ASCII letters stay', 'Tõnu Öö 東京', 'Tõnu Öö 東京'],
  ])('%s', (_, given, want) => {
    expect(escapeXml(given)).toBe(want);
  });
});

describe('escapeXmlAttribute (an attribute that keeps tabs and line breaks)', () => {
  it.each<[string, string, string]>([
    ['markup as escapeXml', `<"'&>`, '&lt;&quot;&apos;&amp;&gt;'],
    ['tab, LF and CR as character references (cli junit)', 'a\tb\nc\r\nd', 'a&#9;b&#10;c&#13;&#10;d'],
    ['forbidden characters become U+FFFD', 'a\u0001\uD800b', `a${R}${R}b`],
    ['plain text is unchanged', 'REST.QUERY.FILTER_AND: filters', 'REST.QUERY.FILTER_AND: filters'],
  ])('%s', (_, given, want) => {
    expect(escapeXmlAttribute(given)).toBe(want);
  });
});

describe('escapeXmlContent (element content the way most writers escape it)', () => {
  it.each<[string, string, string]>([
    ['&, < and > (client portal-bodies upload file name)', 'a&b<c>.txt', 'a&amp;b&lt;c&gt;.txt'],
    ['quotes stay', `it's "x"`, `it's "x"`],
    ['forbidden characters become U+FFFD', 'a\u0000b', `a${R}b`],
  ])('%s', (_, given, want) => {
    expect(escapeXmlContent(given)).toBe(want);
  });
});

describe('hasForbiddenXmlChar and replaceForbiddenXmlChars', () => {
  it.each<[string, string, boolean]>([
    ['a control character (refserver writes)', 'a\u0001b', true],
    ['NUL', '\u0000', true],
    ['BEL (portal texts)', 'bell\u0007', true],
    ['U+FFFF', 'x\uFFFF', true],
    ['a lone surrogate', 'x\uD800', true],
    ['tab, LF and CR', 'a\tb\nc\r', false],
    ['a surrogate pair', '😀', false],
    ['two pairs in a row', '😀😀', false],
    ['plain text', 'Tõnu', false],
  ])('%s', (_, given, want) => {
    expect(hasForbiddenXmlChar(given)).toBe(want);
    expect(replaceForbiddenXmlChars(given) === given).toBe(!want);
  });
});

describe('unescapeXml (text cut out of a body without a parser)', () => {
  it.each<[string, string, string]>([
    ['the five entities', '&lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;', `<b> & "c" 'd'`],
    ['one pass: an escaped entity stays an entity', '&amp;lt; &amp;amp;', '&lt; &amp;'],
    ['decimal and hexadecimal references', '&#10;&#x9;&#39;&#x1F600;', "\n\t'😀"],
    ['an entity XML does not predefine stays', '&nbsp;&amp;', '&nbsp;&'],
    ['a reference beyond U+10FFFF stays', '&#x110000;', '&#x110000;'],
    ['a lone ampersand and an unclosed reference stay', 'a & b &amp c', 'a & b &amp c'],
    ['plain text is unchanged', 'CUVc 10001', 'CUVc 10001'],
  ])('%s', (_, given, want) => {
    expect(unescapeXml(given)).toBe(want);
  });

  it('undoes escapeXml and escapeXmlAttribute of any text XML can carry', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        const want = replaceForbiddenXmlChars(s);
        expect(unescapeXml(escapeXml(s))).toBe(want);
        expect(unescapeXml(escapeXmlAttribute(s))).toBe(want);
        expect(unescapeXml(escapeXmlContent(s))).toBe(want);
      }),
    );
  });
});

describe('what a parser reads back', () => {
  /** Any UTF-16 text, lone surrogates and controls included. */
  const anyText = fc.string({ unit: 'binary', maxLength: 40 });

  it('escapeXml in content and escapeXmlAttribute in an attribute read back as the text, forbidden characters as U+FFFD', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const root = parseXml(`<a x="${escapeXmlAttribute(s)}" y='${escapeXmlAttribute(s)}'>${escapeXml(s)}</a>`)
          .roots[0]!;
        const want = replaceForbiddenXmlChars(s);
        expect(root.attributes.x).toBe(want);
        expect(root.attributes.y).toBe(want);
        // XML 1.0 §2.11: a parser reads a CR (with or without the LF after it) in content as LF
        expect(root.text).toBe(want.replace(/\r\n?/g, '\n'));
      }),
    );
  });

  it('escapeXml in an attribute reads back with tab and line breaks as spaces (§3.3.3), escapeXmlContent in content', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const root = parseXml(`<a x="${escapeXml(s)}">${escapeXmlContent(s)}</a>`).roots[0]!;
        const want = replaceForbiddenXmlChars(s);
        expect(root.attributes.x).toBe(want.replace(/\r\n|[\t\n\r]/g, ' '));
        expect(root.text).toBe(want.replace(/\r\n?/g, '\n'));
      }),
    );
  });
});
