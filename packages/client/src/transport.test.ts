import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type ErpClient } from './client.js';
import { HttpStatusError, TransportError } from './errors.js';
import { httpResponse, type RawAnswer, type RawServer, startRawServer } from './testing/raw-server.js';

const ENVELOPE =
  '<data register="IVVc" sequence="5" systemversion="1.0"><IVVc register="IVVc" sequence="4" url="/api/1/IVVc/1"><SerNr>1</SerNr><Addr0>Müller</Addr0><rows/></IVVc></data>';

let server: RawServer | undefined;
let client: ErpClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  server = undefined;
  client = undefined;
});

async function setup(handler: (index: number) => RawAnswer, timeoutMs = 5000) {
  server = await startRawServer((_req, i) => handler(i));
  client = createClient({ baseUrl: server.url, auth: { user: 'u', password: 'secret-pw' }, timeoutMs });
  return client;
}

function chunked(body: string): string {
  const bytes = Buffer.from(body, 'utf8');
  return `${bytes.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
}

// The rough wire of real servers (DESIGN.md "What real deployments do beyond the docs"), byte for byte.
describe('rough wire', () => {
  it.each([
    {
      name: 'a status line without reason phrase',
      raw: `HTTP/1.1 200\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(ENVELOPE)}\r\n\r\n${ENVELOPE}`,
    },
    {
      name: 'both Content-Length and Transfer-Encoding: chunked',
      raw: `HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(ENVELOPE)}\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(ENVELOPE)}`,
    },
    {
      name: 'a wrong Content-Length beside Transfer-Encoding: chunked',
      raw: `HTTP/1.1 200\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(ENVELOPE)}`,
    },
    {
      name: 'a body delimited by closing the connection',
      raw: { bytes: `HTTP/1.1 200\r\nContent-Type: text/xml; charset=utf-8\r\n\r\n${ENVELOPE}`, close: true },
    },
    {
      name: 'a Latin-1 body without charset',
      raw: Buffer.concat([
        Buffer.from('HTTP/1.1 200\r\nContent-Type: text/xml\r\n', 'latin1'),
        Buffer.from(`Content-Length: ${ENVELOPE.length}\r\n\r\n`, 'latin1'),
        Buffer.from(ENVELOPE, 'latin1'),
      ]),
    },
    {
      name: 'a Latin-1 body with charset=ISO-8859-1',
      raw: Buffer.concat([
        Buffer.from(
          `HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=ISO-8859-1\r\nContent-Length: ${ENVELOPE.length}\r\n\r\n`,
        ),
        Buffer.from(ENVELOPE, 'latin1'),
      ]),
    },
    {
      name: 'a UTF-8 body without charset',
      raw: httpResponse({ reason: '', headers: { 'Content-Type': 'text/xml' }, body: ENVELOPE }),
    },
  ])('survives $name', async ({ raw }) => {
    const c = await setup(() => raw as RawAnswer);
    const env = await c.rest.list('IVVc');
    expect(env.records).toEqual([
      { '@register': 'IVVc', '@sequence': '4', '@url': '/api/1/IVVc/1', SerNr: '1', Addr0: 'Müller', rows: [] },
    ]);
    expect(env.sequence).toBe('5');
  });

  it('reports an empty 403 as HttpStatusError with the status and an empty body', async () => {
    const c = await setup(() => 'HTTP/1.1 403\r\nContent-Length: 0\r\n\r\n');
    const err = await c.rest.list('IVVc').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(err).toMatchObject({ kind: 'http-status', status: 403, statusText: '', bodyText: '', operation: 'list' });
  });

  it('keeps the connection alive across sequential calls, even with CL+TE responses', async () => {
    const c = await setup(
      () =>
        `HTTP/1.1 200\r\nContent-Type: text/xml\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n${chunked(ENVELOPE)}`,
    );
    for (let i = 0; i < 3; i++) await c.rest.list('IVVc');
    expect(server!.requests).toHaveLength(3);
    expect(server!.connections()).toBe(1);
  });

  it('asks for UTF-8 answers on every request (servers send Latin-1 otherwise)', async () => {
    const c = await setup(() => httpResponse({ headers: { 'Content-Type': 'text/xml' }, body: ENVELOPE }));
    await c.rest.list('IVVc');
    await c.portal.list('IVVc', { page: 1, perpage: 1 });
    expect(server!.requests.map((r) => r.headers['accept-charset'])).toEqual(['utf-8', 'utf-8']);
  });

  it('sends bodies as UTF-8 and says so', async () => {
    const c = await setup(() => httpResponse({ headers: { 'Content-Type': 'text/xml' }, body: ENVELOPE }));
    await c.rest.createForm('IVVc', { Addr0: 'Müller & Søn' });
    const req = server!.requests[0]!;
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=UTF-8');
    expect(req.body.toString('latin1')).toBe('set_field.Addr0=M%C3%BCller%20%26%20S%C3%B8n');
  });
});

describe('transport failures', () => {
  it('throws TransportError "refused" when nothing listens', async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    client = createClient({ baseUrl: `http://127.0.0.1:${port}`, auth: { user: 'u', password: 'secret-pw' } });
    const err = await client.rest.list('IVVc').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err).toMatchObject({ kind: 'transport', reason: 'refused', code: 'ECONNREFUSED', operation: 'list' });
    expect((err as TransportError).exchange?.request.url).toBe(`http://127.0.0.1:${port}/api/1/IVVc`);
    expect((err as TransportError).exchange?.response).toBeUndefined();
  });

  it.each([
    { name: 'timeout', answer: () => undefined, reason: 'timeout' },
    {
      name: 'reset',
      answer: () => ({ bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n<data', close: true }),
      reason: 'reset',
    },
    { name: 'malformed', answer: () => ({ bytes: 'NOT HTTP AT ALL\r\n\r\n', close: true }), reason: 'malformed' },
  ] as const)('throws TransportError for a $name', async ({ answer, reason }) => {
    const c = await setup(answer, 200);
    const err = await c.rest.list('IVVc').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).reason).toBe(reason);
    expect((err as TransportError).message).toContain('list IVVc: transport');
  });

  /** Answers on a fresh connection; drops the second request that arrives on a reused one without answering. */
  async function dropOnReuse() {
    server = await startRawServer((req, i) => {
      const reused = server!.requests.slice(0, i).some((r) => r.connection === req.connection);
      if (reused) return { bytes: '', close: true };
      return httpResponse({ reason: '', headers: { 'Content-Type': 'text/xml' }, body: ENVELOPE });
    });
    client = createClient({ baseUrl: server.url, auth: { user: 'u', password: 'secret-pw' } });
    await client.rest.list('IVVc');
    return client;
  }

  it('retries a GET once on a new connection when a kept-alive connection was closed under it', async () => {
    const c = await dropOnReuse();
    const env = await c.rest.list('IVVc');
    expect(env.records).toHaveLength(1);
    expect(server!.requests.map((r) => r.connection)).toEqual([0, 0, 1]);
  });

  it('does not retry a POST in the same situation', async () => {
    const c = await dropOnReuse();
    const err = await c.rest.createForm('IVVc', { CustCode: 'C1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).reason).toBe('reset');
    expect(server!.requests.map((r) => r.method)).toEqual(['GET', 'POST']);
  });
});
