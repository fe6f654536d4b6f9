import { describe, expect, it } from 'vitest';
import { parseXml, type XmlElement, XmlParseError } from './xml-tree.js';

/** A tree without line numbers, for comparing shapes. */
interface Shape {
  name: string;
  attributes: Record<string, string>;
  text: string;
  children: Shape[];
}
const shape = (e: XmlElement): Shape => ({
  name: e.name,
  attributes: { ...e.attributes },
  text: e.text,
  children: e.children.map(shape),
});
const el = (name: string, attributes: Record<string, string> = {}, text = '', children: Shape[] = []): Shape => ({
  name,
  attributes,
  text,
  children,
});

describe('parseXml: what it reads', () => {
  it.each<[string, { given: string; want: Shape[] }]>([
    ['an empty element', { given: '<data/>', want: [el('data')] }],
    ['an element with text', { given: '<a>x y</a>', want: [el('a', {}, 'x y')] }],
    [
      'attributes in double and single quotes',
      { given: `<res errstr="" uuid='u-1'/>`, want: [el('res', { errstr: '', uuid: 'u-1' })] },
    ],
    [
      'white space around "=" and before "/>" and ">"',
      { given: '<a  x = "1"\n\ty="2" ></a  >', want: [el('a', { x: '1', y: '2' })] },
    ],
    [
      'nested elements, text split around a child',
      { given: '<a>one<b>two</b>three</a>', want: [el('a', {}, 'onethree', [el('b', {}, 'two')])] },
    ],
    [
      'several top-level elements (a body without a single root)',
      {
        given: '<error code="1"/>\n<message description="m"/>\n<data/>',
        want: [el('error', { code: '1' }), el('message', { description: 'm' }), el('data')],
      },
    ],
    [
      'the five predefined entities in text and attributes',
      {
        given: '<a t="&lt;&gt;&amp;&quot;&apos;">&lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;</a>',
        want: [el('a', { t: `<>&"'` }, `<b> & "c" 'd'`)],
      },
    ],
    [
      'decimal and hexadecimal character references',
      { given: '<a x="&#65;&#x42;">&#228;&#x20AC;&#x1F600;</a>', want: [el('a', { x: 'AB' }, 'ä€😀')] },
    ],
    [
      'attribute white space normalised, a character reference kept (XML 1.0 §3.3.3)',
      { given: '<a x="1\n2\t3&#10;4"/>', want: [el('a', { x: '1 2 3\n4' })] },
    ],
    ['CR LF and lone CR become LF (XML 1.0 §2.11)', { given: '<a>1\r\n2\r3</a>', want: [el('a', {}, '1\n2\n3')] }],
    [
      'CDATA kept verbatim, entities not decoded inside it',
      { given: '<a>x<![CDATA[<b>&amp;]]>y</a>', want: [el('a', {}, 'x<b>&amp;y')] },
    ],
    [
      'XML declaration, BOM, comments and processing instructions skipped',
      {
        given: '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<!-- c --><?pi x?><a><!-- in -->t<?pi?></a>\n',
        want: [el('a', {}, 't')],
      },
    ],
    [
      'names with namespace prefixes, dots, dashes and non-ASCII letters',
      { given: '<x:a-b.c xmlns:x="u" é="1"/>', want: [el('x:a-b.c', { 'xmlns:x': 'u', é: '1' })] },
    ],
    [
      'an attribute named __proto__ is an own property',
      { given: '<a __proto__="p"/>', want: [el('a', Object.fromEntries([['__proto__', 'p']]))] },
    ],
  ])('%s', (_name, { given, want }) => {
    expect(parseXml(given).roots.map(shape)).toEqual(want);
  });

  it('gives each element the line of its start tag', () => {
    const { roots } = parseXml('<?xml version="1.0"?>\n<data>\n  <a/>\n\n  <b>\n  </b>\n</data>');
    expect([roots[0]!.line, ...roots[0]!.children.map((c) => c.line)]).toEqual([2, 3, 5]);
  });
});

describe('parseXml: what it refuses', () => {
  it.each<[string, { given: string; message: string; line: number; column: number }]>([
    ['an empty body', { given: '  \n', message: 'no element', line: 2, column: 1 }],
    ['plain text', { given: 'Access denied', message: 'text outside any element', line: 1, column: 1 }],
    ['text after the root', { given: '<a/>\nx', message: 'text outside any element', line: 2, column: 1 }],
    ['an unclosed element', { given: '<a><b></b>', message: '<a> (line 1) is never closed', line: 1, column: 11 }],
    ['a mismatched end tag', { given: '<a>\n</b>', message: 'does not match <a>', line: 2, column: 1 }],
    ['an end tag without a start tag', { given: '<a/></a>', message: 'without a start tag', line: 1, column: 5 }],
    ['a repeated attribute', { given: '<a x="1" x="2"/>', message: 'attribute x repeated', line: 1, column: 10 }],
    ['an unquoted attribute value', { given: '<a x=1/>', message: 'expected a quoted value', line: 1, column: 6 }],
    [
      'attributes without white space between them',
      { given: '<a x="1"y="2"/>', message: 'expected whitespace', line: 1, column: 9 },
    ],
    ['"<" in an attribute value', { given: '<a x="<"/>', message: '"<" in the value', line: 1, column: 7 }],
    ['a bare "&"', { given: '<a>fish & chips</a>', message: 'starts no entity', line: 1, column: 9 }],
    ['an undefined entity', { given: '<a>&nbsp;</a>', message: 'undefined entity &nbsp;', line: 1, column: 4 }],
    [
      'a character reference to a non-character',
      { given: '<a>&#0;</a>', message: 'not an XML character', line: 1, column: 4 },
    ],
    ['a DOCTYPE', { given: '<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>', message: 'no DTD', line: 1, column: 1 }],
    ['"]]>" in text', { given: '<a>x]]>y</a>', message: '"]]>" in character data', line: 1, column: 5 }],
    [
      '"--" inside a comment',
      { given: '<a><!-- a -- b --></a>', message: '"--" inside a comment', line: 1, column: 11 },
    ],
    [
      'an XML declaration not at the start',
      { given: '<a/><?xml version="1.0"?>', message: 'not at the start', line: 1, column: 5 },
    ],
    ['CDATA outside any element', { given: '<![CDATA[x]]><a/>', message: 'CDATA section outside', line: 1, column: 1 }],
    [
      'an element name starting with a digit',
      { given: '<1a/>', message: 'expected an element name', line: 1, column: 2 },
    ],
  ])('%s', (_name, { given, message, line, column }) => {
    let error: unknown;
    try {
      parseXml(given);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(XmlParseError);
    const e = error as XmlParseError;
    expect(e.message).toContain(message);
    expect([e.line, e.column]).toEqual([line, column]);
  });
});
