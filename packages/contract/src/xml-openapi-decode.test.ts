import { describe, expect, it } from 'vitest';
import { decodeXmlElement } from './xml-openapi-decode.js';
import { parseXml } from './xml-tree.js';
import type { SchemaNode } from './xsd-openapi-example.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A small OpenAPI document with the annotation forms the specs use. */
const doc: SchemaNode = {
  components: {
    schemas: {
      Flag: { type: 'integer', enum: [0, 1] },
      Row: {
        type: 'object',
        xml: { name: 'row' },
        properties: { rownumber: { type: 'string', xml: { attribute: true } } },
        additionalProperties: { type: 'string' },
      },
      Record: {
        type: 'object',
        xml: { name: 'IVVc' },
        properties: {
          url: { type: 'string', xml: { attribute: true } },
          count: { type: 'integer', xml: { attribute: true } },
          SerNr: { type: 'string' },
          confirmed: { allOf: [ref('Flag')], xml: { name: 'OKFlag' } },
          rows: { type: 'array', xml: { name: 'rows', wrapped: true }, items: ref('Row') },
        },
        additionalProperties: { type: 'string' },
      },
      List: {
        type: 'object',
        xml: { name: 'data' },
        properties: { records: { type: 'array', items: ref('Record') } },
      },
      Res: {
        type: 'object',
        xml: { name: 'res' },
        properties: { errstr: { type: 'string', xml: { attribute: true } } },
        additionalProperties: false,
      },
      Scalars: {
        type: 'object',
        xml: { name: 's' },
        properties: {
          n: { type: 'number' },
          b: { type: 'boolean', xml: { attribute: true } },
          e: { enum: [1, 'two'] },
          t: { type: ['integer', 'string'] },
        },
        patternProperties: { '^x-': { type: 'integer' } },
      },
      A: { type: 'object', xml: { name: 'a' }, properties: { v: { type: 'integer' } } },
      B: { type: 'object', xml: { name: 'b' }, properties: { v: { type: 'string', xml: { attribute: true } } } },
      Either: { anyOf: [ref('A'), ref('B')] },
      Open: { xml: { name: 'data' } },
      OpenObject: { type: 'object', xml: { name: 'data' } },
    },
  },
};

const decode = (schema: string, xml: string) => decodeXmlElement(doc, ref(schema), parseXml(xml).roots[0]!);

describe('decodeXmlElement: values', () => {
  it.each<[string, { schema: string; xml: string; want: unknown }]>([
    [
      'attributes become properties',
      { schema: 'Res', xml: '<res errstr="Record is locked"/>', want: { errstr: 'Record is locked' } },
    ],
    ['a typed attribute becomes a number', { schema: 'Record', xml: '<IVVc count=" 3 "/>', want: { count: 3 } }],
    [
      'text that is not of the type stays a string, for ajv to report',
      { schema: 'Record', xml: '<IVVc count="3.5"/>', want: { count: '3.5' } },
    ],
    [
      'text content becomes a string property',
      { schema: 'Record', xml: '<IVVc><SerNr>1001</SerNr></IVVc>', want: { SerNr: '1001' } },
    ],
    ['an empty element is an empty string', { schema: 'Record', xml: '<IVVc><SerNr/></IVVc>', want: { SerNr: '' } }],
    [
      'entities in text and attributes are decoded',
      {
        schema: 'Record',
        xml: '<IVVc url="/a?b=1&amp;c=2"><SerNr>&lt;1&gt; &#228;</SerNr></IVVc>',
        want: { url: '/a?b=1&c=2', SerNr: '<1> ä' },
      },
    ],
    [
      'xml.name renames an element; allOf and $ref are followed to its type',
      { schema: 'Record', xml: '<IVVc><OKFlag>1</OKFlag></IVVc>', want: { confirmed: 1 } },
    ],
    [
      'unwrapped array: one repeated element gives one item',
      { schema: 'List', xml: '<data><IVVc><SerNr>1</SerNr></IVVc></data>', want: { records: [{ SerNr: '1' }] } },
    ],
    [
      'unwrapped array: many repeated elements give many items, in order',
      {
        schema: 'List',
        xml: '<data><IVVc><SerNr>1</SerNr></IVVc><IVVc><SerNr>2</SerNr></IVVc><IVVc/></data>',
        want: { records: [{ SerNr: '1' }, { SerNr: '2' }, {}] },
      },
    ],
    ['unwrapped array: no element leaves the property out', { schema: 'List', xml: '<data/>', want: {} }],
    [
      'wrapped array: an empty wrapper is an empty array',
      { schema: 'Record', xml: '<IVVc><rows/></IVVc>', want: { rows: [] } },
    ],
    [
      'wrapped array: items inside the wrapper, their own attributes and fields',
      {
        schema: 'Record',
        xml: '<IVVc><rows>\n  <row rownumber="0"><Spec>a</Spec></row>\n  <row rownumber="1"/>\n</rows></IVVc>',
        want: { rows: [{ rownumber: '0', Spec: 'a' }, { rownumber: '1' }] },
      },
    ],
    [
      'undeclared elements and attributes go through additionalProperties',
      { schema: 'Record', xml: '<IVVc extra="e"><Addr0>x</Addr0></IVVc>', want: { extra: 'e', Addr0: 'x' } },
    ],
    [
      'number, boolean, enum without type, and a type list',
      {
        schema: 'Scalars',
        xml: '<s b="true"><n>-1.5e2</n><e>two</e><t>7</t></s>',
        want: { b: true, n: -150, e: 'two', t: 7 },
      },
    ],
    ['an enum member that is a number', { schema: 'Scalars', xml: '<s><e>1</e><t>x</t></s>', want: { e: 1, t: 'x' } }],
    ['patternProperties type an undeclared name', { schema: 'Scalars', xml: '<s x-n="4"/>', want: { 'x-n': 4 } }],
    ['anyOf: the alternative named like the element', { schema: 'Either', xml: '<b v="1"/>', want: { v: '1' } }],
    ['anyOf: the first alternative that fits', { schema: 'Either', xml: '<a><v>2</v></a>', want: { v: 2 } }],
    [
      'a schema without type takes text',
      { schema: 'Open', xml: '<data>https://x/?a=1&amp;b=2</data>', want: 'https://x/?a=1&b=2' },
    ],
    [
      'elements no schema describes are decoded generically',
      {
        schema: 'OpenObject',
        xml: '<data><act id="7">Call<when>2026-02-01</when> back</act><z/><z>2</z></data>',
        want: { act: { id: '7', when: '2026-02-01', '#text': 'Call back' }, z: ['', '2'] },
      },
    ],
  ])('%s', (_name, { schema, xml, want }) => {
    const result = decode(schema, xml);
    expect(result.problems).toEqual([]);
    expect(result.value).toEqual(want);
  });
});

describe('decodeXmlElement: structural disagreements', () => {
  it.each<[string, { schema: string; xml: string; problems: string[] }]>([
    [
      'a root element with another name',
      { schema: 'List', xml: '<dat/>', problems: ['/dat (line 1): element <dat>, the schema names <data>'] },
    ],
    [
      'an attribute where the schema has an element',
      {
        schema: 'Record',
        xml: '<IVVc SerNr="1"/>',
        problems: ['/IVVc/@SerNr (line 1): an attribute, but the schema makes it an element'],
      },
    ],
    [
      'an element where the schema has an attribute',
      {
        schema: 'Record',
        xml: '<IVVc><url>u</url></IVVc>',
        problems: ['/IVVc/url (line 1): an element, but the schema makes it an attribute'],
      },
    ],
    [
      'a repeated element for a property that is not an array',
      {
        schema: 'Record',
        xml: '<IVVc>\n<SerNr>1</SerNr>\n<SerNr>2</SerNr></IVVc>',
        problems: ['/IVVc/SerNr[2] (line 3): <SerNr> repeated 2 times, but SerNr is not an array'],
      },
    ],
    [
      'a repeated undeclared element whose schema is not an array',
      {
        schema: 'Record',
        xml: '<IVVc><Addr0>1</Addr0><Addr0>2</Addr0></IVVc>',
        problems: ['/IVVc/Addr0[2] (line 1): <Addr0> repeated 2 times, but its schema is not an array'],
      },
    ],
    [
      'a child element inside a scalar',
      {
        schema: 'Record',
        xml: '<IVVc><SerNr><b/></SerNr></IVVc>',
        problems: ['/IVVc/SerNr (line 1): child element <b> in an element whose schema is a scalar'],
      },
    ],
    [
      'an attribute on a scalar',
      {
        schema: 'Record',
        xml: '<IVVc><SerNr x="1">1</SerNr></IVVc>',
        problems: ['/IVVc/SerNr (line 1): attribute x on an element whose schema is a scalar'],
      },
    ],
    [
      'text inside an object',
      {
        schema: 'Res',
        xml: '<res errstr="">Access denied</res>',
        problems: ['/res (line 1): text "Access denied" in an element whose schema is an object'],
      },
    ],
    [
      'a foreign element in a wrapper',
      {
        schema: 'Record',
        xml: '<IVVc><rows><line/></rows></IVVc>',
        problems: ['/IVVc/rows/line[1] (line 1): <line> in wrapper <rows>, whose items are <row>'],
      },
    ],
    [
      'a repeated wrapper',
      {
        schema: 'Record',
        xml: '<IVVc><rows/><rows/></IVVc>',
        problems: ['/IVVc/rows[2] (line 1): wrapper <rows> repeated'],
      },
    ],
    [
      'an attribute on a wrapper',
      {
        schema: 'Record',
        xml: '<IVVc><rows n="0"/></IVVc>',
        problems: ['/IVVc/rows (line 1): attribute n on a wrapper element'],
      },
    ],
    [
      'names that additionalProperties: false forbids',
      {
        schema: 'Res',
        xml: '<res errstr="" uuid="u"><x/></res>',
        problems: [
          '/res/@uuid (line 1): attribute not in the schema (additionalProperties: false)',
          '/res/x (line 1): element not in the schema (additionalProperties: false)',
        ],
      },
    ],
    [
      'no anyOf alternative fits: the problems of the closest one',
      { schema: 'Either', xml: '<c v="1"/>', problems: ['/c (line 1): element <c>, the schema names <b>'] },
    ],
  ])('%s', (_name, { schema, xml, problems }) => {
    expect(decode(schema, xml).problems).toEqual(problems);
  });

  it('still returns what it could decode beside the problems', () => {
    expect(decode('Record', '<IVVc SerNr="1"><OKFlag>0</OKFlag></IVVc>').value).toEqual({ confirmed: 0 });
  });
});
