/**
 * The hub's SSRF guard with the real `erpcert conform` child: the hub checks a target's host before the run, and the
 * child checks every connection's address when it makes it (`conform --target-guard`), so a host that resolves
 * elsewhere between the two (DNS rebinding) is refused at connect time with nothing sent; a redirect to the cloud
 * metadata address is an answer, never followed. A load run's child checks the host once and pins the run to the
 * checked address (load/target-pin.e2e.test.ts holds the rebinding case with each engine).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTargetGuard, type Resolver } from '@erpcert/contract';
import type { RunningHub, RunSettings } from '@erpcert/hub';
import { startServer } from '@erpcert/refserver';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { liveExecutor } from './live-executor.js';

const dir = mkdtempSync(join(tmpdir(), 'erpcert-guard-e2e-'));
let hub: RunningHub | undefined;
let server: Server | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A target on 127.0.0.1 that records every request and answers each with `answer`. */
async function target(answer: (res: import('node:http').ServerResponse) => void) {
  const seen: string[] = [];
  let connections = 0;
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    answer(res);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, seen, connections: () => connections };
}

/** A hub executing with the real child; the hub resolves names with `resolver`. */
async function runOnce(
  url: string,
  o: { allowTargets?: string; resolver?: Resolver; password?: string },
  settings: RunSettings = { kind: 'conformance', profile: 'gate', only: ['REST.VERSION.PATH'] },
) {
  const { startHub, SavedTargets, SecretBox, JobQueue, DEFAULT_ORGANISATION_ID } = await import('@erpcert/hub');
  const { password, ...options } = o;
  // a password is saved encrypted: the hub gets the key to open it for the run
  const secret = password === undefined ? undefined : 'target-guard-e2e-secret-0123456789';
  hub = await startHub({
    port: 0,
    database: join(dir, `hub-${Date.now()}-${Math.random().toString(36).slice(2)}.sqlite`),
    executor: liveExecutor({ tailMs: 100 }),
    workers: 1,
    log: () => undefined,
    timing: { pollMs: 100 },
    ...(secret === undefined ? {} : { secret }),
    ...options,
  });
  const saved = await new SavedTargets(
    hub.store.db,
    secret === undefined ? undefined : new SecretBox(secret),
    undefined,
    parseTargetGuard(o.allowTargets, o.resolver),
  ).save(
    { url, user: 'erpcert', compcode: 1, ...(password === undefined ? {} : { password }) },
    DEFAULT_ORGANISATION_ID,
  );
  const queue = new JobQueue(hub.store.db, hub.store.dialect);
  const job = await queue.enqueue(saved.id, settings);
  hub.pool?.wake();
  let state = await queue.get(job.id);
  while (state && ['queued', 'running'].includes(state.state)) {
    await new Promise((r) => setTimeout(r, 250));
    state = await queue.get(job.id);
  }
  const log = (await queue.events(job.id)).flatMap(({ event }) => (event.type === 'log' ? [event.line] : []));
  return { ...state, log };
}

describe('the hub SSRF guard in the erpcert conform and load children', () => {
  it('rebinding: the hub saw a public address, the child resolves loopback and refuses to connect', async () => {
    const t = await target((res) => res.end('<data/>'));
    // the hub's resolver answers public for localhost; the child resolves it for real, to loopback
    const publicForHub: Resolver = async () => [{ address: '203.0.113.5', family: 4 }];
    const state = await runOnce(`http://localhost:${t.port}`, { resolver: publicForHub });
    expect(state?.state).toBe('failed');
    expect(state?.exitCode).toBe(2);
    expect(state?.message).toMatch(
      /refused by the hub's target guard: localhost resolves to (127\.0\.0\.1|::1) is loopback/,
    );
    expect(t.connections()).toBe(0);
  }, 240_000);

  it('a 302 to the metadata address is not followed: the run stops at the answer, one request sent', async () => {
    const t = await target((res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    });
    const state = await runOnce(`http://127.0.0.1:${t.port}`, { allowTargets: '127.0.0.1/32' });
    expect(state?.state).toBe('failed');
    expect(state?.message).toMatch(/answered 302/);
    expect(t.seen).toEqual(['GET /api/1/?compcode=1']);
  }, 240_000);

  it('a load run goes through the guard in the erpcert load child, and runs against the allowed address', async () => {
    // a password that no log line holds otherwise (the executor masks it in every line it passes on)
    const password = 'Pw-guard-e2e-41';
    const erp = await startServer({ port: 0, seed: 200, log: () => {}, user: 'erpcert', password });
    let requests = 0;
    erp.server.on('request', () => requests++);
    try {
      const state = await runOnce(
        erp.url,
        { allowTargets: '127.0.0.1/32', password },
        { kind: 'load', scenario: 'transactions', engine: 'autocannon', durationSeconds: 1 },
      );
      expect(state.log).toContain('erpcert load: target guard: 127.0.0.1 is allowed');
      expect(state.state, state.message ?? '').toBe('done');
      expect(state.exitCode).toBe(0);
      expect(requests, state.log.join('\n')).toBeGreaterThan(10);
    } finally {
      await erp.close();
    }
  }, 240_000);
});
