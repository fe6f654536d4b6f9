/**
 * Decodes an XML element into the JSON value an OpenAPI 3.1 schema describes, driven by the schema's `xml`
 * objects (OpenAPI 3.1.0 §4.8.26 "XML Object": `name`, `attribute`, `wrapped`), so that the value can be
 * validated against the same schema with ajv (`validateJsonBody`). It is the inverse of the renderer in
 * `xsd-openapi-example.ts` and follows its reading of the annotations:
 *
 * - a property's element (or attribute) is named by its schema's `xml.name`, else by the property name;
 * - `attribute: true` properties come from attributes, every other property from child elements;
 * - an array property is its items repeated as elements named by `items.xml.name` (else the property name),
 *   inside one wrapper element named by the array's `xml.name` when `wrapped: true`;
 * - a scalar is the element's text (or the attribute's value), typed by the schema: `integer`, `number` and
 *   `boolean` text becomes a JSON number or boolean when it is one (else it stays a string and ajv says so);
 * - `$ref`s are resolved, `allOf` merged, `anyOf`/`oneOf` alternatives tried in turn: the first that decodes
 *   without a structural problem wins;
 * - names the schema does not declare go through `patternProperties`/`additionalProperties`; with neither,
 *   an element is decoded generically (text alone becomes a string, anything else an object).
 *
 * What JSON Schema cannot check, because the JSON value no longer shows it, is reported as a problem instead: a
 * root element with the wrong name, an attribute where the schema has an element (or the reverse), a
 * repeated element for a property that is not an array, child elements or attributes in a scalar, text in an
 * object, a foreign element in a wrapper, a name that `additionalProperties: false` forbids.
 *
 * XML comes from `parseXml` (`xml-tree.ts`), a small strict parser written for these bodies: the package's
 * outline (`xsd-outline.ts`) keeps no text and is lenient by design, xmllint-wasm runs in a worker and prints
 * text rather than a tree, and fast-xml-parser is not a dependency of this package.
 */
import type { XmlElement } from './xml-tree.js';
import { flatten, type SchemaNode } from './xsd-openapi-example.js';

/** The decoded value and the structural disagreements found on the way (empty when the XML fits the schema). */
export interface XmlDecodeResult {
  readonly value: unknown;
  /** One line per problem: `<path> (line N): <what>`, the path in XML terms (`/data/IVVc[2]/@url`). */
  readonly problems: readonly string[];
}

interface XmlObject {
  readonly name?: string;
  readonly attribute?: boolean;
  readonly wrapped?: boolean;
}

const xmlOf = (s: SchemaNode): XmlObject => (s.xml as XmlObject | undefined) ?? {};
const typesOf = (s: SchemaNode): string[] =>
  Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
const isNamespaceDeclaration = (name: string) => name === 'xmlns' || name.startsWith('xmlns:');

/** The alternatives of a schema: `$ref` resolved, `allOf` merged, `anyOf`/`oneOf` expanded with the outer keywords. */
function variants(doc: SchemaNode, schema: SchemaNode): SchemaNode[] {
  const s = flatten(doc, schema);
  const options = (s.anyOf ?? s.oneOf) as SchemaNode[] | undefined;
  if (!Array.isArray(options)) return [s];
  const { anyOf: _anyOf, oneOf: _oneOf, ...outer } = s;
  return options.flatMap((o) => variants(doc, { allOf: [outer, o] }));
}

type Shape = 'object' | 'array' | 'scalar' | 'any';

function shapeOf(s: SchemaNode): Shape {
  const types = typesOf(s);
  if (types.includes('object')) return 'object';
  if (types.includes('array')) return 'array';
  if (types.length > 0) return 'scalar';
  if (s.properties !== undefined || s.additionalProperties !== undefined || s.patternProperties !== undefined)
    return 'object';
  if ('const' in s || Array.isArray(s.enum)) return 'scalar';
  return 'any';
}

/** Text typed by the schema; text that is not of any of its types stays a string (ajv then reports the type). */
function decodeText(text: string, options: readonly SchemaNode[]): unknown {
  for (const s of options) {
    if ('const' in s || Array.isArray(s.enum)) {
      const members = 'const' in s ? [s.const] : (s.enum as unknown[]);
      const hit = members.find((m) => (typeof m === 'string' ? m === text : String(m) === text.trim()));
      if (hit !== undefined) return hit;
    }
    for (const type of typesOf(s)) {
      const t = text.trim();
      if (type === 'string') return text;
      if (type === 'integer' && /^[+-]?[0-9]+$/.test(t)) return Number(t);
      if (type === 'number' && /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(t)) return Number(t);
      if (type === 'boolean' && (t === 'true' || t === 'false')) return t === 'true';
      if (type === 'null' && t === '') return null;
    }
  }
  return text;
}

/** How a declared property appears in the XML. */
interface Slot {
  readonly property: string;
  readonly schema: SchemaNode;
  readonly form: 'attribute' | 'element' | 'items' | 'wrapped';
  /** Items of an array property. */
  readonly items?: SchemaNode;
  /** Element name of each item of a wrapped array. */
  readonly itemName?: string;
}

class Decoder {
  readonly problems: string[] = [];
  constructor(private readonly doc: SchemaNode) {}

  problem(path: string, line: number, what: string): void {
    this.problems.push(`${path} (line ${line}): ${what}`);
  }

  /**
   * Decodes `el` against every alternative of `schema` and keeps the first without problems (else the one with
   * the fewest). `named`: the element's name is the schema's business (a root or a declared property), so an
   * alternative whose `xml.name` differs does not fit; an undeclared element is named by its key instead.
   */
  element(el: XmlElement, schema: SchemaNode, path: string, named: boolean): unknown {
    const options = variants(this.doc, schema);
    let best: { value: unknown; problems: string[] } | undefined;
    for (const option of options) {
      const trial = new Decoder(this.doc);
      const expected = xmlOf(option).name;
      if (named && expected !== undefined && expected !== el.name)
        trial.problem(path, el.line, `element <${el.name}>, the schema names <${expected}>`);
      const value = trial.single(el, option, path);
      if (!best || trial.problems.length < best.problems.length) best = { value, problems: trial.problems };
      if (trial.problems.length === 0) break;
    }
    this.problems.push(...best!.problems);
    return best!.value;
  }

  private single(el: XmlElement, s: SchemaNode, path: string): unknown {
    switch (shapeOf(s)) {
      case 'object':
        return this.object(el, s, path);
      case 'any':
        return generic(el);
      case 'array':
        this.problem(path, el.line, 'one element for an array schema (arrays are repeated elements of a property)');
        return generic(el);
      default: {
        const attributes = Object.keys(el.attributes).filter((a) => !isNamespaceDeclaration(a));
        if (attributes.length > 0)
          this.problem(path, el.line, `attribute ${attributes.join(', ')} on an element whose schema is a scalar`);
        if (el.children.length > 0)
          this.problem(path, el.line, `child element <${el.children[0]!.name}> in an element whose schema is a scalar`);
        return decodeText(el.text, [s]);
      }
    }
  }

  /** The attributes and child elements the object schema declares, by XML name. */
  private slots(
    s: SchemaNode,
    path: string,
    line: number,
  ): { attributes: Map<string, Slot>; elements: Map<string, Slot> } {
    const attributes = new Map<string, Slot>();
    const elements = new Map<string, Slot>();
    const properties = (s.properties as Record<string, SchemaNode> | undefined) ?? {};
    for (const [property, raw] of Object.entries(properties)) {
      const first = variants(this.doc, raw)[0]!;
      const xml = xmlOf(first);
      let name = xml.name ?? property;
      let slot: Slot;
      if (xml.attribute) slot = { property, schema: raw, form: 'attribute' };
      else if (typesOf(first).includes('array')) {
        const items = (first.items as SchemaNode | undefined) ?? {};
        const itemName = xmlOf(variants(this.doc, items)[0]!).name ?? property;
        if (xml.wrapped) slot = { property, schema: raw, form: 'wrapped', items, itemName };
        else {
          name = itemName;
          slot = { property, schema: raw, form: 'items', items };
        }
      } else slot = { property, schema: raw, form: 'element' };
      const map = slot.form === 'attribute' ? attributes : elements;
      const taken = map.get(name);
      if (taken) this.problem(path, line, `the schema maps both ${taken.property} and ${property} to ${name}`);
      map.set(name, slot);
    }
    return { attributes, elements };
  }

  /** The schema of an undeclared name: a matching `patternProperties` entry, else `additionalProperties`. */
  private undeclared(s: SchemaNode, name: string): SchemaNode | false | undefined {
    for (const [pattern, schema] of Object.entries((s.patternProperties as Record<string, SchemaNode>) ?? {}))
      if (new RegExp(pattern, 'u').test(name)) return schema;
    const extra = s.additionalProperties;
    if (extra === false) return false;
    return extra && typeof extra === 'object' ? (extra as SchemaNode) : undefined;
  }

  private object(el: XmlElement, s: SchemaNode, path: string): Record<string, unknown> {
    const { attributes, elements } = this.slots(s, path, el.line);
    const out = new Map<string, unknown>();
    const put = (key: string, value: unknown, where: string) => {
      if (out.has(key)) this.problem(where, el.line, `${key} given twice (as an attribute and as an element)`);
      out.set(key, value);
    };
    for (const [name, text] of Object.entries(el.attributes)) {
      if (isNamespaceDeclaration(name)) continue;
      const where = `${path}/@${name}`;
      const slot = attributes.get(name);
      if (slot) put(slot.property, decodeText(text, variants(this.doc, slot.schema)), where);
      else if (elements.has(name)) this.problem(where, el.line, 'an attribute, but the schema makes it an element');
      else {
        const extra = this.undeclared(s, name);
        if (extra === false) this.problem(where, el.line, 'attribute not in the schema (additionalProperties: false)');
        else put(name, extra ? decodeText(text, variants(this.doc, extra)) : text, where);
      }
    }
    const groups = new Map<string, XmlElement[]>();
    for (const child of el.children) groups.set(child.name, [...(groups.get(child.name) ?? []), child]);
    for (const [name, group] of groups) {
      const at = (n: number) => `${path}/${name}${group.length > 1 ? `[${n + 1}]` : ''}`;
      const first = group[0]!;
      const slot = elements.get(name);
      if (slot?.form === 'items') {
        put(
          slot.property,
          group.map((child, n) => this.element(child, slot.items!, at(n), true)),
          at(0),
        );
      } else if (slot?.form === 'wrapped') {
        if (group.length > 1) this.problem(at(1), group[1]!.line, `wrapper <${name}> repeated`);
        put(slot.property, this.wrapped(first, slot, at(0)), at(0));
      } else if (slot) {
        if (group.length > 1)
          this.problem(
            at(1),
            group[1]!.line,
            `<${name}> repeated ${group.length} times, but ${slot.property} is not an array`,
          );
        put(slot.property, this.element(first, slot.schema, at(0), true), at(0));
      } else if (attributes.has(name)) {
        this.problem(at(0), first.line, 'an element, but the schema makes it an attribute');
      } else {
        const extra = this.undeclared(s, name);
        if (extra === false) {
          this.problem(at(0), first.line, 'element not in the schema (additionalProperties: false)');
        } else if (extra === undefined) {
          put(name, group.length === 1 ? generic(first) : group.map(generic), at(0));
        } else {
          const extraFirst = variants(this.doc, extra)[0]!;
          if (typesOf(extraFirst).includes('array')) {
            const items = (extraFirst.items as SchemaNode | undefined) ?? {};
            put(
              name,
              group.map((child, n) => this.element(child, items, at(n), false)),
              at(0),
            );
          } else {
            if (group.length > 1)
              this.problem(
                at(1),
                group[1]!.line,
                `<${name}> repeated ${group.length} times, but its schema is not an array`,
              );
            put(name, this.element(first, extra, at(0), false), at(0));
          }
        }
      }
    }
    if (el.text.trim() !== '')
      this.problem(path, el.line, `text "${el.text.trim().slice(0, 40)}" in an element whose schema is an object`);
    return Object.fromEntries(out);
  }

  private wrapped(wrapper: XmlElement, slot: Slot, path: string): unknown[] {
    const attributes = Object.keys(wrapper.attributes).filter((a) => !isNamespaceDeclaration(a));
    if (attributes.length > 0)
      this.problem(path, wrapper.line, `attribute ${attributes.join(', ')} on a wrapper element`);
    if (wrapper.text.trim() !== '') this.problem(path, wrapper.line, 'text in a wrapper element');
    const values: unknown[] = [];
    wrapper.children.forEach((child, n) => {
      const where = `${path}/${child.name}[${n + 1}]`;
      if (child.name === slot.itemName) values.push(this.element(child, slot.items!, where, true));
      else
        this.problem(
          where,
          child.line,
          `<${child.name}> in wrapper <${wrapper.name}>, whose items are <${slot.itemName}>`,
        );
    });
    return values;
  }
}

/** An element no schema describes: text alone as a string, else an object of attributes, children and `#text`. */
function generic(el: XmlElement): unknown {
  const attributes = Object.entries(el.attributes).filter(([a]) => !isNamespaceDeclaration(a));
  if (attributes.length === 0 && el.children.length === 0) return el.text;
  const out = new Map<string, unknown>(attributes);
  const groups = new Map<string, XmlElement[]>();
  for (const child of el.children) groups.set(child.name, [...(groups.get(child.name) ?? []), child]);
  for (const [name, group] of groups) out.set(name, group.length === 1 ? generic(group[0]!) : group.map(generic));
  if (el.text.trim() !== '') out.set('#text', el.text);
  return Object.fromEntries(out);
}

/**
 * Decodes `element` against `schema`, a schema of the OpenAPI document `doc` (local `$ref`s resolve against it).
 * The root element must carry the schema's `xml.name` when it has one.
 */
export function decodeXmlElement(doc: SchemaNode, schema: SchemaNode, element: XmlElement): XmlDecodeResult {
  const decoder = new Decoder(doc);
  const value = decoder.element(element, schema, `/${element.name}`, true);
  return { value, problems: decoder.problems };
}
