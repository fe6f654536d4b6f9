import { describe, expect, it } from 'vitest';
import { outlineXml } from './xsd-outline.js';

describe('outlineXml', () => {
  it('lists several top-level elements with their attributes, entities decoded', () => {
    const outline = outlineXml(`<error code="1" description='a &amp; b &#65;&#x42;'/>\n<data page="1"><IVVc/></data>`);
    expect(outline?.roots.map((r) => [r.name, r.attributes])).toEqual([
      ['error', { code: '1', description: 'a & b AB' }],
      ['data', { page: '1' }],
    ]);
    expect(outline?.roots[1]?.children.map((c) => c.name)).toEqual(['IVVc']);
  });

  it('stops at the requested depth', () => {
    const outline = outlineXml('<data><IVVc><SerNr>1</SerNr></IVVc></data>', 2);
    expect(outline?.roots[0]?.children[0]?.children).toEqual([]);
  });

  it('finds the end of the XML declaration and of the DOCTYPE', () => {
    const decl = '<?xml version="1.0"?>';
    const doctype = '<!DOCTYPE data [ <!ENTITY x "]>"> ]>';
    const outline = outlineXml(`${decl}\n${doctype}<data/>`);
    expect(outline?.declarationEnd).toBe(decl.length);
    expect(outline?.doctypeEnd).toBe(decl.length + 1 + doctype.length);
  });

  it('skips comments, processing instructions and CDATA', () => {
    const outline = outlineXml('<!-- <x/> --><?pi <y/>?><data><![CDATA[<z/>]]><res errstr=""/></data>');
    expect(outline?.roots.map((r) => r.name)).toEqual(['data']);
    expect(outline?.roots[0]?.children.map((c) => c.name)).toEqual(['res']);
  });

  it.each([
    ['an unclosed element', '<data><res>'],
    ['a mismatched end tag', '<data></dat>'],
    ['an unterminated comment', '<data><!-- </data>'],
    ['a tag without its closing bracket', '<data attr="1"'],
  ])('gives up on %s', (_name, body) => {
    expect(outlineXml(body)).toBeUndefined();
  });
});
