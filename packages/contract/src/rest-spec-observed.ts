import type { ObservedCatalogue, ObservedRegister } from './observed.js';
import type { RegisterDef } from './registers.js';
import { registerPaths, registerResponse } from './rest-spec-paths.js';
import { type BaseSchemas, type Node, type ObservedSources, registerSchemas } from './rest-spec-schemas.js';

/** How every part of a register beyond the documented 38 is marked, with the evidence of the file it comes from. */
function markOf(catalogue: ObservedCatalogue): Node {
  return {
    'x-erpcert-standing': 'observed',
    'x-erpcert-observed': `served by live servers (${catalogue.evidence}); the docs name "more than 38 registers" without listing them`,
  };
}
const ref = (name: string): Node => ({ $ref: `#/components/schemas/${name}` });
const OPERATIONS = ['get', 'post', 'patch'];

/** Marks every operation of a path item observed. */
function markOperations(item: Node, mark: Node): Node {
  const out: Node = { ...item };
  for (const m of OPERATIONS) if (out[m]) out[m] = { ...(out[m] as Node), ...mark };
  return out;
}

/**
 * The XML form of a settings block (specs/xsd/rest-block.xsd, kind `rest-block`): `<data register sequence
 * systemversion>` holding one `<R register="R">` whose only child is `<rows>` with `<row rownumber>` lines. The
 * block is no record: it carries no `sequence` or `url`, so it is not a `rest-envelope`.
 */
function blockXmlSchemas(reg: ObservedRegister, base: BaseSchemas, mark: Node): Node {
  const R = reg.name;
  const rowFields = Object.fromEntries(reg.rowFields.map((f) => [f, { type: 'string' }]));
  const envelope = base.EnvelopeDataXml;
  return {
    [`${R}RowXml`]: {
      description: `XML form of a ${R} line: \`<row rownumber>\` with one element per row field.`,
      type: 'object',
      required: base.RowBaseXml.required,
      properties: { ...(base.RowBaseXml.properties as Node), ...rowFields },
      additionalProperties: base.RowBaseXml.additionalProperties,
      xml: { name: 'row' },
      ...mark,
    },
    [`${R}BlockXml`]: {
      description: `XML form of the one ${R} record: \`<${R} register="${R}">\` holding \`<rows>\` and nothing else.`,
      type: 'object',
      required: ['rows'],
      properties: {
        register: { type: 'string', const: R, xml: { attribute: true } },
        rows: { type: 'array', xml: { name: 'rows', wrapped: true }, items: ref(`${R}RowXml`) },
      },
      additionalProperties: false,
      xml: { name: R },
      ...mark,
    },
    [`${R}EnvelopeXml`]: {
      description: `XML envelope of the ${R} settings block: \`<data register="${R}" sequence systemversion>\` holding one \`<${R}>\`.`,
      type: 'object',
      required: [...(envelope.required as string[]), R],
      properties: {
        ...(envelope.properties as Node),
        register: { ...((envelope.properties as Node).register as Node), const: R },
        [R]: ref(`${R}BlockXml`),
      },
      xml: { name: 'data' },
      ...mark,
    },
  };
}

/** The schemas, response and paths of a settings block: GET only, `{rows: [...]}` under the register key. */
function blockParts(
  reg: ObservedRegister,
  base: BaseSchemas,
  mark: Node,
): { schemas: Node; response: Node; paths: Node } {
  const R = reg.name;
  const rowFields = Object.fromEntries(reg.rowFields.map((f) => [f, { type: 'string' }]));
  const schemas: Node = {
    [`${R}Row`]: {
      description: `A line of the ${R} settings block (${reg.meaning}).`,
      type: 'object',
      required: base.RowBase.required,
      properties: { ...(base.RowBase.properties as Node), ...rowFields },
      additionalProperties: base.RowBase.additionalProperties,
      ...mark,
    },
    [`${R}Block`]: {
      description: `The one ${R} record: an object holding \`rows\`, not an array of records.`,
      type: 'object',
      required: ['rows'],
      properties: { rows: { type: 'array', items: ref(`${R}Row`) } },
      additionalProperties: true,
      ...mark,
    },
    [`${R}Envelope`]: {
      description: `JSON envelope of the ${R} settings block.`,
      type: 'object',
      required: ['data'],
      properties: {
        data: {
          type: 'object',
          required: ['@register', '@sequence', R],
          properties: {
            ...(base.EnvelopeData.properties as Node),
            '@register': { type: 'string', const: R },
            [R]: ref(`${R}Block`),
          },
        },
      },
      ...mark,
    },
    ...blockXmlSchemas(reg, base, mark),
  };
  // like every REST answer, a refusal may come with HTTP 200 in the observed error shape
  const orError = (schema: string, error: string): Node => ({ anyOf: [ref(schema), ref(error)] });
  const xml = { schema: orError(`${R}EnvelopeXml`, 'ObservedErrorXml') };
  const response: Node = {
    description:
      `The ${R} settings block. XML by default (as every REST answer, record-rest-api.md §1), JSON with ` +
      '`Accept: application/json`. A refusal may come with HTTP 200 in the observed error shapes.',
    headers: { Sequence: { $ref: '#/components/headers/Sequence' } },
    content: {
      'application/json': { schema: orError(`${R}Envelope`, 'ObservedErrorJson') },
      'application/xml': xml,
      'text/xml': xml,
    },
    ...mark,
  };
  const paths: Node = {
    [`/api/1/${R}`]: {
      get: {
        operationId: `get${R}`,
        tags: [R],
        summary: `The ${reg.meaning}`,
        parameters: [{ $ref: '#/components/parameters/compcode' }],
        responses: {
          '2XX': { $ref: `#/components/responses/${R}Envelope` },
          default: { $ref: '#/components/responses/ObservedError' },
        },
        ...mark,
      },
    },
  };
  return { schemas, response, paths };
}

/**
 * The list GET of an observed register offers only what the register answers (specs/observed-fields.yaml):
 * `filter.<F>` for its `filters`, and `updates_after`/`deletes_after` only among its `feeds` (a register without a
 * synchronisation index answers them 404 in plain text).
 */
function observedListParams(item: Node, reg: ObservedRegister): Node {
  const get = item.get as Node | undefined;
  if (!get || !Array.isArray(get.parameters)) return item;
  const kept = (get.parameters as Node[]).filter((p) => {
    const name = typeof p.name === 'string' ? p.name : ((p.$ref as string | undefined)?.split('/').pop() ?? '');
    if (name.startsWith('filter.')) return reg.filters.includes(name.slice('filter.'.length));
    if (name === 'updates_after' || name === 'deletes_after') return reg.feeds.includes(name);
    return true;
  });
  const notes = [
    `\`filter.<F>\` works on ${reg.filters.length > 0 ? reg.filters.join(', ') : 'no field'} (observed).`,
    reg.feeds.length === 0
      ? 'Not a base register: its records carry no UUID or ServerSequence, and updates_after/deletes_after answer 404 in plain text (observed).'
      : '',
  ].filter(Boolean);
  return { ...item, get: { ...get, parameters: kept, description: `${get.description} ${notes.join(' ')}` } };
}

/**
 * The registers of one catalogue (specs/observed-fields.yaml, or a team's own registers file in its format) as spec
 * parts: a plain register gets what a documented one gets, every operation, tag and schema marked
 * `x-erpcert-standing: observed` with the catalogue's evidence; a block gets its own shape. Observed fields of any
 * register come from `sources`.
 */
export function observedRegisterParts(
  base: BaseSchemas,
  catalogue: ObservedCatalogue,
  sources: ObservedSources,
): {
  schemas: Node;
  responses: Node;
  paths: Node;
  tags: Node[];
} {
  const mark = markOf(catalogue);
  const out = { schemas: {} as Node, responses: {} as Node, paths: {} as Node, tags: [] as Node[] };
  for (const reg of catalogue.registers) {
    out.tags.push({ name: reg.name, description: reg.meaning, ...mark });
    if (reg.block) {
      const parts = blockParts(reg, base, mark);
      Object.assign(out.schemas, parts.schemas);
      out.responses[`${reg.name}Envelope`] = parts.response;
      Object.assign(out.paths, parts.paths);
      continue;
    }
    const def: RegisterDef = {
      name: reg.name,
      meaning: reg.meaning,
      key: reg.key,
      fields: reg.fields,
      rowFields: reg.rowFields,
      readOnly: reg.readOnly,
    };
    for (const [name, schema] of Object.entries(registerSchemas(def, base, sources)))
      out.schemas[name] = { ...(schema as Node), ...mark };
    out.responses[`${reg.name}Envelope`] = { ...registerResponse(def), ...mark };
    for (const [path, item] of Object.entries(registerPaths(def, sources)))
      out.paths[path] = markOperations(observedListParams(item as Node, reg), mark);
  }
  return out;
}
