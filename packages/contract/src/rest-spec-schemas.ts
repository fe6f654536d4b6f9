import { type ObservedCatalogue, observed } from './observed.js';
import type { RegisterDef } from './registers.js';

/** A JSON-ish node of the OpenAPI document under construction. */
export type Node = Record<string, unknown>;

/** The base schemas the register schemas are copied from (specs/src/record-rest.base.yaml). */
export interface BaseSchemas {
  readonly RecordBase: Node;
  readonly RowBase: Node;
  readonly EnvelopeData: Node;
  readonly RecordBaseXml: Node;
  readonly RowBaseXml: Node;
  readonly EnvelopeDataXml: Node;
}

const REGISTERS_DOC = 'record-rest-api.md#registers-keys-and-main-fields';
const RECORD_DOC = 'record-rest-api.md#record';
const ref = (name: string): Node => ({ $ref: `#/components/schemas/${name}` });
const FIELD_NAME = '[A-Za-z][A-Za-z0-9_]*';

/** Field schema: a string; OKFlag also carries its documented values (record-rest-api.md §3). */
function fieldSchema(field: string): Node {
  if (field === 'OKFlag')
    return {
      type: 'string',
      enum: ['0', '1'],
      description: 'OKFlag 0 means draft and 1 means confirmed.',
      'x-erpcert-doc': 'record-rest-api.md#3-states-and-transitions',
    };
  if (field === 'stp')
    return {
      type: 'string',
      description: 'Row type: 1 normal row, 2 text row, 3 credit row (invoices).',
      'x-erpcert-doc': 'record-rest-api.md#row-types-stp',
    };
  return { type: 'string' };
}

function fieldProps(fields: readonly string[], prefix = ''): Node {
  return Object.fromEntries(fields.map((f) => [`${prefix}${f}`, fieldSchema(f)]));
}

/**
 * The catalogues whose fields and registers the spec marks observed: specs/observed-fields.yaml first, then a
 * team's own registers file (`erpcert spec --registers FILE`), in the same format.
 */
export type ObservedSources = readonly ObservedCatalogue[];
/** The committed spec's sources: specs/observed-fields.yaml alone. */
export const OBSERVED_ONLY: ObservedSources = [observed];

/** Observed fields of one register part over every source, in order, each once. */
export function observedFieldsIn(sources: ObservedSources, register: string, part: 'header' | 'rows'): string[] {
  const fields = sources.flatMap((c) =>
    c.fields.filter((e) => e.register === register && e.part === part).flatMap((e) => e.fields),
  );
  return [...new Set(fields)];
}

/** A field live servers have beyond the main fields (specs/observed-fields.yaml or a team's file): never contract. */
export function observedFieldSchema(register: string, field: string, sources: ObservedSources = OBSERVED_ONLY): Node {
  const source = sources.find((c) => c.fields.some((e) => e.register === register && e.fields.includes(field)));
  const catalogue = source ?? sources[0] ?? observed;
  const note = catalogue.fields.find((e) => e.register === register && e.fields.includes(field))?.notes[field];
  return {
    type: 'string',
    ...(note ? { description: note } : {}),
    'x-erpcert-standing': 'observed',
    'x-erpcert-observed': `served by live servers (${catalogue.evidence}); not in the docs' main fields`,
  };
}

/** Observed fields of one register part, after the main ones. */
function observedProps(sources: ObservedSources, register: string, part: 'header' | 'rows', prefix = ''): Node {
  return Object.fromEntries(
    observedFieldsIn(sources, register, part).map((f) => [`${prefix}${f}`, observedFieldSchema(register, f, sources)]),
  );
}

function props(base: Node): Node {
  return base.properties as Node;
}

/** `@url` of a record of this register: `/api/<n>/<register>/<key>`, parts URL-encoded and joined by `/` (rule 11). */
export function urlPattern(reg: RegisterDef): string {
  const parts = reg.key.length === 1 ? '/[^/]+' : '/[^/]*'.repeat(reg.key.length);
  return `^/api/[0-9]+/${reg.name}${parts}$`;
}

/** Base properties first, then the register's fields, then `rows`; a field may not shadow a base property. */
function recordProperties(
  reg: RegisterDef,
  base: Node,
  atRegister: string,
  atUrl: string,
  rows: Node,
  sources: ObservedSources,
): Node {
  const { rows: _rows, ...meta } = props(base);
  for (const f of reg.fields)
    if (f in meta) throw new Error(`registers.yaml: ${reg.name} field ${f} collides with a base record property`);
  return {
    ...meta,
    [atRegister]: { ...(meta[atRegister] as Node), const: reg.name },
    [atUrl]: { ...(meta[atUrl] as Node), pattern: urlPattern(reg) },
    ...fieldProps(reg.fields),
    ...observedProps(sources, reg.name, 'header'),
    rows,
  };
}

/** `rows` of a register the table gives no row fields: an empty array (§2 Record), inferred from the table. */
function noLines(items: Node, xml?: Node): Node {
  return {
    type: 'array',
    maxItems: 0,
    ...(xml ? { xml } : {}),
    items,
    description:
      'The table lists no row fields for this register: registers without lines return rows as an empty array.',
    'x-erpcert-standing': 'inferred',
    'x-erpcert-doc': REGISTERS_DOC,
  };
}

function recordSchemas(reg: RegisterDef, base: BaseSchemas, sources: ObservedSources): Node {
  const R = reg.name;
  const hasRows = reg.rowFields.length > 0;
  const out: Node = {};
  const rec = base.RecordBase;
  out[`${R}Record`] = {
    description: `A ${R} record (${reg.meaning}). Key: ${reg.keyNote ?? reg.key.join(' + ')}.`,
    type: 'object',
    required: rec.required,
    properties: recordProperties(
      reg,
      rec,
      '@register',
      '@url',
      hasRows ? { type: 'array', items: ref(`${R}Row`) } : noLines(ref('RowBase')),
      sources,
    ),
    additionalProperties: rec.additionalProperties,
    'x-erpcert-doc': REGISTERS_DOC,
    'x-erpcert-not-shown': rec['x-erpcert-not-shown'],
  };
  if (hasRows)
    out[`${R}Row`] = {
      description: `A line of a ${R} record.`,
      type: 'object',
      required: base.RowBase.required,
      properties: { ...props(base.RowBase), ...fieldProps(reg.rowFields), ...observedProps(sources, R, 'rows') },
      additionalProperties: base.RowBase.additionalProperties,
      'x-erpcert-doc': RECORD_DOC,
    };
  out[`${R}EnvelopeData`] = {
    description: `The \`data\` member of a ${R} envelope.`,
    type: 'object',
    required: [...(base.EnvelopeData.required as string[]), R],
    properties: {
      ...props(base.EnvelopeData),
      '@register': { ...(props(base.EnvelopeData)['@register'] as Node), const: R },
      [R]: { type: 'array', items: ref(`${R}Record`) },
    },
    'x-erpcert-doc': 'record-rest-api.md#envelope-json',
  };
  out[`${R}Envelope`] = {
    description: `JSON envelope holding ${R} records.`,
    type: 'object',
    required: ['data'],
    properties: { data: ref(`${R}EnvelopeData`) },
    'x-erpcert-doc': 'record-rest-api.md#envelope-json',
  };
  return out;
}

function xmlSchemas(reg: RegisterDef, base: BaseSchemas, sources: ObservedSources): Node {
  const R = reg.name;
  const hasRows = reg.rowFields.length > 0;
  const rec = base.RecordBaseXml;
  const rowsXml = (props(rec).rows as Node).xml as Node;
  const out: Node = {};
  out[`${R}RecordXml`] = {
    description: `XML form of a ${R} record: \`<${R} register sequence url>\`, one element per field, \`<rows>\`.`,
    type: 'object',
    required: rec.required,
    properties: recordProperties(
      reg,
      rec,
      'register',
      'url',
      hasRows ? { type: 'array', xml: rowsXml, items: ref(`${R}RowXml`) } : noLines(ref('RowBaseXml'), rowsXml),
      sources,
    ),
    additionalProperties: rec.additionalProperties,
    xml: { name: R },
    'x-erpcert-doc': REGISTERS_DOC,
    'x-erpcert-standing': 'inferred',
  };
  if (hasRows)
    out[`${R}RowXml`] = {
      description: `XML form of a ${R} line: \`<row rownumber>\` with one element per row field.`,
      type: 'object',
      required: base.RowBaseXml.required,
      properties: { ...props(base.RowBaseXml), ...fieldProps(reg.rowFields), ...observedProps(sources, R, 'rows') },
      additionalProperties: base.RowBaseXml.additionalProperties,
      xml: { name: 'row' },
      'x-erpcert-doc': RECORD_DOC,
      'x-erpcert-standing': 'inferred',
    };
  out[`${R}EnvelopeXml`] = {
    description: `XML envelope: \`<data register="${R}" sequence systemversion>\` with one \`<${R}>\` element per record.`,
    type: 'object',
    required: base.EnvelopeDataXml.required,
    properties: {
      ...props(base.EnvelopeDataXml),
      register: { ...(props(base.EnvelopeDataXml).register as Node), const: R },
      [R]: { type: 'array', items: ref(`${R}RecordXml`) },
    },
    xml: { name: 'data' },
    'x-erpcert-doc': 'record-rest-api.md#envelope-json',
    'x-erpcert-standing': 'inferred',
  };
  return out;
}

/**
 * Key fields the ERP fills in itself when a create leaves them out. A `SerNr` is "the record serial number"
 * (portal-action-api.md §2 "Identifier formats") and a new record "gets ... a new SerNr" (§3, copyrecord); the
 * journal entry `Number` is the same kind of serial number, counted within its year code `IntYc`, which follows
 * from the entry's date; a budget's `Objects` (tags) may be empty.
 */
const FILLED_ON_CREATE: Readonly<Record<string, readonly string[]>> = {
  TRVc: ['IntYc', 'Number'],
  Bud1Vc: ['Objects'],
};

/** The key fields a create must send (record-rest-api.md §2 "Key"), in key order: the key minus what the ERP fills. */
export function createKeyFields(reg: RegisterDef): readonly string[] {
  const filled = FILLED_ON_CREATE[reg.name] ?? [];
  return reg.key.filter((k) => k !== 'SerNr' && !filled.includes(k));
}

/** Why the create bodies require the key fields (`x-erpcert-inferred`). */
function createKeyReason(reg: RegisterDef, required: readonly string[]): string {
  const left = reg.key.filter((k) => !required.includes(k));
  return (
    `Required: the key field${required.length > 1 ? 's' : ''} ${required.join(', ')} (key column of the register ` +
    `table: ${reg.keyNote ?? reg.key.join(' + ')}). A record is stored and addressed by its key, so a create without ` +
    'it cannot succeed, and JSON bodies get no auto-fill (rule 2).' +
    (left.length > 0
      ? ` ${left.join(' and ')} ${left.length > 1 ? 'are' : 'is'} filled in by the ERP (serial numbers, the year code) or may be empty.`
      : '')
  );
}

/** The main fields with the key fields a create must send made non-empty. */
function createFieldProps(reg: RegisterDef, required: readonly string[], prefix = ''): Node {
  const out = fieldProps(reg.fields, prefix);
  for (const k of required) out[`${prefix}${k}`] = { ...(out[`${prefix}${k}`] as Node), minLength: 1 };
  return out;
}

/** Request bodies of POST/PATCH (record-rest-api.md §4 Endpoints and rules 1-3). */
function writeSchemas(reg: RegisterDef, sources: ObservedSources): Node {
  const R = reg.name;
  const hasRows = reg.rowFields.length > 0;
  const out: Node = {};
  const rowSet = `^set_row_field\\.(0|[1-9][0-9]*)\\.${FIELD_NAME}$`;
  const formBody = (required: readonly string[]): Node => ({
    type: 'object',
    ...(required.length > 0 ? { required: required.map((k) => `set_field.${k}`) } : {}),
    properties: {
      ...createFieldProps(reg, required, 'set_field.'),
      ...observedProps(sources, R, 'header', 'set_field.'),
    },
    patternProperties: {
      [`^set_field\\.${FIELD_NAME}$`]: ref('FieldValue'),
      ...(hasRows ? { [rowSet]: ref('FieldValue') } : {}),
    },
    additionalProperties: false,
    'x-erpcert-doc': 'record-rest-api.md#4-endpoints',
  });
  const formText =
    `\`set_field.<FieldName>=<value>\` (header)` +
    (hasRows
      ? `, \`set_row_field.<N>.<FieldName>=<value>\` (row N, 0-based; row fields: ${reg.rowFields.join(', ')})`
      : '') +
    '. Main fields are listed; other fields match the patterns (full field lists are not shown).';
  const required = createKeyFields(reg);
  const inferred =
    required.length > 0
      ? { 'x-erpcert-standing': 'inferred', 'x-erpcert-inferred': createKeyReason(reg, required) }
      : {};
  out[`${R}Form`] = {
    description: `Form-encoded ${R} body of an update: ${formText}`,
    ...formBody([]),
  };
  out[`${R}CreateForm`] = {
    description: `Form-encoded ${R} body of a create: ${formText}`,
    ...formBody(required),
    ...inferred,
  };
  out[`${R}RecordInput`] = {
    description: `A ${R} record in a JSON create body. \`@register\` inside the objects is optional (rule 3).`,
    type: 'object',
    ...(required.length > 0 ? { required: [...required] } : {}),
    properties: {
      '@register': { type: 'string', const: R },
      ...createFieldProps(reg, required),
      ...observedProps(sources, R, 'header'),
      rows: hasRows ? { type: 'array', items: ref(`${R}RowInput`) } : noLines({ type: 'object' }),
    },
    additionalProperties: ref('FieldValue'),
    'x-erpcert-doc': 'record-rest-api.md#rules',
    ...inferred,
  };
  if (hasRows)
    out[`${R}RowInput`] = {
      description: `A ${R} line in a JSON create body.`,
      type: 'object',
      properties: { ...fieldProps(reg.rowFields), ...observedProps(sources, R, 'rows') },
      additionalProperties: ref('FieldValue'),
      'x-erpcert-doc': 'record-rest-api.md#4-endpoints',
    };
  out[`${R}CreateJson`] = {
    description:
      `JSON create body \`{data: {${R}: [ {<field>: <value>, rows: [ {...} ]} ]}}\`. No auto-fill: all required ` +
      'values must be supplied (rule 2). Several records can be created in one request (rule 3).',
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        required: [R],
        properties: { [R]: { type: 'array', minItems: 1, items: ref(`${R}RecordInput`) } },
        patternProperties: { '^@': {} },
        additionalProperties: false,
        'x-erpcert-standing': 'inferred',
        'x-erpcert-inferred':
          `"The register is identified by the URL and the array key" (rule 3): the only array is ${R}, the ` +
          'register of the URL; `@` members are attributes, not records.',
      },
    },
    'x-erpcert-doc': 'record-rest-api.md#4-endpoints',
  };
  return out;
}

/** Every component schema of one register, in a fixed order; observed fields come from `sources`. */
export function registerSchemas(reg: RegisterDef, base: BaseSchemas, sources: ObservedSources = OBSERVED_ONLY): Node {
  return {
    ...recordSchemas(reg, base, sources),
    ...xmlSchemas(reg, base, sources),
    ...(reg.readOnly ? {} : writeSchemas(reg, sources)),
  };
}
