/**
 * The hub's SSRF guard on saved targets (OWASP SSRF prevention: an allow-list checked after DNS resolution, on
 * every resolved address): a save or an update to a refused address answers 400 naming it and the setting that
 * opens it; a queued run whose host now resolves elsewhere ends "refused: ..." and its executor is never called.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

import { type RunningHub, startHub } from '../server.js';
import { seedAuth, TEST_SCRYPT } from '../testing/auth-fixture.js';
import { FakeExecutor } from '../testing/fake-executor.js';
import { freshDatabase } from '../testing/test-databases.js';
import { type TestResolver, testResolver } from '../testing/test-resolver.js';

/** An engineer's session (cookie and CSRF token), set when a hub starts: saves targets, starts runs. */
let auth: Record<string, string> = {};
// biome-ignore lint/suspicious/noExplicitAny: the tests read the API's JSON answers loosely, field by field
type Json = Record<string, any>;

let hub: RunningHub | undefined;
let drop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
  await drop?.();
  drop = undefined;
});

async function start(o: { allowTargets?: string; resolver: TestResolver; executor?: FakeExecutor }) {
  const fresh = await freshDatabase('sqlite');
  drop = fresh.drop;
  hub = await startHub({
    port: 0,
    database: fresh.database,
    auth: { scrypt: TEST_SCRYPT },
    resolver: o.resolver,
    ...(o.allowTargets !== undefined ? { allowTargets: o.allowTargets } : {}),
    ...(o.executor ? { executor: o.executor, workers: 1 } : {}),
    log: () => {},
    timing: { pollMs: 50, heartbeatMs: 50, eventsPollMs: 20 },
  });
  auth = { ...(await seedAuth(hub.store, hub.auth)).headers('engineer'), 'content-type': 'application/json' };
  return hub;
}

async function api(path: string, init: RequestInit = {}): Promise<{ status: number; json: Json }> {
  // the engineer's session unless the call says otherwise
  const res = await fetch(`${hub?.url}/api/v1${path}`, { ...init, headers: init.headers ?? auth });
  return { status: res.status, json: (await res.json()) as Json };
}
const save = (url: string) => api('/saved-targets', { method: 'POST', headers: auth, body: JSON.stringify({ url }) });

const names = {
  'metadata.example': '169.254.169.254',
  'internal.example': '10.0.0.5',
  'mapped.example': '::ffff:127.0.0.1',
  'mixed.example': ['203.0.113.7'],
};

// [url, status without --allow-targets, the message, status with --allow-targets 10.0.0.0/8,127.0.0.1/32]
const table: [string, number, RegExp, number][] = [
  ['http://erp.example.com', 201, /./, 201],
  ['http://169.254.169.254', 400, /url is refused: 169\.254\.169\.254 is link-local .*never a target/, 400],
  ['http://metadata.example:8080', 400, /metadata\.example resolves to 169\.254\.169\.254 is link-local/, 400],
  ['http://[fe80::1]', 400, /fe80::1 is link-local/, 400],
  ['http://[::ffff:169.254.169.254]', 400, /carries 169\.254\.169\.254 is link-local/, 400],
  ['http://0.0.0.0:8080', 400, /"this network"/, 400],
  ['http://224.0.0.1', 400, /multicast/, 400],
  [
    'http://127.0.0.1:8080',
    400,
    /127\.0\.0\.1 is loopback .* add it to erpcert hub --allow-targets \(ERPCERT_ALLOW_TARGETS\)/,
    201,
  ],
  ['http://[::1]:8080', 400, /::1 is loopback/, 400],
  // the URL parser's other spellings of an IPv4 address are judged as the address they name
  ['http://2852039166', 400, /169\.254\.169\.254 is link-local/, 400],
  ['http://0xa9.0xfe.0xa9.0xfe', 400, /169\.254\.169\.254 is link-local/, 400],
  ['http://0x7f.1:8080', 400, /127\.0\.0\.1 is loopback/, 201],
  ['http://[::ffff:7f00:1]:8080', 400, /carries 127\.0\.0\.1 is loopback/, 201],
  [
    'http://mapped.example',
    400,
    /mapped\.example resolves to ::ffff:127\.0\.0\.1 carries 127\.0\.0\.1 is loopback/,
    201,
  ],
  ['http://internal.example', 400, /internal\.example resolves to 10\.0\.0\.5 is private/, 201],
  ['http://192.168.1.10', 400, /192\.168\.1\.10 is private/, 400],
  ['http://nowhere.invalid', 400, /host nowhere\.invalid could not be resolved from the hub \(ENOTFOUND\)/, 400],
  ['embedded', 201, /./, 201],
];

describe('saving a target: its URL is checked against --allow-targets after DNS resolution', () => {
  it.each(table)('%s', async (url, byDefault, message, allowed) => {
    for (const [allowTargets, status] of [
      [undefined, byDefault],
      ['10.0.0.0/8,127.0.0.1/32', allowed],
    ] as const) {
      await start({ resolver: testResolver(names), ...(allowTargets ? { allowTargets } : {}) });
      const r = await save(url);
      expect(r.status, `${url} with --allow-targets ${allowTargets}`).toBe(status);
      if (status === 400) expect(r.json.error).toMatch(message);
      // saved as the URL parser spells it
      else expect(r.json.url).toBe(url === 'embedded' ? url : new URL(url).href.replace(/\/$/, ''));
      await hub?.close();
      hub = undefined;
    }
  });

  it('checks an update of the URL the same way, and keeps the saved one', async () => {
    await start({ resolver: testResolver(names) });
    const { json } = await save('http://erp.example.com');
    const put = await api(`/saved-targets/${json.id}`, {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ url: 'http://metadata.example' }),
    });
    expect(put.status).toBe(400);
    expect(put.json.error).toMatch(/169\.254\.169\.254 is link-local/);
    expect((await api(`/saved-targets/${json.id}`)).json.url).toBe('http://erp.example.com');
  });

  it('refuses an allow-list that would open link-local, and one it cannot read', async () => {
    for (const [allowTargets, message] of [
      ['169.254.0.0/16', /overlaps 169\.254\.0\.0\/16, link-local/],
      ['10.0.0.0/40', /not an address or a CIDR block/],
    ] as const) {
      const fresh = await freshDatabase('sqlite');
      drop = fresh.drop;
      await expect(
        startHub({ port: 0, database: fresh.database, allowTargets, resolver: testResolver() }),
      ).rejects.toThrow(message);
      await drop();
      drop = undefined;
    }
  });
});

describe('starting a run: the host is resolved and checked again, nothing is sent when it is refused', () => {
  async function runOf(id: number): Promise<Json> {
    for (let i = 0; i < 400; i++) {
      const r = await api(`/live-runs/${id}`);
      if (!['queued', 'running'].includes(r.json.state)) return r.json;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error(`live run ${id} did not end`);
  }
  const startRun = async (targetId: number) =>
    (
      await api(`/saved-targets/${targetId}/live-runs`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ kind: 'conformance', only: ['REST.VERSION.*'] }),
      })
    ).json.id as number;

  it('a host that resolved public when saved and private now (rebinding): the run ends refused, never executed', async () => {
    const executor = new FakeExecutor();
    const resolver = testResolver({ 'flip.example': ['203.0.113.20', '10.0.0.9'] });
    await start({ resolver, executor });
    const { status, json } = await save('http://flip.example');
    expect(status).toBe(201);
    const run = await runOf(await startRun(json.id));
    expect(run.state).toBe('failed');
    expect(run.message).toMatch(/^refused: flip\.example resolves to 10\.0\.0\.9 is private .*--allow-targets/);
    expect(run.runId).toBeNull();
    expect(executor.runs).toEqual([]);
    expect(resolver.asked).toEqual(['flip.example', 'flip.example']);
  });

  it('an allowed target runs, and the executor is handed the allow-list for the check at connect time', async () => {
    const executor = new FakeExecutor();
    await start({ resolver: testResolver(names), executor, allowTargets: '10.0.0.0/8' });
    const internal = (await save('http://internal.example')).json.id as number;
    const embedded = (await save('embedded')).json.id as number;
    const pub = (await save('http://erp.example.com')).json.id as number;
    for (const id of [internal, embedded, pub])
      expect(await runOf(await startRun(id))).toMatchObject({ state: 'done' });
    expect(executor.runs.map((r) => [r.target.url, r.targetGuard])).toEqual([
      ['http://internal.example', '10.0.0.0/8'],
      ['embedded', undefined],
      ['http://erp.example.com', '10.0.0.0/8'],
    ]);
  });

  it('without --allow-targets the executor is told "none": the defaults alone', async () => {
    const executor = new FakeExecutor();
    await start({ resolver: testResolver(), executor });
    const id = (await save('http://erp.example.com')).json.id as number;
    expect((await runOf(await startRun(id))).state).toBe('done');
    expect(executor.runs.map((r) => r.targetGuard)).toEqual(['none']);
  });
});
