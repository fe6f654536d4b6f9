import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type ErpClient } from './client.js';
import type { ClientConfig } from './config.js';
import { DecodeError, ErpError, HttpStatusError } from './errors.js';
import { httpResponse, jsonResponse, type RawServer, startRawServer, xmlResponse } from './testing/raw-server.js';

const XML_ENVELOPE = `<?xml version="1.0" encoding="UTF-8"?>
<data register="IVVc" sequence="1234" systemversion="1.0">
  <IVVc register="IVVc" sequence="1230" url="/api/1/IVVc/100001">
    <SerNr>100001</SerNr>
    <CustCode>C&amp;1</CustCode>
    <Sum4>0012.50</Sum4>
    <rows>
      <row rownumber="0"><stp>1</stp><ArtCode>A1</ArtCode></row>
      <row rownumber="1"><stp>2</stp><ArtCode></ArtCode></row>
    </rows>
  </IVVc>
  <IVVc register="IVVc" sequence="1231" url="/api/1/IVVc/100002"><SerNr>100002</SerNr><CustCode/><Sum4>1</Sum4><rows/></IVVc>
</data>`;

// the same records in the JSON shape (record-rest-api.md §2), written by hand
const RECORDS = [
  {
    '@register': 'IVVc',
    '@sequence': '1230',
    '@url': '/api/1/IVVc/100001',
    SerNr: '100001',
    CustCode: 'C&1',
    Sum4: '0012.50',
    rows: [
      { '@rownumber': '0', stp: '1', ArtCode: 'A1' },
      { '@rownumber': '1', stp: '2', ArtCode: '' },
    ],
  },
  {
    '@register': 'IVVc',
    '@sequence': '1231',
    '@url': '/api/1/IVVc/100002',
    SerNr: '100002',
    CustCode: '',
    Sum4: '1',
    rows: [],
  },
];
const JSON_ENVELOPE = { data: { '@register': 'IVVc', '@sequence': '1234', '@systemversion': '1.0', IVVc: RECORDS } };

let server: RawServer | undefined;
let client: ErpClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
});

async function setup(answer: (target: string, method: string) => Buffer, config: Partial<ClientConfig> = {}) {
  server = await startRawServer((req) => answer(req.target, req.method));
  client = createClient({ baseUrl: server.url, auth: { user: 'u', password: 'pw-secret' }, ...config });
  return client;
}

describe('envelopes', () => {
  it('decodes the XML envelope to the JSON record shape', async () => {
    const c = await setup(() => xmlResponse(XML_ENVELOPE, { Sequence: '1234' }));
    const env = await c.rest.list('IVVc');
    expect(env).toMatchObject({
      register: 'IVVc',
      sequence: '1234',
      systemVersion: '1.0',
      sequenceHeader: '1234',
      format: 'xml',
    });
    expect(env.records).toEqual(RECORDS);
    expect(env.raw.text).toBe(XML_ENVELOPE);
    expect(server!.requests[0]!.headers.accept).toBeUndefined();
  });

  it('asks for JSON with Accept: application/json and decodes the same records', async () => {
    const c = await setup(() => jsonResponse(JSON_ENVELOPE));
    const env = await c.rest.list('IVVc', {}, { format: 'json' });
    expect(server!.requests[0]!.headers.accept).toBe('application/json');
    expect(env).toMatchObject({ register: 'IVVc', sequence: '1234', systemVersion: '1.0', format: 'json' });
    expect(env.records).toEqual(RECORDS);
  });

  it('returns <message> warnings that stand before <data> without throwing', async () => {
    const c = await setup(() =>
      xmlResponse(`<message description="Date outside period"/>${XML_ENVELOPE.replace(/^<\?xml[^>]*>\n/, '')}`),
    );
    const env = await c.rest.createForm('IVVc', { CustCode: 'C1' });
    expect(env.messages).toEqual([{ description: 'Date outside period' }]);
    expect(env.records).toHaveLength(2);
  });

  it('treats a 204 with an empty body as an empty answer', async () => {
    const c = await setup(() => httpResponse({ status: 204, reason: 'No Content', noLength: true }));
    const env = await c.rest.list('IVVc', { deletes_after: 10 });
    expect(env).toMatchObject({ records: [], hasEnvelope: false, register: 'IVVc' });
  });
});

describe('errors', () => {
  it.each([
    {
      name: 'an XML <error> before <data>, with HTTP 200',
      body: () =>
        xmlResponse(
          '<error code="1058" description="Customer not found" row="-1" field="CustCode"/><message description="m"/><data register="IVVc"/>',
        ),
      want: {
        source: 'error-element',
        code: '1058',
        field: 'CustCode',
        row: '-1',
        description: 'Customer not found',
        status: 200,
      },
    },
    {
      name: 'a JSON error with HTTP 200',
      body: () => jsonResponse({ error: { '@code': '20', '@description': 'Field is required', '@field': 'PayDeal' } }),
      want: { source: 'json-error', code: '20', field: 'PayDeal', description: 'Field is required', status: 200 },
    },
    {
      name: 'an XML error with HTTP 400',
      body: () => xmlResponse('<error code="7" description="bad range"/>', {}, 400),
      want: { source: 'error-element', code: '7', description: 'bad range', status: 400 },
    },
  ])('throws ErpError for $name', async ({ body, want }) => {
    const c = await setup(body);
    const err = await c.rest.createForm('IVVc', { CustCode: 'X' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ErpError);
    expect(err).toMatchObject({ kind: 'erp', operation: 'createForm', register: 'IVVc', ...want });
    const exchange = (err as ErpError).exchange!;
    expect(exchange.request.method).toBe('POST');
    expect(exchange.response?.status).toBe(want.status);
    expect((err as ErpError).message).toContain(want.description);
  });

  it('throws HttpStatusError for a 404 with plain text', async () => {
    const c = await setup(() =>
      httpResponse({
        status: 404,
        reason: 'Not Found',
        headers: { 'Content-Type': 'text/plain' },
        body: 'No sync index',
      }),
    );
    const err = await c.rest.list('IVVc').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(err).toMatchObject({ status: 404, bodyText: 'No sync index', register: 'IVVc' });
  });

  it('throws DecodeError for a malformed 2xx body', async () => {
    const c = await setup(() => xmlResponse('<data register="IVVc"><IVVc>'));
    await expect(c.rest.list('IVVc')).rejects.toBeInstanceOf(DecodeError);
  });
});

describe('requests', () => {
  const ok = () => xmlResponse('<data register="X" sequence="1" systemversion="1"/>');

  it.each([
    { name: 'company in the query', config: { compcode: 3 }, want: '/api/1/IVVc?limit=5&compcode=3' },
    { name: 'company in the path', config: { compcode: 3, companyIn: 'path' as const }, want: '/api/3/IVVc?limit=5' },
    { name: 'no company configured', config: {}, want: '/api/1/IVVc?limit=5' },
  ])('list with $name', async ({ config, want }) => {
    const c = await setup(ok, config);
    await c.rest.list('IVVc', { limit: 5 });
    expect(server!.requests[0]!.target).toBe(want);
  });

  it('builds every list parameter, filters included, in order', async () => {
    const c = await setup(ok, { compcode: 1 });
    await c.rest.list('IVVc', {
      fields: ['SerNr', 'InvDate'],
      sort: 'SerNr',
      range: '100:200',
      limit: 10,
      offset: 20,
      updates_after: 5,
      'filter.CustCode': 'A B+C&D',
    });
    expect(server!.requests[0]!.target).toBe(
      '/api/1/IVVc?fields=SerNr,InvDate&sort=SerNr&range=100:200&limit=10&offset=20&updates_after=5&filter.CustCode=A%20B%2BC%26D&compcode=1',
    );
  });

  it('lets a call override the company code, or leave it out', async () => {
    const c = await setup(ok, { compcode: 1 });
    await c.rest.list('IVVc', {}, { compcode: 2 });
    await c.rest.list('IVVc', {}, { compcode: null });
    expect(server!.requests.map((r) => r.target)).toEqual(['/api/1/IVVc?compcode=2', '/api/1/IVVc']);
  });

  it.each([
    { name: 'a single key', key: '10000014', register: 'IVVc', want: '/api/1/IVVc/10000014?compcode=1' },
    {
      name: 'a composite key as parts',
      key: ['A/1', 'MAIN'],
      register: 'ItemStatusVc',
      want: '/api/1/ItemStatusVc/A%2F1/MAIN?compcode=1',
    },
    {
      name: 'a composite key by field name',
      key: { Location: 'MAIN', Code: 'A 1' },
      register: 'ItemStatusVc',
      want: '/api/1/ItemStatusVc/A%201/MAIN?compcode=1',
    },
  ])('get by $name', async ({ key, register, want }) => {
    const c = await setup(ok, { compcode: 1 });
    await c.rest.get(register, key);
    expect(server!.requests[0]!.target).toBe(want);
    expect(server!.requests[0]!.method).toBe('GET');
  });

  it('sends the form body of a create: set_field and 0-based set_row_field', async () => {
    const c = await setup(ok, { compcode: 1 });
    await c.rest.createForm('IVVc', { CustCode: '1001', OKFlag: '1' }, [
      { ArtCode: 'A1', Quant: '2' },
      { stp: '2', Spec: 'note' },
    ]);
    const req = server!.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.target).toBe('/api/1/IVVc?compcode=1');
    expect(req.body.toString()).toBe(
      'set_field.CustCode=1001&set_field.OKFlag=1&set_row_field.0.ArtCode=A1&set_row_field.0.Quant=2&set_row_field.1.stp=2&set_row_field.1.Spec=note',
    );
  });

  it('sends the JSON body of a create', async () => {
    const c = await setup(ok, { compcode: 1 });
    await c.rest.createJson('CUVc', [
      { Code: 'C1', Name: 'Ann' },
      { Code: 'C2', Name: 'Bo' },
    ]);
    const req = server!.requests[0]!;
    expect(req.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(req.body.toString())).toEqual({
      data: {
        CUVc: [
          { Code: 'C1', Name: 'Ann' },
          { Code: 'C2', Name: 'Bo' },
        ],
      },
    });
  });

  it('sends PATCH with a form body and accepts a body that is no envelope', async () => {
    const c = await setup(() => httpResponse({ body: '' }), { compcode: 1 });
    const env = await c.rest.update('IVVc', '100001', { OKFlag: '1' }, [{ Quant: '3' }]);
    const req = server!.requests[0]!;
    expect(req.method).toBe('PATCH');
    expect(req.target).toBe('/api/1/IVVc/100001?compcode=1');
    expect(req.body.toString()).toBe('set_field.OKFlag=1&set_row_field.0.Quant=3');
    expect(env.hasEnvelope).toBe(false);
  });

  it('root() requests /api/1/ (or /api/N/ with the company in the path)', async () => {
    const c = await setup(() => httpResponse({ headers: { Sequence: '77' }, body: 'welcome' }), {
      compcode: 4,
      companyIn: 'path',
    });
    const res = await c.rest.root();
    expect(server!.requests[0]!.target).toBe('/api/4/');
    expect(res).toMatchObject({ status: 200, sequenceHeader: '77', sessionId: undefined });
  });

  it('keeps a base URL path prefix', async () => {
    server = await startRawServer(() => ok());
    client = createClient({ baseUrl: `${server.url}/erp/`, auth: { user: 'u', password: 'pw-secret' } });
    await client.rest.list('IVVc');
    expect(server.requests[0]!.target).toBe('/erp/api/1/IVVc');
  });
});
