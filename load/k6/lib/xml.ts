/**
 * XML answers in k6, through fast-xml-parser bundled by scripts/build-vendor.mjs (k6 cannot resolve npm
 * packages and jslib downloads fail here). The parser costs several milliseconds per kilobyte in k6's JavaScript
 * runtime, so it reads small answers only (one created record, a lookup, a list page); the 10,000-record reads
 * are checked by `countElements`/`attributeValues` instead.
 */
import { XMLParser } from '../dist/vendor/fast-xml-parser.js';

/** A parsed element: child elements by name, attributes as `@name`, text as `#text`. */
export type XmlNode = { readonly [name: string]: unknown };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  // the checks compare codes and numbers; entity decoding would double the parse time in k6
  processEntities: false,
});

/** Parses XML text; undefined when it is not XML. A body may hold `<error>` before `<data>` (no single root). */
export function parseXml(text: string): XmlNode | undefined {
  if (!text.trimStart().startsWith('<')) return undefined;
  try {
    return parser.parse(text) as XmlNode;
  } catch {
    return undefined;
  }
}

/** Always an array: fast-xml-parser gives one repeated child as an object and several as an array. */
export function asArray(value: unknown): XmlNode[] {
  if (value === undefined || value === null || value === '') return [];
  return (Array.isArray(value) ? value : [value]) as XmlNode[];
}

/** Child element as a node (an empty element `<x/>` gives an empty node). */
export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  const value = node?.[name];
  if (value === undefined) return undefined;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as XmlNode;
  return {};
}

/** Text of a field element or of an attribute (`@name`); '' when absent or empty. */
export function text(node: XmlNode | undefined, name: string): string {
  const value = node?.[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && value !== null && typeof (value as XmlNode)['#text'] === 'string') {
    return (value as XmlNode)['#text'] as string;
  }
  return '';
}

/** Descriptions of `<error>` elements at the top or inside `<data>`, and a non-empty `errstr` of `<res>`. */
export function xmlErrors(doc: XmlNode | undefined): string[] {
  if (doc === undefined) return [];
  const data = child(doc, 'data');
  const errors = [...asArray(doc.error), ...asArray(data?.error)].map((e) => {
    const code = text(e, '@code');
    const description = text(e, '@description') || text(e, '#text');
    return code === '' ? description : `${code} ${description}`;
  });
  for (const res of asArray(data?.res)) {
    const errstr = text(res, '@errstr');
    if (errstr !== '') errors.push(errstr);
  }
  return errors;
}

/** Records of `register` inside `<data>` (record-rest-api.md §2 "Envelope"; portal lists and lookups). */
export function dataRecords(doc: XmlNode | undefined, register: string): XmlNode[] {
  return asArray(child(doc, 'data')?.[register]);
}

/** Number of `<name ` or `<name>` start tags: a cheap record count for large bodies. */
export function countElements(body: string, name: string): number {
  const pattern = new RegExp(`<${name}[\\s>/]`, 'g');
  let count = 0;
  while (pattern.exec(body) !== null) count++;
  return count;
}

/** Values of one attribute on the start tags of `element`, in order (for example every record's `url`). */
export function attributeValues(body: string, element: string, attribute: string): string[] {
  const pattern = new RegExp(`<${element}\\s[^>]*?\\b${attribute}="([^"]*)"`, 'g');
  const values: string[] = [];
  for (let match = pattern.exec(body); match !== null; match = pattern.exec(body)) values.push(match[1]!);
  return values;
}
