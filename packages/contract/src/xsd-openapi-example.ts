/**
 * Renders example XML documents from OpenAPI 3.1 schemas, following their `xml` objects (name, attribute,
 * wrapped; OpenAPI 3.1.0 §4.8.26 "XML Object"), so that the documents the specs describe can be validated
 * against the XSDs of `specs/xsd/`.
 */

import { escapeXml } from './xml-escape.js';

/** A JSON-schema object as found in an OpenAPI document (loosely typed: only what rendering reads). */
export type SchemaNode = Record<string, unknown>;

/**
 * `full`: every property, one item per array, one extra field where the schema is open. `minimal`: the
 * required properties with empty strings where the schema allows them, plus one item of every array property
 * (records, rows), itself minimal, so that the items' own requirements are compared too.
 */
export type ExampleMode = 'full' | 'minimal';

/** The schema cannot be rendered (an unsupported pattern, an unresolved `$ref`). */
export class ExampleRenderError extends Error {
  override readonly name = 'ExampleRenderError';
}

const sampleUuid = '3f2b8c1e-9a4d-4e7b-8c21-5d6f7a8b9c0d';

/** Resolves a local `$ref` (`#/components/schemas/X`); sibling keywords override the target's (OpenAPI 3.1). */
export function resolveSchema(doc: SchemaNode, schema: SchemaNode): SchemaNode {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  if (!ref.startsWith('#/')) throw new ExampleRenderError(`only local $ref is supported: ${ref}`);
  let target: unknown = doc;
  for (const part of ref.slice(2).split('/')) target = (target as SchemaNode | undefined)?.[part.replace(/~1/g, '/')];
  if (!target || typeof target !== 'object') throw new ExampleRenderError(`unresolved $ref ${ref}`);
  const { $ref: _drop, ...siblings } = schema;
  return { ...resolveSchema(doc, target as SchemaNode), ...siblings };
}

/**
 * Folds `then` into the schema as if its `if` held. The examples are success examples, and the `if` of the
 * specs tests `errstr == ""`, which every example satisfies (errstr is rendered empty).
 */
function applyThen(s: SchemaNode): SchemaNode {
  const then = s.then as SchemaNode | undefined;
  if (!then) return s;
  const { if: _if, then: _then, ...rest } = s;
  const properties = { ...((rest.properties as Record<string, SchemaNode> | undefined) ?? {}) };
  for (const [name, extra] of Object.entries((then.properties as Record<string, SchemaNode> | undefined) ?? {})) {
    properties[name] = properties[name] ? { allOf: [properties[name]!, extra] } : extra;
  }
  const required = [...new Set([...((rest.required as string[]) ?? []), ...((then.required as string[]) ?? [])])];
  return { ...rest, properties, required };
}

/** Merges `allOf` parts into one schema (properties and required lists combined, outer keywords win). */
export function flatten(doc: SchemaNode, schema: SchemaNode): SchemaNode {
  const s = applyThen(resolveSchema(doc, schema));
  if (!Array.isArray(s.allOf)) return s;
  const { allOf, ...outer } = s;
  const parts = (allOf as SchemaNode[]).map((p) => flatten(doc, p));
  const merged: SchemaNode = Object.assign({}, ...parts, outer);
  merged.properties = Object.assign({}, ...parts.map((p) => p.properties ?? {}), outer.properties ?? {});
  merged.required = [
    ...new Set([...parts.flatMap((p) => (p.required as string[]) ?? []), ...((outer.required as string[]) ?? [])]),
  ];
  return applyThen(merged);
}

/** The alternatives of a top-level `anyOf`/`oneOf`, expanded recursively; a plain schema is its own alternative. */
export function alternatives(doc: SchemaNode, schema: SchemaNode): SchemaNode[] {
  const s = flatten(doc, schema);
  const options = (s.anyOf ?? s.oneOf) as SchemaNode[] | undefined;
  return options ? options.flatMap((o) => alternatives(doc, o)) : [s];
}

// ---- a sampler for the regular-expression subset the specs use ----

interface Piece {
  readonly sample: () => string;
  readonly min: number;
}

function classAccepts(body: string, c: string): boolean {
  return new RegExp(`^[${body}]$`, 'u').test(c);
}

/** Returns one string that `pattern` matches: the shortest repetition of every part, the first alternative. */
export function samplePattern(pattern: string): string {
  let i = 0;
  const alternation = (): string => {
    const first = sequence();
    while (pattern[i] === '|') {
      i++;
      sequence();
    }
    return first;
  };
  const sequence = (): string => {
    let out = '';
    while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') {
      const atom = parseAtom();
      const { min } = parseQuantifier();
      for (let n = 0; n < min; n++) out += atom.sample();
    }
    return out;
  };
  const parseAtom = (): Piece => {
    const c = pattern[i++]!;
    if (c === '^' || c === '$') return { sample: () => '', min: 0 };
    if (c === '(') {
      if (pattern.startsWith('?:', i)) i += 2;
      const inner = alternation();
      if (pattern[i++] !== ')') throw new ExampleRenderError(`unbalanced group in /${pattern}/`);
      return { sample: () => inner, min: 1 };
    }
    if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      const body = pattern.slice(i, end);
      i = end + 1;
      const pick = [...'a0A1-_.x /'].find((ch) => classAccepts(body, ch));
      if (pick === undefined) throw new ExampleRenderError(`cannot sample [${body}] in /${pattern}/`);
      return { sample: () => pick, min: 1 };
    }
    if (c === '\\') {
      const e = pattern[i++]!;
      const fixed: Record<string, string> = { d: '0', w: 'a', s: ' ' };
      const text = fixed[e] ?? e;
      return { sample: () => text, min: 1 };
    }
    if (c === '.') return { sample: () => 'a', min: 1 };
    return { sample: () => c, min: 1 };
  };
  const parseQuantifier = (): { min: number } => {
    const q = pattern[i];
    if (q === '+' || q === '*' || q === '?') {
      i++;
      return { min: q === '+' ? 1 : 0 };
    }
    if (q === '{') {
      const end = pattern.indexOf('}', i);
      const min = Number.parseInt(pattern.slice(i + 1, end), 10);
      i = end + 1;
      return { min };
    }
    return { min: 1 };
  };
  const sample = alternation();
  if (!new RegExp(pattern, 'u').test(sample))
    throw new ExampleRenderError(`sampled "${sample}" does not match /${pattern}/`);
  return sample;
}

// ---- rendering ----

interface XmlObject {
  readonly name?: string;
  readonly attribute?: boolean;
  readonly wrapped?: boolean;
}

function xmlOf(s: SchemaNode): XmlObject {
  return (s.xml as XmlObject | undefined) ?? {};
}

/** An example scalar for a schema, as text. */
function scalar(s: SchemaNode, property: string, mode: ExampleMode): string {
  if ('const' in s) return String(s.const);
  if (Array.isArray(s.enum)) return String(s.enum[0]);
  if (Array.isArray(s.examples) && s.examples.length > 0) return String(s.examples[0]);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'integer' || type === 'number') {
    const min = typeof s.minimum === 'number' ? s.minimum : mode === 'full' ? 1 : 0;
    return String(typeof s.maximum === 'number' ? Math.min(min, s.maximum) : min);
  }
  if (type === 'boolean') return 'true';
  if (s.format === 'date') return '2026-01-31';
  if (s.format === 'uuid') return sampleUuid;
  if (typeof s.pattern === 'string') return samplePattern(s.pattern);
  if (s.contentEncoding === 'base64') return 'JVBERi0xLjQK';
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
  if (mode === 'minimal' || property === 'errstr') return 'x'.repeat(minLength);
  return 'A1'.padEnd(minLength, 'x');
}

function isObject(s: SchemaNode): boolean {
  return s.type === 'object' || (s.properties !== undefined && s.type === undefined);
}

/** Renders `schema` as one element named `name` (the schema's own `xml.name` wins). */
export function renderElement(doc: SchemaNode, schema: SchemaNode, name: string, mode: ExampleMode): string {
  const s = alternatives(doc, schema)[0]!;
  const tag = xmlOf(s).name ?? name;
  if (!isObject(s)) return `<${tag}>${escapeXml(scalar(s, tag, mode))}</${tag}>`;
  const required = new Set((s.required as string[] | undefined) ?? []);
  const attributes: string[] = [];
  const children: string[] = [];
  for (const [prop, raw] of Object.entries((s.properties as Record<string, SchemaNode> | undefined) ?? {})) {
    const p = flatten(doc, raw);
    if (mode === 'minimal' && !required.has(prop) && p.type !== 'array') continue;
    if (xmlOf(p).attribute) attributes.push(` ${xmlOf(p).name ?? prop}="${escapeXml(scalar(p, prop, mode))}"`);
    else children.push(renderProperty(doc, p, prop, mode));
  }
  const open = s.additionalProperties !== false && s.additionalProperties !== undefined;
  const bare = s.properties === undefined && s.additionalProperties === undefined;
  if (mode === 'full' && (open || bare)) {
    const extra =
      typeof s.additionalProperties === 'object' ? (s.additionalProperties as SchemaNode) : { type: 'string' };
    children.push(renderElement(doc, extra, 'ExtraField', mode));
  }
  return children.length === 0
    ? `<${tag}${attributes.join('')}/>`
    : `<${tag}${attributes.join('')}>${children.join('')}</${tag}>`;
}

/** A child property: an element, or an array of them (wrapped or not). */
function renderProperty(doc: SchemaNode, p: SchemaNode, prop: string, mode: ExampleMode): string {
  if (p.type !== 'array') return renderElement(doc, p, prop, mode);
  const items = flatten(doc, (p.items as SchemaNode | undefined) ?? {});
  const count = Math.max(1, Number(p.minItems ?? 0));
  const itemName = xmlOf(items).name ?? prop;
  const rendered = Array.from({ length: count }, () => renderElement(doc, items, itemName, mode)).join('');
  if (!xmlOf(p).wrapped) return rendered;
  const wrapper = xmlOf(p).name ?? prop;
  return rendered === '' ? `<${wrapper}/>` : `<${wrapper}>${rendered}</${wrapper}>`;
}
