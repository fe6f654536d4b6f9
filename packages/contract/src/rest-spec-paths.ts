import type { RegisterDef } from './registers.js';
import {
  createKeyFields,
  type Node,
  OBSERVED_ONLY,
  type ObservedSources,
  observedFieldSchema,
  observedFieldsIn,
} from './rest-spec-schemas.js';

const ENDPOINTS_DOC = 'record-rest-api.md#4-endpoints';
/** Why a form body may be absent: a missing body and a form with no pairs look the same on the wire. */
const EMPTY_FORM =
  'A missing body is a form with no pairs: both are zero bytes on the wire, so the body is not required where ' +
  'a form with no pairs is valid.';
const STATUS_NOT_SHOWN = 'HTTP status codes, error body format and error codes of the REST interface: not shown.';
const param = (name: string): Node => ({ $ref: `#/components/parameters/${name}` });
const response = (name: string): Node => ({ $ref: `#/components/responses/${name}` });

/** The list parameters shared by every register, in the order of the docs' query-parameter table. */
const LIST_PARAMS = ['fields', 'sort', 'range', 'limit', 'offset', 'updates_after', 'deletes_after'] as const;

/** Success under `2XX` (status codes are not shown, §7), anything else under `default` (observed shapes). */
function responses(success: Node): Node {
  return { '2XX': success, default: response('ObservedError') };
}

/**
 * `filter.<FieldName>` as one plain query parameter per main field. A `style: deepObject` object parameter
 * would serialise as `filter[Field]=v` and a `style: form` object as `Field=v`; only named parameters make
 * generic tools (fuzzers, mock servers, openapi-fetch) put `filter.Field=v` on the wire. Filters on fields
 * beyond the main ones are allowed by the docs but cannot be listed: full field lists are not shown.
 */
function filterParams(reg: RegisterDef, sources: ObservedSources): Node[] {
  const main = reg.fields.map((f) => ({
    name: `filter.${f}`,
    in: 'query',
    description: `Exact value match on ${f}. Several filters combine with AND.`,
    schema: { type: 'string' },
  }));
  const extra = observedFieldsIn(sources, reg.name, 'header').map((f) => {
    const { type, ...mark } = observedFieldSchema(reg.name, f, sources);
    return {
      name: `filter.${f}`,
      in: 'query',
      description: `Exact value match on ${f}, a field live servers have (observed, not contract).`,
      schema: { type },
      ...mark,
    };
  });
  return [...main, ...extra];
}

/** Path parameters of the key path; `sernr` is an integer key in the docs (§4 Update record), the rest strings. */
function keyParams(reg: RegisterDef): Node[] {
  return reg.key.map((k) => ({
    name: k,
    in: 'path',
    required: true,
    description:
      reg.key.length > 1
        ? `Key part ${k} (URL-encoded). Composite key parts are separated by \`/\` (rule 11).`
        : `Key ${k} (URL-encoded)${reg.keyNote ? `; the table gives the key as "${reg.keyNote}"` : ''}.`,
    schema: k === 'SerNr' ? { type: 'integer' } : { type: 'string', minLength: 1 },
    'x-erpcert-doc': ENDPOINTS_DOC,
  }));
}

/** The URL path of one record: `/api/1/<register>/{K1}/{K2}...`. */
export function keyPath(reg: RegisterDef): string {
  return `/api/1/${reg.name}/${reg.key.map((k) => `{${k}}`).join('/')}`;
}

/**
 * The envelope response of one register, JSON and (inferred) XML. Each media type also admits the observed error
 * shape: real deployments refuse a write with HTTP 200 (DESIGN.md), so a 2XX body may be an error.
 */
export function registerResponse(reg: RegisterDef): Node {
  const orError = (schema: string, error: string): Node => ({
    anyOf: [{ $ref: `#/components/schemas/${schema}` }, { $ref: `#/components/schemas/${error}` }],
  });
  const xml = { schema: orError(`${reg.name}EnvelopeXml`, 'ObservedErrorXml'), 'x-erpcert-standing': 'inferred' };
  return {
    description:
      `Envelope with ${reg.name} records. XML by default, JSON with \`Accept: application/json\`. ` +
      'Real deployments answer a refused write with HTTP 200 too: `<error .../>` (possibly before `<data>`) or ' +
      '`{"error": {...}}`, the observed error shapes (ObservedErrorXml, ObservedErrorJson; not contract).',
    headers: { Sequence: { $ref: '#/components/headers/Sequence' } },
    content: {
      'application/json': { schema: orError(`${reg.name}Envelope`, 'ObservedErrorJson') },
      'application/xml': xml,
      'text/xml': xml,
    },
    'x-erpcert-doc': 'record-rest-api.md#envelope-json',
    'x-erpcert-not-shown': STATUS_NOT_SHOWN,
  };
}

/** The two path items of one register: list/create and one record by key; observed fields come from `sources`. */
export function registerPaths(reg: RegisterDef, sources: ObservedSources = OBSERVED_ONLY): Node {
  const R = reg.name;
  const envelope = response(`${R}Envelope`);
  const readOnly = reg.readOnly ? { 'x-erpcert-read-only': true } : {};
  const collection: Node = {
    ...readOnly,
    get: {
      operationId: `list${R}`,
      tags: [R],
      summary: `List ${reg.meaning}`,
      description:
        'All query parameters can be combined. `filter.<FieldName>` works on any field; the main fields are listed.',
      'x-erpcert-doc': ENDPOINTS_DOC,
      parameters: [param('compcode'), ...LIST_PARAMS.map(param), ...filterParams(reg, sources)],
      responses: { '204': response('NothingDeleted'), ...responses(envelope) },
    },
  };
  if (!reg.readOnly)
    collection.post = {
      operationId: `create${R}`,
      tags: [R],
      summary: `Create ${reg.meaning}`,
      description:
        'Form-encoded bodies run the same auto-fill logic as the user interface (rule 1); JSON bodies do not ' +
        '(rule 2). In JSON bodies the register is identified by the URL and the array key (rule 3).',
      'x-erpcert-doc': ENDPOINTS_DOC,
      parameters: [param('compcode')],
      requestBody: {
        required: createKeyFields(reg).length > 0,
        ...(createKeyFields(reg).length > 0 ? {} : { description: EMPTY_FORM }),
        content: {
          'application/x-www-form-urlencoded': { schema: { $ref: `#/components/schemas/${R}CreateForm` } },
          'application/json': { schema: { $ref: `#/components/schemas/${R}CreateJson` } },
        },
      },
      responses: responses(envelope),
    };
  const record: Node = {
    ...readOnly,
    ...(reg.key.length > 1
      ? {
          description:
            'The docs give the update path as `/api/1/<register>/<key>`; for a composite key the path follows ' +
            'the `@url` form, key parts separated by `/` (rule 11).',
          'x-erpcert-standing': 'inferred',
        }
      : {}),
    parameters: keyParams(reg),
    get: {
      operationId: `get${R}`,
      tags: [R],
      summary: `One ${R} record by key`,
      description: 'Not in the docs. Real deployments answer it with the envelope holding that one record.',
      'x-erpcert-doc': 'record-rest-api.md#rules',
      'x-erpcert-not-shown': 'GET of one record by key: not shown.',
      'x-erpcert-standing': 'observed',
      parameters: [param('compcode')],
      responses: responses(envelope),
    },
  };
  if (!reg.readOnly)
    record.patch = {
      operationId: `update${R}`,
      tags: [R],
      summary: `Update one ${R} record`,
      description: 'Form body with `set_field.*` and `set_row_field.*`.',
      'x-erpcert-doc': ENDPOINTS_DOC,
      parameters: [param('compcode')],
      requestBody: {
        required: false,
        description: `${EMPTY_FORM} A form with no pairs changes nothing.`,
        content: { 'application/x-www-form-urlencoded': { schema: { $ref: `#/components/schemas/${R}Form` } } },
      },
      responses: responses(response('PatchResult')),
    };
  return { [`/api/1/${R}`]: collection, [keyPath(reg)]: record };
}
