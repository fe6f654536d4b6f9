import { describe, expect, it } from 'vitest';
import { JsonSchemaLookupError, validateJsonBody } from './json-schema.js';
import { loadSpec, type OpenApiDocument, validateSpec } from './specs.js';

/** The JSON envelope as record-rest-api.md §2 draws it (Envelope, Record). */
function docEnvelope() {
  return {
    data: {
      '@register': 'IVVc',
      '@sequence': '1234',
      '@systemversion': '1.0',
      IVVc: [
        {
          '@register': 'IVVc',
          '@sequence': '1230',
          '@url': '/api/1/IVVc/100001',
          SerNr: '100001',
          CustCode: 'C1',
          OKFlag: '1',
          Addr0: '',
          UUID: '3f1c7a9e-2a51-4c0e-9d57-7f7e0c6f4b11',
          FieldBeyondTheMainOnes: 'x',
          rows: [
            { '@rownumber': '0', stp: '1', ArtCode: 'A1', Quant: '2', Price: '10.00' },
            { '@rownumber': '1', stp: '2', Spec: 'text row' },
          ],
        },
      ],
    },
  };
}

type Case = [name: string, mutate: (env: ReturnType<typeof docEnvelope>) => void, messageIncludes: string];

const broken: Case[] = [
  [
    'a number instead of a string value',
    (e) => Object.assign(e.data.IVVc[0]!, { SerNr: 100001 }),
    '/SerNr must be string',
  ],
  [
    'a number in a field beyond the main ones',
    (e) => Object.assign(e.data.IVVc[0]!, { FieldBeyondTheMainOnes: 5 }),
    'must be string',
  ],
  [
    'a row without @rownumber',
    (e) => delete (e.data.IVVc[0]!.rows[1] as Record<string, unknown>)['@rownumber'],
    "/rows/1 must have required property '@rownumber'",
  ],
  [
    'a 1-based style row number "01"',
    (e) => Object.assign(e.data.IVVc[0]!.rows[0]!, { '@rownumber': '01' }),
    '/rows/0/@rownumber must match pattern',
  ],
  [
    'a missing @url',
    (e) => delete (e.data.IVVc[0] as Record<string, unknown>)['@url'],
    "must have required property '@url'",
  ],
  [
    'an @url of another register',
    (e) => Object.assign(e.data.IVVc[0]!, { '@url': '/api/1/ORVc/100001' }),
    '/@url must match pattern',
  ],
  // rows itself is optional (with `fields` the docs leave open whether it comes back), but never a non-array
  [
    'rows that is not an array',
    (e) => Object.assign(e.data.IVVc[0]!, { rows: { '@rownumber': '0' } }),
    '/rows must be array',
  ],
  ['an OKFlag outside 0/1', (e) => Object.assign(e.data.IVVc[0]!, { OKFlag: '2' }), '/OKFlag must be equal to one of'],
  ['a non-integer @sequence', (e) => Object.assign(e.data, { '@sequence': 'abc' }), '/data/@sequence must match'],
  [
    'an envelope of another register',
    (e) => Object.assign(e.data, { '@register': 'ORVc' }),
    'must be equal to constant',
  ],
];

describe.each([
  // with $refs a pointer cannot pass through the operation's `$ref` to the shared response
  [
    'loaded (with $refs)',
    () => Promise.resolve(loadSpec('record-rest')),
    '#/components/responses/IVVcEnvelope/content/application~1json/schema/anyOf/0',
  ],
  [
    'dereferenced',
    () => validateSpec('record-rest'),
    '#/paths/~1api~11~1IVVc/get/responses/2XX/content/application~1json/schema/anyOf/0',
  ],
] as const)('validateJsonBody on the %s record REST spec', (_, get, pointer) => {
  let spec: OpenApiDocument;

  it('accepts the envelope drawn from the docs', async () => {
    spec = await get();
    expect(validateJsonBody(spec, 'IVVcEnvelope', docEnvelope())).toEqual({ valid: true, errors: [] });
  });

  it.each(broken)('rejects %s', async (_name, mutate, message) => {
    spec = await get();
    const env = docEnvelope();
    mutate(env);
    const result = validateJsonBody(spec, 'IVVcEnvelope', env);
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toContain(message);
  });

  it('validates through a JSON pointer to a response schema', async () => {
    spec = await get();
    expect(validateJsonBody(spec, pointer, docEnvelope()).valid).toBe(true);
    const env = docEnvelope();
    Object.assign(env.data.IVVc[0]!, { Sum4: 12.5 });
    expect(validateJsonBody(spec, pointer, env).errors).toEqual(['/data/IVVc/0/Sum4 must be string']);
  });

  it('admits the observed error shape beside the envelope in the 2XX response (errors come with HTTP 200)', async () => {
    spec = await get();
    const whole = pointer.replace(/\/anyOf\/0$/, '');
    const error = { error: { '@code': '2002', '@description': 'Code is required', '@field': 'Code' } };
    expect(validateJsonBody(spec, whole, error).valid).toBe(true);
    expect(validateJsonBody(spec, whole, docEnvelope()).valid).toBe(true);
    expect(validateJsonBody(spec, pointer, error).valid).toBe(false);
    expect(validateJsonBody(spec, whole, { error: 'text' }).valid).toBe(false);
  });
});

describe('validateJsonBody on request bodies and other registers', () => {
  const spec = loadSpec('record-rest');

  it('accepts a JSON create body with optional @register and rows, and rejects an empty record list', () => {
    const body = { data: { IVVc: [{ CustCode: 'C1', rows: [{ stp: '1', ArtCode: 'A1', Quant: '1' }] }] } };
    expect(validateJsonBody(spec, 'IVVcCreateJson', body).valid).toBe(true);
    const tagged = { data: { IVVc: [{ '@register': 'IVVc', CustCode: 'C1' }, { CustCode: 'C2' }] } };
    expect(validateJsonBody(spec, 'IVVcCreateJson', tagged).valid).toBe(true);
    expect(validateJsonBody(spec, 'IVVcCreateJson', { data: { IVVc: [] } }).valid).toBe(false);
    expect(validateJsonBody(spec, 'IVVcCreateJson', { data: { ORVc: [{}] } }).valid).toBe(false);
  });

  it('accepts set_field / set_row_field form keys and rejects anything else', () => {
    const form = { 'set_field.CustCode': 'C1', 'set_field.Comment': 'x', 'set_row_field.0.ArtCode': 'A1' };
    expect(validateJsonBody(spec, 'IVVcForm', form)).toEqual({ valid: true, errors: [] });
    const bad = validateJsonBody(spec, 'IVVcForm', { ...form, CustCode: 'C1' });
    expect(bad.valid).toBe(false);
    expect(bad.errors.join()).toContain('must NOT have additional properties: CustCode');
    expect(validateJsonBody(spec, 'IVVcForm', { 'set_row_field.x.ArtCode': 'A1' }).valid).toBe(false);
    // CUVc has no lines: no row keys
    expect(validateJsonBody(spec, 'CUVcForm', { 'set_row_field.0.Name': 'x' }).valid).toBe(false);
  });

  it('checks composite-key @url and registers without lines', () => {
    const record = { '@register': 'PLVc', '@sequence': '7', '@url': '/api/1/PLVc/PL1/ITEM%2F1', rows: [] };
    expect(validateJsonBody(spec, 'PLVcRecord', record).valid).toBe(true);
    expect(validateJsonBody(spec, 'PLVcRecord', { ...record, '@url': '/api/1/PLVc/PL1' }).valid).toBe(false);
    const withRow = { ...record, rows: [{ '@rownumber': '0' }] };
    expect(validateJsonBody(spec, 'PLVcRecord', withRow).errors.join()).toContain('must NOT have more than 0 items');
  });

  it('validates any register with the generic Envelope schema', () => {
    expect(validateJsonBody(spec, 'Envelope', docEnvelope()).valid).toBe(true);
    const env = docEnvelope();
    Object.assign(env.data, { IVVc: { not: 'an array' } });
    expect(validateJsonBody(spec, 'Envelope', env).errors).toEqual(['/data/IVVc must be array']);
  });

  it('throws a JsonSchemaLookupError for a schema the spec does not have', () => {
    expect(() => validateJsonBody(spec, 'NoSuchVcEnvelope', {})).toThrow(JsonSchemaLookupError);
    expect(() => validateJsonBody(spec, '#/components/schemas/Nope', {})).toThrow(/no such schema/);
    expect(() => validateJsonBody(spec, 'not a name', {})).toThrow(JsonSchemaLookupError);
  });
});
