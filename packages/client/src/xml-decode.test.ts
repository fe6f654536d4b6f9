import { describe, expect, it } from 'vitest';
import { parseXmlBody, XmlSyntaxError } from './xml-decode.js';

describe('parseXmlBody', () => {
  it('reads error and message elements before <data> (no single root)', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<error code="1058" description="Customer not found" row="-1" field="CustCode"/>
<message description="Check the date"/>
<data register="IVVc" sequence="12" systemversion="1.0"></data>`;
    expect(parseXmlBody(xml)).toEqual({
      error: [{ '@code': '1058', '@description': 'Customer not found', '@row': '-1', '@field': 'CustCode' }],
      message: [{ '@description': 'Check the date' }],
      data: { '@register': 'IVVc', '@sequence': '12', '@systemversion': '1.0' },
    });
  });

  it('keeps every value a string, with leading zeros and surrounding spaces', () => {
    const tree = parseXmlBody('<data><INVc><Code>007</Code><Name> A B </Name><UPrice1>1.50</UPrice1></INVc></data>');
    expect(tree.data).toEqual({ INVc: [{ Code: '007', Name: ' A B ', UPrice1: '1.50' }] });
  });

  it('makes records arrays even when there is one, and rows arrays of <row>', () => {
    const tree = parseXmlBody(
      '<data register="IVVc"><IVVc register="IVVc" url="/api/1/IVVc/1"><SerNr>1</SerNr><rows><row rownumber="0"><stp>1</stp></row></rows></IVVc></data>',
    );
    expect(tree.data).toEqual({
      '@register': 'IVVc',
      IVVc: [
        {
          '@register': 'IVVc',
          '@url': '/api/1/IVVc/1',
          SerNr: '1',
          rows: { row: [{ '@rownumber': '0', stp: '1' }] },
        },
      ],
    });
  });

  it('keeps <res>, <file> and <DummyVc> single, and the approval <message> child as a field', () => {
    const tree = parseXmlBody(
      '<data><res errstr="" regname="IVVc"/><DummyVc><hasapprovals>1</hasapprovals><message>Waiting</message></DummyVc></data>',
    );
    expect(tree.data).toEqual({
      res: { '@errstr': '', '@regname': 'IVVc' },
      DummyVc: { hasapprovals: '1', message: 'Waiting' },
    });
  });

  it.each([
    [
      'named entities in text',
      '<data><a>x &amp; y &lt;z&gt; &quot;q&quot; &apos;s&apos;</a></data>',
      'x & y <z> "q" \'s\'',
    ],
    ['decimal and hex references', '<data><a>&#228;&#x00F6;&#x1F600;</a></data>', 'äö😀'],
    ['a double-escaped reference stays single-decoded', '<data><a>&amp;#228;</a></data>', '&#228;'],
    ['CDATA kept verbatim', '<data><a><![CDATA[a<b &amp;]]></a></data>', 'a<b &amp;'],
  ])('decodes %s', (_name, xml, want) => {
    expect((parseXmlBody(xml).data as { a: unknown[] }).a).toEqual([want]);
  });

  it('decodes entities in attributes', () => {
    const tree = parseXmlBody('<error code="1" description="a &amp; b &#228;"/>');
    expect(tree.error).toEqual([{ '@code': '1', '@description': 'a & b ä' }]);
  });

  it.each([
    ['an unclosed element', '<data><a></data>'],
    ['a stray ampersand', '<data><a>x & y</a></data>'],
    ['a repeated attribute', '<data a="1" a="2"/>'],
  ])('refuses %s', (_name, xml) => {
    expect(() => parseXmlBody(xml)).toThrow(XmlSyntaxError);
  });
});
