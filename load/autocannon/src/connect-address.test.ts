/**
 * `connectAddress` (the hub's target guard pins a load run to the address it checked): autocannon connects to the
 * address and never resolves the target's name, the requests carry the name as Host, and over TLS as server name.
 * The names are RFC 6761's `.invalid`: nothing resolves them, so a request that arrives went to the pinned address.
 */
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionOf, runPlan, type ScenarioRequest } from './open-model.js';

let server: Server | TlsServer | undefined;
afterEach(async () => {
  if (server instanceof Server) server.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

const request: ScenarioRequest = {
  method: 'GET',
  build: () => ({ path: '/ok', headers: { 'accept-charset': 'utf-8' } }),
  check: (status) => (status === 200 ? undefined : `status ${status}`),
  completesOperation: true,
};

describe('connectionOf', () => {
  it.each([
    ['http://erp.invalid:8080', undefined, { url: 'http://erp.invalid:8080' }],
    [
      'http://erp.invalid:8080',
      '127.0.0.1',
      { url: 'http://127.0.0.1:8080', host: 'erp.invalid:8080', servername: 'erp.invalid' },
    ],
    ['https://erp.invalid', '::1', { url: 'https://[::1]', host: 'erp.invalid', servername: 'erp.invalid' }],
    ['http://127.0.0.1:81', '127.0.0.1', { url: 'http://127.0.0.1:81', host: '127.0.0.1:81' }],
    ['http://[::1]:81', '::1', { url: 'http://[::1]:81', host: '[::1]:81' }],
  ])('%s connecting to %s', (origin, address, want) => {
    expect(connectionOf(origin, address)).toEqual(want);
  });
});

describe('runPlan with connectAddress', () => {
  it('every request reaches the pinned address, with the name as Host', async () => {
    const hosts: string[] = [];
    server = createServer((req, res) => {
      hosts.push(req.headers.host ?? '');
      res.end('<data/>');
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const m = await runPlan({
      origin: `http://erp.invalid:${port}`,
      connectAddress: '127.0.0.1',
      sequence: [request],
      amount: 6,
      connections: 2,
      timeoutSeconds: 5,
    });
    expect(m.errors).toBe(0);
    expect(m.succeeded).toBe(6);
    expect(hosts).toEqual(Array(6).fill(`erp.invalid:${port}`));
  }, 15_000);

  it('over https the TLS hello names the target (SNI), sent to the pinned address', async () => {
    const names: string[] = [];
    // no certificate needed: the server name arrives before one is chosen, and the handshake is then refused
    server = createTlsServer({
      SNICallback: (name, cb) => {
        names.push(name);
        cb(new Error('no certificate in this test'));
      },
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await runPlan({
      origin: `https://erp.invalid:${port}`,
      connectAddress: '127.0.0.1',
      sequence: [request],
      amount: 1,
      connections: 1,
      timeoutSeconds: 1,
    });
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names)).toEqual(new Set(['erp.invalid']));
  }, 15_000);
});
