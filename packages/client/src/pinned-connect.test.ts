import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type ErpClient } from './client.js';
import { TransportError } from './errors.js';
import { pinnedConnectGuard } from './pinned-connect.js';
import { type RawServer, startRawServer } from './testing/raw-server.js';

let server: RawServer | undefined;
let client: ErpClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  server = client = undefined;
});

const ROOT = '<data register="" sequence="1" systemversion="1.0"/>';
const ok = `HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: ${ROOT.length}\r\n\r\n${ROOT}`;

describe('pinnedConnectGuard: a client pinned to the address the target guard checked', () => {
  it('a name nothing resolves (RFC 6761 .invalid) reaches the pinned address, and the request names the host', async () => {
    server = await startRawServer(() => ok);
    const port = new URL(server.url).port;
    client = createClient({
      baseUrl: `http://erp.invalid:${port}`,
      connectGuard: pinnedConnectGuard('erp.invalid', '127.0.0.1'),
    });
    await client.rest.root();
    await client.rest.root();
    expect(server.requests.map((r) => r.headers.host)).toEqual([`erp.invalid:${port}`, `erp.invalid:${port}`]);
  });

  it.each([
    ['another name', 'http://other.invalid', /other\.invalid is not the run's target, pinned to 127\.0\.0\.1/],
    ['another address literal', 'http://127.0.0.2', /127\.0\.0\.2 is not the run's target, pinned to 127\.0\.0\.1/],
  ])('%s is refused, nothing sent', async (_what, base, message) => {
    server = await startRawServer(() => ok);
    const port = new URL(server.url).port;
    client = createClient({
      baseUrl: `${base}:${port}`,
      connectGuard: pinnedConnectGuard('erp.invalid', '127.0.0.1'),
    });
    const err = await client.rest.root().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).code).toBe('ETARGETREFUSED');
    expect((err as TransportError).message).toMatch(message);
    expect(server.connections()).toBe(0);
  });

  it('an address literal target pinned to itself connects', async () => {
    server = await startRawServer(() => ok);
    client = createClient({ baseUrl: server.url, connectGuard: pinnedConnectGuard('127.0.0.1', '127.0.0.1') });
    await client.rest.root();
    expect(server.requests).toHaveLength(1);
  });
});
