/**
 * A target that accepts connections and never answers: the run ends with a failed verdict and the reason, by
 * the request timeouts or, failing those, by the hard stop of k6. Never a hang, never a thrown error.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k6Available } from './k6-binary.js';
import { runK6ScenarioDetailed } from './run-scenario.js';

let server: Server;
let target: string;
let out: string;
const sockets = new Set<Socket>();

describe.skipIf(!k6Available())('bounded runs against a silent target (skipped only when k6 is not built)', () => {
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'erpcert-k6-silent-'));
    server = createServer((socket) => {
      sockets.add(socket); // read nothing, answer nothing
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    target = `http://127.0.0.1:${address.port}`;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((done) => server.close(() => done()));
    await rm(out, { recursive: true, force: true });
  });

  it('the request timeout ends the run: failed verdict naming the missing answer', async () => {
    const run = await runK6ScenarioDetailed({
      scenario: 'invoices',
      target,
      outDir: join(out, 'timeout'),
      durationSeconds: 2,
      timeoutMs: 1000,
    });
    expect(run.result.verdict).toBe('fail');
    expect(run.result.reason).toMatch(/no answer \(request timeout\)/);
    expect(run.result.requests).toBe(0);
    expect(JSON.parse(await readFile(run.files.json, 'utf8')).result).toEqual(run.result);
  }, 60_000);

  it('the hard stop ends a run whose requests would wait longer', async () => {
    const run = await runK6ScenarioDetailed({
      scenario: 'read-raw',
      target,
      outDir: join(out, 'stopped'),
      timeoutMs: 60_000,
      hardTimeoutMs: 3000,
    });
    expect(run.result.verdict).toBe('fail');
    expect(run.result.reason).toMatch(/k6 (was stopped after|did not finish within) 3 s/);
    expect(await readFile(run.files.junit, 'utf8')).toContain('<failure');
  }, 60_000);
});
