import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateJsonBody } from './json-schema.js';
import { repoRoot } from './paths.js';
import { loadSpec, type SpecName } from './specs.js';
import { decodeXmlElement } from './xml-openapi-decode.js';
import { parseXml, type XmlElement } from './xml-tree.js';
import { closeXmlValidator, validateXml } from './xsd.js';
import { detectXmlBodyKind } from './xsd-detect.js';
import { type XmlBodyKind, xmlBodyKinds } from './xsd-kinds.js';
import { flatten, type SchemaNode } from './xsd-openapi-example.js';
import { kindOfSchema } from './xsd-openapi-kinds.js';

// The reverse of xsd-openapi.test.ts (issue 2: "The OpenAPI `xml` annotations and the XSD must describe the same
// documents"): every document the XSD accepts, here every valid fixture, must be one the OpenAPI schema accepts.

afterAll(closeXmlValidator);

const fixturesDir = join(repoRoot, 'packages', 'contract', 'test', 'fixtures', 'xml');
const fixtureNames = readdirSync(fixturesDir)
  .filter((f) => f.endsWith('.xml'))
  .sort();
const specNames: readonly SpecName[] = ['record-rest', 'portal-action'];
const docs = Object.fromEntries(specNames.map((s) => [s, loadSpec(s) as unknown as SchemaNode])) as Record<
  SpecName,
  SchemaNode
>;
const componentSchemas = (spec: SpecName) =>
  ((docs[spec].components as SchemaNode).schemas ?? {}) as Record<string, SchemaNode>;

/** A component schema that describes an XML body part, with its kind (the forward test's mapping) and root element. */
interface XmlSchema {
  readonly spec: SpecName;
  readonly name: string;
  readonly kind: XmlBodyKind;
  readonly root: string | undefined;
}

const xmlSchemas: readonly XmlSchema[] = specNames.flatMap((spec) =>
  Object.keys(componentSchemas(spec)).flatMap((name) => {
    const kind = kindOfSchema(name);
    if (!kind) return [];
    const schema = flatten(docs[spec], { $ref: `#/components/schemas/${name}` });
    return [{ spec, name, kind, root: (schema.xml as { name?: string } | undefined)?.name }];
  }),
);

/**
 * The failure alternatives of every portal XML result (`PortalFailure`: `<error>` or a non-empty errstr,
 * portal-action-api.md §7). A success body is not expected to match them, so they are targets for failure bodies only.
 */
const failureSchemas = new Set(
  ((componentSchemas('portal-action').PortalFailure?.anyOf ?? []) as SchemaNode[]).map((s) =>
    String(s.$ref).split('/').pop(),
  ),
);

/** portal-action-api.md §7: an `<error>` element, or a `<res>` under `<data>` with a non-empty errstr. */
function reportsFailure(roots: readonly XmlElement[]): boolean {
  return roots.some(
    (r) =>
      r.name === 'error' ||
      (r.name === 'data' && r.children.some((c) => c.name === 'res' && (c.attributes.errstr ?? '') !== '')),
  );
}

/** The register a body is about, for the kinds whose schemas exist per register (`<R>EnvelopeXml`, `PortalList<R>`). */
function registerOf(root: XmlElement, kind: XmlBodyKind): string | undefined {
  if (kind === 'rest-envelope' || kind === 'rest-block') return root.attributes.register;
  if (kind === 'portal-list' || kind === 'portal-arap-list') return root.children[0]?.name;
  return undefined;
}

const schemaRegister = (name: string) => /^(.+)EnvelopeXml$/.exec(name)?.[1] ?? /^PortalList(.+)$/.exec(name)?.[1];

/**
 * The OpenAPI schemas one top-level element of a body of `kind` must satisfy: those of its kind (`<error>` and
 * `<message>` are `error-only` parts of any body) in the spec of that kind, whose root element has the element's
 * name, for the body's register where schemas exist per register (all of them when the body names none, as an
 * empty list page); failure alternatives only for failure bodies.
 */
function targetsOf(root: XmlElement, kind: XmlBodyKind, failure: boolean): XmlSchema[] {
  const partKind: XmlBodyKind = root.name === 'error' || root.name === 'message' ? 'error-only' : kind;
  const specs: readonly SpecName[] =
    kind === 'error-only' ? specNames : kind.startsWith('rest-') ? ['record-rest'] : ['portal-action'];
  const register = registerOf(root, kind);
  return xmlSchemas.filter(
    (s) =>
      specs.includes(s.spec) &&
      s.kind === partKind &&
      s.root === root.name &&
      (failure || !failureSchemas.has(s.name)) &&
      (register === undefined || schemaRegister(s.name) === undefined || schemaRegister(s.name) === register),
  );
}

interface Fixture {
  readonly file: string;
  readonly body: string;
  readonly kind: XmlBodyKind | undefined;
  readonly roots: readonly XmlElement[];
}

const fixtures: readonly Fixture[] = fixtureNames.map((file) => {
  const body = readFileSync(join(fixturesDir, file), 'utf8');
  return { file, body, kind: detectXmlBodyKind(body), roots: parseXml(body).roots };
});

interface Case {
  readonly id: string;
  readonly target: XmlSchema;
  readonly element: XmlElement;
}

const cases: Case[] = [];
const unmapped: string[] = [];
for (const f of fixtures) {
  if (!f.kind) continue;
  const failure = reportsFailure(f.roots);
  for (const root of f.roots) {
    const targets = targetsOf(root, f.kind, failure);
    if (targets.length === 0) unmapped.push(`${f.file} <${root.name}> (${f.kind})`);
    for (const target of targets)
      cases.push({ id: `${f.file} <${root.name}> as ${target.spec} ${target.name}`, target, element: root });
  }
}

/**
 * Fixtures the XSD accepts and the OpenAPI schema rejects today, with the reason they cannot be settled. The
 * test fails when one of them starts to validate, so that the entry gets removed.
 */
const errorText =
  'an <error> with text content: the XSD keeps the content of <error> open (mixed), since the docs show none ' +
  '(portal-action-api.md §7, record-rest-api.md §7: not shown), while an OpenAPI 3.1 XML Object cannot map the ' +
  'text of an element that also has attribute properties (no text-node mapping before OpenAPI 3.2 `nodeType`). ' +
  'Closing the XSD would invent contract, so the difference stays';
const knownMismatches: Record<string, string> = {
  'error-with-text.xml <error> as record-rest ObservedErrorXml': errorText,
  'error-with-text.xml <error> as portal-action PortalError': errorText,
};

describe('XSD fixtures decode into the OpenAPI schemas of their kind', () => {
  it('has a valid fixture of every XSD kind', () => {
    expect(new Set(fixtures.map((f) => f.kind))).toEqual(new Set(xmlBodyKinds));
  });

  it.each(fixtures.map((f) => [f.file, f] as const))('%s is valid against the XSD of its kind', async (_file, f) => {
    expect(f.kind, 'detectXmlBodyKind found no kind').toBeDefined();
    const result = await validateXml(f.body, f.kind!);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('maps every top-level element of every fixture to an OpenAPI schema', () => {
    expect(unmapped).toEqual([]);
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', (id, c) => {
    const { value, problems } = decodeXmlElement(
      docs[c.target.spec],
      { $ref: `#/components/schemas/${c.target.name}` },
      c.element,
    );
    const result = validateJsonBody(docs[c.target.spec] as never, c.target.name, value);
    const found = [...problems, ...result.errors];
    const known = knownMismatches[id];
    if (known) expect(found, `known mismatch now validates, remove it: ${known}`).not.toEqual([]);
    else expect(found, JSON.stringify(value)).toEqual([]);
  });
});
