import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { App } from '../../app-types.js';
import { call, testApp } from '../../testing/test-client.js';
import { createPortalModule } from '../index.js';
import { errstrOf, portal, resOf } from '../testing/portal-client.js';
import { loadPortalFixture, PF } from '../testing/portal-fixture.js';
import { callbackUrl, recordIdString } from './callback-handlers.js';

/** How long a notice may take to arrive: vi.waitFor's default of 1 s ran out on a loaded machine. */
const WAIT = { timeout: 15_000 };
const UUID = '3f2b6c1e-8a4d-4e2f-9b1c-0d5e6f7a8b9c';
const apps: App[] = [];
const servers: Server[] = [];
function app(attempts = 3) {
  const a = testApp({ modules: [createPortalModule({ callbackBackoffMs: 5, callbackAttempts: attempts })] });
  loadPortalFixture(a.store);
  apps.push(a);
  return a;
}
afterEach(async () => {
  for (const a of apps.splice(0)) a.close();
  for (const s of servers.splice(0)) await new Promise<void>((r) => s.close(() => r()));
});

/** A callback receiver on 127.0.0.1 port 0: `answer` decides each response (or holds it). */
async function receiver(answer: (n: number, res: ServerResponse) => void) {
  const got: { body: Record<string, unknown>; path: string; n: number }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = got.length + 1;
      got.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')), path: req.url ?? '', n });
      answer(n, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { got, port: (server.address() as AddressInfo).port, server };
}

describe('registerapi', () => {
  it('builds the callback URL from url, port and path', () => {
    expect(callbackUrl('127.0.0.1', '8081', '/hook')).toBe('http://127.0.0.1:8081/hook');
    expect(callbackUrl('https://example.com/base', '', 'x')).toBe('https://example.com/x');
    expect(() => callbackUrl('ftp://example.com', '', '')).toThrow('parameter "url" must be http or https, got ftp');
    expect(() => callbackUrl('example.com', '70000', '')).toThrow('parameter "port" must be a port number');
  });

  it.each([
    [{ UUID: 'nope', url: '127.0.0.1' }, 'parameter "UUID" must be a UUID, got "nope"'],
    [{ url: '127.0.0.1' }, 'missing required parameter "UUID"'],
    [{ UUID, url: 'http://u:p@127.0.0.1' }, 'parameter "url" must not carry credentials'],
  ])('refuses %j', async (q, text) => {
    const res = await portal(app(), { action: 'action', register: 'registerapi', ...q });
    expect(errstrOf(res.text)).toBe(text);
  });

  it('POSTs a notice for a REST write, retrying after a failed attempt, without holding up the write', async () => {
    const a = app();
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const rx = await receiver((n, res) => {
      // the first attempt waits until the write has answered, then fails
      if (n === 1) void held.then(() => res.writeHead(500).end());
      else res.writeHead(200).end();
    });
    const reg = await portal(a, {
      action: 'action',
      register: 'registerapi',
      UUID,
      url: '127.0.0.1',
      port: String(rx.port),
      path: '/hook',
    });
    expect(resOf(reg.text)).toMatchObject({ errstr: '', uuid: UUID, url: `http://127.0.0.1:${rx.port}/hook` });

    const write = await call(a, 'POST', '/api/1/ObjVc', { form: { 'set_field.Code': 'HOOKED' } });
    expect(write.status).toBe(200);
    await vi.waitFor(() => expect(rx.got).toHaveLength(1), WAIT);
    // the write answered while the receiver still held the first delivery
    release();
    await vi.waitFor(() => expect(rx.got).toHaveLength(2), WAIT);
    const want = {
      uuid: UUID,
      event: 'insert',
      register: 'ObjVc',
      company: 1,
      id: 'HOOKED',
      sequence: a.store.sequence,
    };
    expect(rx.got.map((g) => [g.path, g.body])).toEqual([
      ['/hook', want],
      ['/hook', want],
    ]);
  });

  it('reports portal deletes of the registered company only, and gives up after the last attempt', async () => {
    const a = app(2);
    const rx = await receiver((_n, res) => res.writeHead(503).end());
    await portal(a, { action: 'action', register: 'registerapi', UUID, url: `http://127.0.0.1:${rx.port}/x` });
    a.store.insert('ObjVc', 2, { fields: { Code: 'OTHER' }, rows: [] });
    await portal(a, { action: 'delete', register: 'IVVc', id: PF.draftInvoice });
    await vi.waitFor(
      () => expect(a.logs.join('\n')).toMatch(/gave up on a notice after 2 attempt\(s\): HTTP 503/),
      WAIT,
    );
    expect(rx.got.map((g) => [g.body.event, g.body.register, g.body.id])).toEqual([
      ['delete', 'IVVc', PF.draftInvoice],
      ['delete', 'IVVc', PF.draftInvoice],
    ]);
  });
});

describe('buildrecidstr', () => {
  it('answers urn:erp:<company>:<register>:<key> for an existing record', async () => {
    const a = app();
    const res = await portal(a, { action: 'action', register: 'buildrecidstr', vcname: 'INVc', code: 'ITEM/1' });
    expect(resOf(res.text).recidstr).toBe('urn:erp:1:INVc:ITEM%2F1');
    expect(recordIdString(2, 'IVVc', '7')).toBe('urn:erp:2:IVVc:7');
    const missing = await portal(a, { action: 'action', register: 'buildrecidstr', vcname: 'IVVc', code: '1' });
    expect(errstrOf(missing.text)).toBe('IVVc 1 does not exist in company 1');
    const unknown = await portal(a, { action: 'action', register: 'buildrecidstr', vcname: 'NoVc', code: '1' });
    expect(errstrOf(unknown.text)).toBe('register NoVc is not available on this server');
  });
});
