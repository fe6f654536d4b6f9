import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BASIC } from '../testing/test-client.js';
import { type RunningServer, startServer } from './node-server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof startServer>[0] = {}): Promise<RunningServer> {
  server = await startServer({ port: 0, seed: false, log: () => {}, ...options });
  server.app.store.insert('CUVc', 1, { fields: { Code: 'C1', Name: 'Café Ltd' }, rows: [] });
  return server;
}

/** Sends raw bytes and collects everything until the server closes the connection. */
function raw(port: number, chunks: (string | Buffer)[], endAfter = true): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    socket.on('data', (d) => got.push(d));
    socket.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'ECONNRESET' || e.code === 'EPIPE' ? resolve(Buffer.concat(got)) : reject(e),
    );
    socket.on('close', () => resolve(Buffer.concat(got)));
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
      if (endAfter) socket.end();
    });
  });
}

const request = (lines: string[], body = '') => `${lines.join('\r\n')}\r\n\r\n${body}`;

/** Splits a raw HTTP/1.1 response into status line, headers and the de-chunked body. */
function parseRaw(bytes: Buffer) {
  const split = bytes.indexOf('\r\n\r\n');
  const head = bytes.subarray(0, split).toString('latin1').split('\r\n');
  const headers = new Map(
    head.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  let rest = bytes.subarray(split + 4);
  let body = rest;
  if (headers.get('transfer-encoding') === 'chunked') {
    const parts: Buffer[] = [];
    for (;;) {
      const eol = rest.indexOf('\r\n');
      const size = Number.parseInt(rest.subarray(0, eol).toString(), 16);
      if (size === 0) break;
      parts.push(rest.subarray(eol + 2, eol + 2 + size));
      rest = rest.subarray(eol + 2 + size + 2);
    }
    body = Buffer.concat(parts);
  }
  return { status: head[0]!, headers, body };
}

describe('startServer', () => {
  it('listens on 127.0.0.1 with port 0 and answers over HTTP', async () => {
    const s = await start();
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${s.url}/api/1/CUVc/C1?fields=Name`, { headers: { authorization: BASIC } });
    expect(res.status).toBe(200);
    // the login user became a UserVc person of companies 1 and 2 at start (sequences 1, 2), then C1 was inserted
    expect(res.headers.get('sequence')).toBe('3');
    expect(await res.text()).toContain('<Name>Café Ltd</Name>');
  });

  it('keeps idle connections for a minute and says so in Keep-Alive', async () => {
    const s = await start();
    const res = parseRaw(
      await raw(Number(new URL(s.url).port), [
        request([
          'GET /api/1/CUVc/C1?fields=Name HTTP/1.1',
          'Host: x',
          `Authorization: ${BASIC}`,
          'Connection: keep-alive',
        ]),
      ]),
    );
    expect(res.status).toMatch(/^HTTP\/1\.1 200/);
    // a busy client reuses a socket idle for seconds; the 5 s default closed it under it (a reset)
    expect(res.headers.get('keep-alive')).toBe('timeout=60');
  });

  it('refuses a body whose Content-Length is over the limit without reading it', async () => {
    const s = await start({ maxBody: 1000 });
    const bytes = await raw(
      s.port,
      [
        request([
          'POST /api/1/CUVc HTTP/1.1',
          'Host: x',
          `Authorization: ${BASIC}`,
          'Content-Type: application/x-www-form-urlencoded',
          'Content-Length: 50000000',
        ]),
      ],
      false,
    );
    const res = parseRaw(bytes);
    expect(res.status).toBe('HTTP/1.1 413 Payload Too Large');
    expect(res.body.toString()).toContain('over 1000 bytes');
  });

  it('stops reading a chunked body at the limit and answers 413', async () => {
    const s = await start({ maxBody: 1000 });
    const chunk = Buffer.alloc(600, 'a');
    const hex = chunk.length.toString(16);
    const bytes = await raw(
      s.port,
      [
        request(['POST /api/1/CUVc HTTP/1.1', 'Host: x', `Authorization: ${BASIC}`, 'Transfer-Encoding: chunked']),
        `${hex}\r\n${chunk}\r\n`,
        `${hex}\r\n${chunk}\r\n`,
      ],
      false,
    );
    expect(parseRaw(bytes).status).toBe('HTTP/1.1 413 Payload Too Large');
    const after = await fetch(`${s.url}/api/1/CUVc`, { headers: { authorization: BASIC } });
    expect(after.status).toBe(200);
  });

  it('refuses a client outside --allow with 403', async () => {
    const s = await start({ allow: '10.0.0.0/8' });
    const res = await fetch(`${s.url}/api/1/CUVc`, { headers: { authorization: BASIC } });
    expect(res.status).toBe(403);
  });

  it('HEAD sends headers only', async () => {
    const s = await start();
    const res = await fetch(`${s.url}/api/1/CUVc`, { method: 'HEAD', headers: { authorization: BASIC } });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(100);
    expect(await res.text()).toBe('');
  });
});

describe('--quirks: the rough wire of real servers', () => {
  const get = (path: string, extra: string[] = []) =>
    request([`GET ${path} HTTP/1.1`, 'Host: x', `Authorization: ${BASIC}`, ...extra]);

  it('sends a status line without reason phrase, Content-Length and chunked together, then closes', async () => {
    const s = await start({ quirks: true });
    const res = parseRaw(await raw(s.port, [get('/api/1/CUVc/C1')]));
    expect(res.status).toBe('HTTP/1.1 200');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(Number(res.headers.get('content-length'))).toBe(res.body.length);
    expect(res.headers.get('connection')).toBe('close');
    expect(res.body.toString('latin1')).toContain('</data>');
  });

  it('sends Latin-1 without charset unless the request asks for UTF-8', async () => {
    const s = await start({ quirks: true });
    const latin = parseRaw(await raw(s.port, [get('/api/1/CUVc/C1?fields=Name')]));
    expect(latin.headers.get('content-type')).toBe('application/xml');
    expect(latin.body.includes(Buffer.from('<Name>Caf\u00e9 Ltd</Name>', 'latin1'))).toBe(true);
    expect(latin.body.toString('latin1')).toContain('encoding="ISO-8859-1"');
    const utf8 = parseRaw(await raw(s.port, [get('/api/1/CUVc/C1?fields=Name', ['Accept-Charset: utf-8'])]));
    expect(utf8.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(utf8.body.toString('utf8')).toContain('<Name>Café Ltd</Name>');
  });

  it('decodes a form body without charset as Latin-1', async () => {
    const s = await start({ quirks: true });
    const body = 'set_field.Code=C9&set_field.Name=Caf%E9';
    const posted = parseRaw(
      await raw(s.port, [
        request(
          [
            'POST /api/1/CUVc HTTP/1.1',
            'Host: x',
            `Authorization: ${BASIC}`,
            'Content-Type: application/x-www-form-urlencoded',
            `Content-Length: ${body.length}`,
          ],
          body,
        ),
      ]),
    );
    expect(posted.status).toBe('HTTP/1.1 200');
    expect(s.app.store.get('CUVc', 1, ['C9'])?.fields.Name).toBe('Café');
  });

  it('sends a 204 without body headers', async () => {
    const s = await start({ quirks: true });
    const res = parseRaw(await raw(s.port, [get('/api/1/CUVc?deletes_after=0')]));
    expect(res.status).toBe('HTTP/1.1 204');
    expect(res.headers.has('transfer-encoding')).toBe(false);
  });
});
