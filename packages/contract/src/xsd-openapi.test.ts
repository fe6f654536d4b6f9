import { afterAll, describe, expect, it } from 'vitest';
import { listSpecNames, loadSpec } from './specs.js';
import { closeXmlValidator, validateXml } from './xsd.js';
import type { XmlBodyKind } from './xsd-kinds.js';
import {
  alternatives,
  type ExampleMode,
  renderElement,
  resolveSchema,
  type SchemaNode,
  samplePattern,
} from './xsd-openapi-example.js';
import { kindOfSchema } from './xsd-openapi-kinds.js';

afterAll(closeXmlValidator);

const refName = (s: SchemaNode) => (typeof s.$ref === 'string' ? s.$ref.split('/').pop()! : undefined);

interface Example {
  readonly id: string;
  readonly kind: XmlBodyKind;
  readonly xml: string;
}

/**
 * Every XML body schema of every spec (request and response content `application/xml` or `text/xml`), each of
 * its top-level alternatives, rendered in both modes. The kind comes from the schema the operation names: the
 * success schema of an `anyOf [success, failure]` names the kind for the failure alternatives too, since
 * a failure may stand in for any success shape (specs/xsd/README.md).
 */
function collectExamples(): { examples: Example[]; unmapped: string[] } {
  const examples = new Map<string, Example>();
  const unmapped = new Set<string>();
  // portal-action.generic is a single-path view whose responses are the union of every operation's bodies, all
  // of them schemas of portal-action's components; portal-action checks each of them with its own kind.
  for (const spec of listSpecNames().filter((s) => s !== 'portal-action.generic')) {
    const doc = loadSpec(spec) as unknown as SchemaNode;
    const paths = (doc.paths ?? {}) as Record<string, Record<string, SchemaNode>>;
    for (const item of Object.values(paths)) {
      for (const op of Object.values(item)) {
        if (!op || typeof op !== 'object' || !('responses' in op)) continue;
        const bodies: SchemaNode[] = [];
        const requestBody = op.requestBody ? resolveSchema(doc, op.requestBody as SchemaNode) : undefined;
        if (requestBody) bodies.push(requestBody);
        for (const r of Object.values(op.responses as Record<string, SchemaNode>)) bodies.push(resolveSchema(doc, r));
        for (const body of bodies) {
          for (const [type, media] of Object.entries((body.content ?? {}) as Record<string, SchemaNode>)) {
            if (!/[/+]xml$/.test(type) || !media.schema) continue;
            const schema = media.schema as SchemaNode;
            const options = (schema.anyOf ?? schema.oneOf ?? [schema]) as SchemaNode[];
            const named = options.map(refName).filter((n): n is string => n !== undefined);
            const kind =
              named.map(kindOfSchema).find((k) => k !== undefined && k !== 'error-only' && k !== 'portal-result') ??
              named.map(kindOfSchema).find((k) => k !== undefined);
            if (!kind) {
              unmapped.add(`${spec}: ${named.join(' | ') || JSON.stringify(schema)}`);
              continue;
            }
            for (const option of options) {
              const name = refName(option) ?? 'inline';
              alternatives(doc, option).forEach((alt, n) => {
                for (const mode of ['full', 'minimal'] as ExampleMode[]) {
                  const id = `${spec} ${name}${n > 0 ? `#${n}` : ''} as ${kind} (${mode})`;
                  if (!examples.has(id)) examples.set(id, { id, kind, xml: renderElement(doc, alt, name, mode) });
                }
              });
            }
          }
        }
      }
    }
  }
  return { examples: [...examples.values()], unmapped: [...unmapped] };
}

const { examples, unmapped } = collectExamples();

/**
 * Documents on which the OpenAPI specs and the XSDs disagree today, with the reason. The test fails when one
 * of them starts to validate, so that the entry gets removed.
 */
const knownMismatches: Record<string, string> = {};

describe('OpenAPI xml annotations and XSD describe the same documents', () => {
  it('finds XML bodies in the specs', () => {
    expect(examples.length).toBeGreaterThan(20);
  });

  it('maps every XML body schema to an XSD kind, or only the bodies the docs leave unshown', () => {
    // record-rest PATCH: "Response body of PATCH: not shown" (record-rest-api.md §4 rule 9), an empty schema.
    expect(unmapped.filter((u) => u !== 'record-rest: {}')).toEqual([]);
  });

  it.each(examples.map((e) => [e.id, e] as const))('%s', async (_id, example) => {
    const result = await validateXml(example.xml, example.kind);
    const known = knownMismatches[example.id];
    if (known) {
      expect(result.valid, `known mismatch now validates, remove it: ${known}`).toBe(false);
    } else {
      expect(result.errors, example.xml).toEqual([]);
      expect(result.valid).toBe(true);
    }
  });
});

describe('samplePattern', () => {
  it.each([
    '^/api/[0-9]+/IVVc/[^/]+$',
    '^-?[0-9]+$',
    '^(0|[1-9][0-9]*)$',
    '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
    '^/api/[0-9]+/[A-Za-z0-9]+(/[^/]*)+$',
  ])('samples a string that %s matches', (pattern) => {
    expect(samplePattern(pattern)).toMatch(new RegExp(pattern, 'u'));
  });
});
