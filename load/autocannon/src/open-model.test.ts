import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionsFor, runPlan, type ScenarioRequest } from './open-model.js';

/** A fixture server: `/ok` answers `<ok/>`, `/error` an ERP error with 200, `/slow` after 600 ms, `/never` never. */
let server: Server;
let origin: string;
/** Requests the fixture received, by path. */
const hits = new Map<string, number>();
beforeAll(async () => {
  server = createServer((req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    const send = (body: string) => res.writeHead(200, { 'content-type': 'application/xml' }).end(body);
    if (req.url === '/ok') send('<data><ok/></data>');
    else if (req.url === '/error') send('<error code="1" description="refused"/><data/>');
    else if (req.url === '/slow') setTimeout(() => send('<data><ok/></data>'), 600);
    // /never: no answer; the socket is destroyed when the server closes
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const request = (path: string): ScenarioRequest => ({
  method: 'GET',
  build: () => ({ path, headers: {} }),
  check: (status, body) => (status === 200 && body.includes('<ok/>') ? undefined : `not ok: ${body.slice(0, 40)}`),
  completesOperation: true,
});

describe('connectionsFor', () => {
  it.each([
    [3, 32, 3],
    [10, 32, 10],
    [1536, 32, 32],
    [100, 32, 25],
    [7, 4, 1],
    [3, 1, 1],
  ])('rate %i with at most %i connections -> %i', (rate, max, want) => {
    expect(connectionsFor(rate, max)).toBe(want);
    expect(rate % connectionsFor(rate, max)).toBe(0);
  });
});

describe('runPlan (open model)', () => {
  it('offers rate x seconds operations and counts the checked ones', async () => {
    const m = await runPlan({
      origin,
      sequence: [request('/ok')],
      rate: 4,
      seconds: 1,
      connections: 2,
      timeoutSeconds: 5,
    });
    expect(m.offered).toBe(4);
    expect(m.succeeded).toBe(4);
    expect(m.errors).toBe(0);
    expect(m.dropped).toBe(0);
    expect(m.responses).toBe(4);
    expect(m.bytes).toBeGreaterThan(4 * '<data><ok/></data>'.length);
  }, 15_000);

  it('counts an ERP error answered with 200 as an error, not throughput', async () => {
    const m = await runPlan({
      origin,
      sequence: [request('/error')],
      rate: 3,
      seconds: 1,
      connections: 3,
      timeoutSeconds: 5,
    });
    expect(m.succeeded).toBe(0);
    expect(m.errors).toBe(3);
    expect(m.failures[0]?.reason).toContain('not ok');
  }, 15_000);

  it('drops the operations a slow target keeps from starting inside the window', async () => {
    // one connection at 3/s against 600 ms answers: starts at 0 s and 0.6 s, the third would start at 1.2 s
    const m = await runPlan({
      origin,
      sequence: [request('/slow')],
      rate: 3,
      seconds: 1,
      connections: 1,
      timeoutSeconds: 5,
    });
    expect(m.offered).toBe(3);
    expect(m.dropped).toBe(1);
    expect(m.succeeded).toBe(2);
    // the dropped operation never reaches the target (k6 does not start a dropped iteration either)
    expect(hits.get('/slow')).toBe(2);
    expect(m.sent).toBe(2);
  }, 15_000);

  it('a target that never answers ends in a timeout error, not a hang', async () => {
    const m = await runPlan({
      origin,
      sequence: [request('/never')],
      rate: 1,
      seconds: 1,
      connections: 1,
      timeoutSeconds: 1,
    });
    expect(m.succeeded).toBe(0);
    expect(m.errors).toBeGreaterThanOrEqual(1);
    expect(m.failures.map((f) => f.reason)).toContain('request timed out');
  }, 15_000);

  it('an aborted run stops and says so', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 200);
    const m = await runPlan({
      origin,
      sequence: [request('/never')],
      rate: 1,
      seconds: 5,
      connections: 1,
      timeoutSeconds: 30,
      signal: abort.signal,
    });
    expect(m.stopped).toBe(true);
    expect(m.succeeded).toBe(0);
  }, 15_000);
});
