/**
 * Builds the record REST OpenAPI document from specs/src/record-rest.base.yaml (the hand-written shared part),
 * specs/registers.yaml (one path set and one schema set per register), specs/observed-fields.yaml and, for
 * `erpcert spec --registers FILE`, a team's own registers file. scripts/generate-rest-spec.ts writes the committed
 * specs/record-rest.openapi.yaml with it (no team file).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document, isScalar, parse, visit } from 'yaml';
import { type ObservedCatalogue, observed } from './observed.js';
import { specsDir } from './paths.js';
import { registers as catalogue, type RegisterDef } from './registers.js';
import { observedRegisterParts } from './rest-spec-observed.js';
import { registerPaths, registerResponse } from './rest-spec-paths.js';
import { type BaseSchemas, type Node, type ObservedSources, registerSchemas } from './rest-spec-schemas.js';

export type { Node as SpecNode } from './rest-spec-schemas.js';

/** The hand-written shared part. */
export const restBaseFile = join(specsDir, 'src', 'record-rest.base.yaml');

function section(doc: Node, key: string): Node {
  const value = doc[key];
  if (!value || typeof value !== 'object') throw new Error(`${restBaseFile}: missing "${key}"`);
  return value as Node;
}

/** Adds `extra` to `into`, refusing a name that is already there (`what` names the kind in the message). */
function addNew(into: Node, extra: Node, what: string): void {
  for (const name of Object.keys(extra)) if (name in into) throw new Error(`${what} ${name} already exists`);
  Object.assign(into, extra);
}

/**
 * Merges the base document with every register and, for the full catalogue, the observed registers and then the
 * registers of each team catalogue in `teams`, all marked `x-erpcert-standing: observed` (the fields a team file
 * adds to a register of the document likewise). Key order is fixed, so the output is deterministic.
 */
export function buildRestSpec(
  base: Node,
  regs: readonly RegisterDef[] = catalogue,
  teams: readonly ObservedCatalogue[] = [],
): Node {
  const components = section(base, 'components');
  const baseSchemas = section(components, 'schemas');
  for (const name of ['RecordBase', 'RowBase', 'EnvelopeData', 'RecordBaseXml', 'RowBaseXml', 'EnvelopeDataXml'])
    section(baseSchemas, name);
  const sources: ObservedSources = [observed, ...teams];
  const schemas: Node = { ...baseSchemas };
  const responses: Node = { ...section(components, 'responses') };
  const paths: Node = { ...section(base, 'paths') };
  const tags = [...((base.tags as Node[] | undefined) ?? [])];
  for (const reg of regs) {
    const generated = registerSchemas(reg, baseSchemas as unknown as BaseSchemas, sources);
    for (const name of Object.keys(generated))
      if (name in schemas) throw new Error(`schema ${name} of register ${reg.name} already exists`);
    Object.assign(schemas, generated);
    responses[`${reg.name}Envelope`] = registerResponse(reg);
    Object.assign(paths, registerPaths(reg, sources));
    tags.push({
      name: reg.name,
      description: reg.meaning,
      ...(reg.readOnly ? { 'x-erpcert-read-only': true } : {}),
    });
  }
  if (regs === catalogue) {
    // the registers live servers serve beyond the 38 (specs/observed-fields.yaml), then a team's own, all observed
    for (const [i, extraCatalogue] of sources.entries()) {
      const what = i === 0 ? 'observed' : 'registers file';
      const extra = observedRegisterParts(baseSchemas as unknown as BaseSchemas, extraCatalogue, sources);
      addNew(schemas, extra.schemas, `${what}: schema`);
      addNew(responses, extra.responses, `${what}: response`);
      addNew(paths, extra.paths, `${what}: path`);
      tags.push(...extra.tags);
    }
  }
  const { tags: _t, paths: _p, components: _c, ...rest } = base;
  const out: Node = {};
  // fixed top-level order: openapi, info, servers, security, tags, paths, webhooks, components, extensions
  for (const key of ['openapi', 'info', 'servers', 'security']) if (key in rest) out[key] = rest[key];
  out.tags = tags;
  out.paths = paths;
  for (const [key, value] of Object.entries(rest)) if (!(key in out) && !key.startsWith('x-')) out[key] = value;
  out.components = { ...components, schemas, responses };
  for (const [key, value] of Object.entries(rest)) if (key.startsWith('x-')) out[key] = value;
  return out;
}

/** The record REST document of the full catalogue from the committed base file, with `teams`' registers added. */
export function restSpecDocument(teams: readonly ObservedCatalogue[] = []): Node {
  const base = parse(readFileSync(restBaseFile, 'utf8')) as Node;
  return buildRestSpec(base, catalogue, teams);
}

/** YAML text with short all-scalar maps in flow style (`{ type: string }`) to keep the file readable. */
export function toYaml(value: unknown): string {
  const doc = new Document(value, { aliasDuplicateObjects: false });
  visit(doc, {
    Map(_, node) {
      if (node.items.length === 0 || node.items.length > 3) return;
      let width = 0;
      for (const { key, value } of node.items) {
        if (!isScalar(value) || String(value.value).includes('\n')) return;
        width += String(key).length + String(value.value).length + 4;
      }
      if (width <= 80) node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}
