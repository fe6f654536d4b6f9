import { unescapeXml } from '@erpcert/contract';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** A decoded XML element: attributes under `@name`, child elements by name, text as a string. */
export interface XmlElement {
  [name: string]: XmlValue;
}
/** An element's value: its text, an element, or the repeated elements of one name. */
export type XmlValue = string | XmlElement | XmlValue[];

/** The XML is not well-formed. */
export class XmlSyntaxError extends Error {
  override readonly name = 'XmlSyntaxError';
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
  }
}

/** Top-level and `<data>`-level elements that are never repeated (portal-action-api.md §2 result shapes). */
const SINGLE_IN_DATA = new Set(['res', 'file', 'DummyVc']);

/**
 * Which elements are arrays even when there is one: `<error>` and `<message>` at the top level or in `<data>`,
 * every record element in `<data>` (REST records, lookups, list rows, attachments) and `<row>` in `<rows>`.
 */
function isArrayPath(name: string, jpath: string): boolean {
  const parts = jpath.split('.');
  if (parts.length === 1) return name === 'error' || name === 'message';
  if (parts.length === 2 && parts[0] === 'data') return !SINGLE_IN_DATA.has(name);
  return parts.length === 4 && parts[0] === 'data' && parts[2] === 'rows' && name === 'row';
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  cdataPropName: '#cdata',
  isArray: (name, jpath, _leaf, isAttribute) => !isAttribute && isArrayPath(name, String(jpath)),
});

function textOf(node: Record<string, unknown>): string {
  const t = node['#text'];
  const c = node['#cdata'];
  const text = typeof t === 'string' ? unescapeXml(t) : '';
  const cdata = Array.isArray(c) ? c.join('') : typeof c === 'string' ? c : '';
  return text + cdata;
}

function normalize(value: unknown): XmlValue {
  if (typeof value === 'string') return unescapeXml(value);
  if (Array.isArray(value)) return value.map(normalize);
  if (value === null || typeof value !== 'object') return String(value ?? '');
  const node = value as Record<string, unknown>;
  const keys = Object.keys(node);
  if (keys.every((k) => k === '#text' || k === '#cdata')) return textOf(node);
  const out: XmlElement = {};
  for (const k of keys) {
    if (k === '#cdata') continue;
    if (k === '#text') {
      const text = textOf(node);
      if (text.trim() !== '') out['#text'] = text;
      continue;
    }
    out[k] = normalize(node[k]);
  }
  if (typeof node['#cdata'] !== 'undefined' && out['#text'] === undefined) out['#text'] = textOf(node);
  return out;
}

function stripDeclaration(xml: string): string {
  return xml.replace(/^\s*<\?xml[^?]*\?>/, '');
}

/**
 * Parses an XML body that may have several top-level elements (`<error>`/`<message>` before `<data>`, DESIGN.md)
 * into one object keyed by top-level element name. Every value stays a string; entities are decoded; whitespace
 * between elements is dropped. Throws {@link XmlSyntaxError} when the body is not well-formed.
 */
export function parseXmlBody(xml: string): XmlElement {
  const body = stripDeclaration(xml);
  const verdict = XMLValidator.validate(`<erpcert-body>${body}</erpcert-body>`);
  if (verdict !== true) throw new XmlSyntaxError(verdict.err.msg, verdict.err.line);
  const tree = parser.parse(body) as Record<string, unknown>;
  const out: XmlElement = {};
  for (const [k, v] of Object.entries(tree)) {
    if (k.startsWith('?') || k.startsWith('!')) continue;
    if (k === '#text') {
      if (typeof v === 'string' && v.trim() !== '') out[k] = unescapeXml(v);
      continue;
    }
    out[k] = normalize(v);
  }
  return out;
}

/** The element's attributes without the `@` prefix. */
export function attributesOf(element: XmlValue | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!element || typeof element !== 'object' || Array.isArray(element)) return out;
  for (const [k, v] of Object.entries(element)) if (k.startsWith('@') && typeof v === 'string') out[k.slice(1)] = v;
  return out;
}

/** The value as a list: arrays as they are, a single value as a list of one, nothing as `[]`. */
export function asList(value: XmlValue | undefined): XmlValue[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The value as an element: `<x/>` (an empty string) becomes `{}`; text stays text in `#text`. */
export function asElement(value: XmlValue | undefined): XmlElement | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return asElement(value[0]);
  if (typeof value === 'string') return value === '' ? {} : { '#text': value };
  return value;
}
