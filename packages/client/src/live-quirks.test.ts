import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type ErpClient } from './client.js';
import { ErpError } from './errors.js';
import { httpResponse, jsonResponse, type RawServer, startRawServer } from './testing/raw-server.js';

// issue 10 part 4: the rough JSON answers and the form bodies of live servers (DESIGN.md "What real deployments do
// beyond the docs"). The bodies below are written from the issue's description, not from a server's output.
let server: RawServer | undefined;
let client: ErpClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
});

const json = (text: string) =>
  httpResponse({ headers: { 'Content-Type': 'application/json', Sequence: '41' }, body: text });

async function answering(text: string): Promise<ErpClient> {
  server = await startRawServer(() => json(text));
  client = createClient({ baseUrl: server.url, auth: { user: 'u', password: 'pw-secret' } });
  return client;
}

const RECORD = '{"@register":"CUVc","@sequence":"40","@url":"/api/1/CUVc/C1","Code":"C1","Name":"New name"}';

describe('a PATCH answered 2xx with a malformed body: the write is done', () => {
  it.each([
    [
      'an unkeyed object literal inside data',
      `{"data":{"@register":"CUVc","@sequence":"41","@systemversion":"1.0",${RECORD}}}`,
    ],
    [
      'a body cut before its last closing brace',
      `{"data":{"@register":"CUVc","@sequence":"41","@systemversion":"1.0","CUVc":[${RECORD}]}`,
    ],
  ])('%s', async (_name, body) => {
    const c = await answering(body);
    const env = await c.rest.update('CUVc', 'C1', { Name: 'New name' }, [], { format: 'json' });
    expect(env).toMatchObject({ answerMalformed: true, hasEnvelope: false, records: [], sequenceHeader: '41' });
  });

  it('other operations still report a malformed 2xx body as a decode error', async () => {
    const c = await answering(`{"data":{"@register":"CUVc",${RECORD}}}`);
    await expect(c.rest.list('CUVc', {}, { format: 'json' })).rejects.toMatchObject({ kind: 'decode' });
  });
});

describe('a PATCH error nested inside data', () => {
  it('whole: an ErpError with the code, the field and the text of messages', async () => {
    const c = await answering('{"data":{"messages":["Record is locked"],"error":{"@code":"2005","@field":"OKFlag"}}}');
    const err = await c.rest.update('IVVc', '1', { OKFlag: '0' }, [], { format: 'json' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ErpError);
    expect(err).toMatchObject({ code: '2005', field: 'OKFlag', description: 'Record is locked', operation: 'update' });
    expect((err as ErpError).messages.map((m) => m.description)).toEqual(['Record is locked']);
  });

  it('truncated after the code: an ErpError with what made it out', async () => {
    const c = await answering('{"data":{"messages":["Record is locked"],"error":{"@code":"2005",');
    const err = await c.rest.update('IVVc', '1', { OKFlag: '0' }, [], { format: 'json' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ErpError);
    expect(err).toMatchObject({ code: '2005', field: undefined, description: 'Record is locked' });
  });

  it('truncated before any error member: nothing says the write failed', async () => {
    const c = await answering('{"data":{"messages":["Record is lo');
    // no error member made it out: nothing says the write failed, so the answer is taken as done
    const env = await c.rest.update('IVVc', '1', { OKFlag: '0' }, [], { format: 'json' });
    expect(env.answerMalformed).toBe(true);
  });
});

describe('a JSON error with HTTP 200 and a top-level messages array', () => {
  it('is an ErpError carrying the messages', async () => {
    server = await startRawServer(() =>
      jsonResponse({
        error: { '@code': '2006', '@description': 'CustCode NOPE: no such contact', '@field': 'CustCode' },
        messages: ['CustCode NOPE: no such contact'],
      }),
    );
    client = createClient({ baseUrl: server.url, auth: { user: 'u', password: 'pw-secret' } });
    const err = await client.rest
      .createForm('IVVc', { CustCode: 'NOPE' }, [], { format: 'json' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ErpError);
    expect(err).toMatchObject({ code: '2006', field: 'CustCode', description: 'CustCode NOPE: no such contact' });
    expect((err as ErpError).messages).toEqual([{ description: 'CustCode NOPE: no such contact' }]);
  });
});

describe('form bodies: spaces as %20, never +, and charset=UTF-8 (live servers keep + as a plus sign)', () => {
  const VALUE = 'a b+c é';
  const ENCODED = 'a%20b%2Bc%20%C3%A9';

  it('REST create and update, portal posttext and the OAuth token request', async () => {
    server = await startRawServer((req) =>
      req.target.includes('oauth-token')
        ? jsonResponse({ access_token: 'tok-123456', token_type: 'Bearer', expires_in: 600 })
        : req.target.startsWith('/WebErpAPI.hal')
          ? httpResponse({ headers: { 'Content-Type': 'application/xml' }, body: '<data><res errstr=""/></data>' })
          : httpResponse({
              headers: { 'Content-Type': 'application/xml' },
              body: '<data register="X" sequence="1" systemversion="1"/>',
            }),
    );
    client = createClient({ baseUrl: server.url, auth: { user: 'u', password: 'pw-secret' } });
    await client.rest.createForm('CUVc', { Name: VALUE }, [{ Text: VALUE }]);
    await client.rest.update('CUVc', 'C1', { Name: VALUE });
    await client.portal.posttext({ regname: 'IVVc', id: '1' } as never, VALUE);
    const oauth = createClient({
      baseUrl: server.url,
      auth: {
        oauth: { authUrl: `${server.url}/`, clientId: 'id', clientSecret: 'secret', scope: VALUE, clientAuth: 'body' },
      },
    });
    await oauth.rest.list('CUVc');
    oauth.close();
    const forms = server.requests.filter((r) => (r.headers['content-type'] ?? '').includes('x-www-form-urlencoded'));
    expect(forms.map((r) => r.method)).toEqual(['POST', 'PATCH', 'POST', 'POST']);
    for (const r of forms) {
      const body = r.body.toString('latin1');
      expect(body, r.target).toContain(ENCODED);
      expect(body, r.target).not.toContain('+');
      if (!r.target.includes('oauth-token')) expect(r.headers['content-type'], r.target).toMatch(/charset=UTF-8/i);
    }
  });
});
