/**
 * Every documented path of every documented response body of the two OpenAPI documents (issue 18 "Rules own
 * the parts of bodies"): the element, attribute or member, with what its schema says of it. XML bodies are
 * walked through their `xml` objects, which specs/xsd agrees with (xsd-openapi.test.ts, both directions), and
 * named by their XSD kind; JSON bodies by their component schema. Paths follow body-paths.ts.
 *
 * Left out, because they are not documented: bodies and members marked `x-erpcert-standing: observed`
 * (registers and fields that live servers show beyond the docs, the REST error shapes), members marked
 * `x-erpcert-not-shown`, and open bodies (`PortalOpenData`, "not shown").
 */

import type { OpenApiDocument, SpecName } from './specs.js';
import { alternatives, flatten, type SchemaNode } from './xsd-openapi-example.js';
import { kindOfSchema } from './xsd-openapi-kinds.js';

/** One documented path and what the schema says of its value. */
export interface DocumentedPath {
  /** `<body>:<steps>` (body-paths.ts). */
  readonly path: string;
  readonly body: string;
  readonly format: 'xml' | 'json';
  readonly spec: SpecName;
  /** The component schema of the body. */
  readonly schema: string;
  /** The parent requires it (an XML attribute, element or JSON member that must be there). */
  readonly required: boolean;
  /** An XML attribute. */
  readonly attribute: boolean;
  /** `string`, `number`, `integer`, `boolean`, `object`, `array`; undefined when the schema leaves it open. */
  readonly type?: string;
  /** A JSON member that is an array: `type` and the value constraints are those of its items. */
  readonly array?: true;
  readonly valueFormat?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly pattern?: string;
  readonly minLength?: number;
  /** The parent refuses members it does not list (a renamed member is then visible). */
  readonly closedParent: boolean;
}

const isObservedOrHidden = (s: SchemaNode) =>
  s['x-erpcert-standing'] === 'observed' || s['x-erpcert-not-shown'] !== undefined;

/** Component schemas named by the 2XX responses (the success bodies and the documented failures) of `spec`. */
export function responseBodySchemas(doc: OpenApiDocument): string[] {
  const names = new Set<string>();
  const pickRef = (s: unknown) => {
    const ref = (s as { $ref?: string } | undefined)?.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) names.add(ref.split('/').pop()!);
  };
  const d = doc as unknown as SchemaNode;
  for (const item of Object.values((d.paths as Record<string, SchemaNode>) ?? {})) {
    for (const op of Object.values(item)) {
      const responses = (op as SchemaNode | undefined)?.responses as Record<string, SchemaNode> | undefined;
      for (const [status, raw] of Object.entries(responses ?? {})) {
        if (status === 'default') continue;
        let r = raw;
        if (typeof r.$ref === 'string')
          r = (r.$ref as string)
            .slice(2)
            .split('/')
            .reduce<SchemaNode>((a, k) => a[k] as SchemaNode, d);
        for (const c of Object.values((r.content as Record<string, SchemaNode>) ?? {})) {
          const s = c.schema as SchemaNode | undefined;
          if (!s) continue;
          pickRef(s);
          for (const alt of (s.anyOf ?? s.oneOf ?? []) as unknown[]) pickRef(alt);
        }
      }
    }
  }
  const schemas = (d.components as SchemaNode).schemas as Record<string, SchemaNode>;
  return [...names]
    .filter((n) => schemas[n] && !isObservedOrHidden(schemas[n]!) && n !== 'PortalOpenData')
    .filter((n) => !/^Observed/.test(n))
    .sort();
}

/** Whether a body schema is an XML body (it carries an `xml` object, or its XSD kind is known). */
function isXmlSchema(doc: SchemaNode, name: string): boolean {
  if (/Xml$/.test(name)) return true;
  const s = flatten(doc, { $ref: `#/components/schemas/${name}` });
  return s.xml !== undefined || (kindOfSchema(name) !== undefined && !/Json/.test(name));
}

interface Walk {
  readonly doc: SchemaNode;
  readonly out: Map<string, DocumentedPath>;
  readonly base: Omit<DocumentedPath, 'path' | 'required' | 'attribute' | 'closedParent'>;
}

const xmlName = (s: SchemaNode): string | undefined => (s.xml as { name?: string } | undefined)?.name;
const xmlFlag = (s: SchemaNode, key: 'attribute' | 'wrapped') =>
  (s.xml as Record<string, unknown> | undefined)?.[key] === true;

function record(
  w: Walk,
  path: string,
  s: SchemaNode,
  required: boolean,
  attribute: boolean,
  closedParent: boolean,
  array = false,
) {
  if (w.out.has(path)) {
    const prev = w.out.get(path)!;
    // a path in several alternatives is required only where every alternative requires it
    if (prev.required && !required) w.out.set(path, { ...prev, required: false });
    return;
  }
  const type = typeof s.type === 'string' ? s.type : undefined;
  w.out.set(path, {
    ...w.base,
    path,
    required,
    attribute,
    closedParent,
    ...(array ? { array: true as const } : {}),
    ...(type === undefined ? {} : { type }),
    ...(typeof s.format === 'string' ? { valueFormat: s.format } : {}),
    ...(Array.isArray(s.enum) ? { enum: s.enum } : {}),
    ...('const' in s ? { const: s.const } : {}),
    ...(typeof s.pattern === 'string' ? { pattern: s.pattern } : {}),
    ...(typeof s.minLength === 'number' ? { minLength: s.minLength } : {}),
  });
}

function walk(w: Walk, schema: SchemaNode, path: string, xml: boolean, depth: number): void {
  if (depth > 12) return;
  for (const alt of alternatives(w.doc, schema)) {
    if (alt.type === 'array') {
      walk(w, (alt.items as SchemaNode) ?? {}, path, xml, depth + 1);
      continue;
    }
    const props = (alt.properties as Record<string, SchemaNode> | undefined) ?? {};
    const required = new Set((alt.required as string[] | undefined) ?? []);
    const closed = alt.additionalProperties === false;
    for (const [prop, raw] of Object.entries(props)) {
      const p = flatten(w.doc, raw);
      // a member marked not shown is undocumented, unless it is an object whose own members the docs give
      // (the login result: that its fields are attributes is what is not shown)
      if (p['x-erpcert-standing'] === 'observed' || raw['x-erpcert-standing'] === 'observed') continue;
      if ((isObservedOrHidden(p) || isObservedOrHidden(raw)) && p.properties === undefined) continue;
      const req = required.has(prop);
      if (!xml) {
        const child = `${path}/${prop}`;
        const item = p.type === 'array' ? flatten(w.doc, (p.items as SchemaNode) ?? {}) : p;
        record(w, child, item, req, false, closed, p.type === 'array');
        walk(w, p, child, xml, depth + 1);
        continue;
      }
      if (xmlFlag(p, 'attribute')) {
        record(w, `${path}/@${xmlName(p) ?? prop}`, p, req, true, closed);
        continue;
      }
      if (p.type === 'array') {
        const items = flatten(w.doc, (p.items as SchemaNode) ?? {});
        const itemName = xmlName(items) ?? prop;
        let at = path;
        if (xmlFlag(p, 'wrapped')) {
          at = `${path}/${xmlName(p) ?? prop}`;
          record(w, at, p, req, false, closed);
        }
        const child = `${at}/${itemName}`;
        record(w, child, items, req && !xmlFlag(p, 'wrapped') && Number(p.minItems ?? 0) > 0, false, closed);
        walk(w, items, child, xml, depth + 1);
        continue;
      }
      const child = `${path}/${xmlName(p) ?? prop}`;
      record(w, child, p, req, false, closed);
      walk(w, p, child, xml, depth + 1);
    }
  }
}

/** The documented paths of one body schema of `spec`. */
export function pathsOfBody(doc: OpenApiDocument, spec: SpecName, schema: string): DocumentedPath[] {
  const d = doc as unknown as SchemaNode;
  const xml = isXmlSchema(d, schema);
  const body = xml ? (kindOfSchema(schema) ?? schema) : schema;
  const out = new Map<string, DocumentedPath>();
  const root: SchemaNode = { $ref: `#/components/schemas/${schema}` };
  const w: Walk = { doc: d, out, base: { body, format: xml ? 'xml' : 'json', spec, schema } };
  for (const alt of alternatives(d, root)) {
    if (xml) {
      const name = xmlName(alt) ?? schema;
      record(w, `${body}:${name}`, alt, true, false, false);
      walk(w, alt, `${body}:${name}`, true, 0);
    } else walk(w, alt, `${body}:`.slice(0, -1), false, 0);
  }
  // JSON paths were built as `<body>/<member>`: the first separator is the body's colon
  return [...out.values()].map((p) => (xml ? p : { ...p, path: p.path.replace('/', ':') }));
}

/** Every documented path of every documented response body of the given specs, keyed by path. */
export function documentedPaths(specs: readonly { name: SpecName; doc: OpenApiDocument }[]): DocumentedPath[] {
  const out = new Map<string, DocumentedPath>();
  for (const { name, doc } of specs)
    for (const schema of responseBodySchemas(doc))
      for (const p of pathsOfBody(doc, name, schema)) if (!out.has(p.path)) out.set(p.path, p);
  return [...out.values()];
}

/** The required documented children (`name`, `@name`) of each documented path, for schema-blame.ts. */
export function requiredChildrenOf(paths: readonly DocumentedPath[]): (path: string) => readonly string[] {
  const byParent = new Map<string, string[]>();
  for (const p of paths) {
    if (!p.required) continue;
    const cut = p.path.lastIndexOf('/');
    if (cut < 0) continue;
    const parent = p.path.slice(0, cut);
    byParent.set(parent, [...(byParent.get(parent) ?? []), p.path.slice(cut + 1)]);
  }
  return (path) => byParent.get(path) ?? [];
}

/** Whether a path (`<body>:<steps>`) is one of `paths`. */
export function isDocumentedIn(paths: readonly DocumentedPath[]): (path: string) => boolean {
  const set = new Set(paths.map((p) => p.path));
  return (path) => set.has(path);
}
