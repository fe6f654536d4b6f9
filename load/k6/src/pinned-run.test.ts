/**
 * A k6 run pinned to one address (`connectAddress`, the hub's target guard): k6 connects to it for a name nothing
 * resolves (RFC 6761 `.invalid`), and follows no redirect, so a `302` to another server is the answer, never a
 * request there. The target answers every request with that redirect; the run ends in setup (one k6 start).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k6Available } from './k6-binary.js';
import { runK6Scenario } from './run-scenario.js';

const out = mkdtempSync(join(tmpdir(), 'erpcert-k6-pinned-'));
const servers: Server[] = [];
/** Host header of every request, per server. */
const target: string[] = [];
const elsewhere: string[] = [];

async function listen(seen: string[], answer: (res: import('node:http').ServerResponse) => void): Promise<number> {
  const server = createServer((req, res) => {
    seen.push(req.headers.host ?? '');
    answer(res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

let targetPort = 0;
beforeAll(async () => {
  const otherPort = await listen(elsewhere, (res) => res.end('<data/>'));
  targetPort = await listen(target, (res) => {
    res.writeHead(302, { location: `http://127.0.0.1:${otherPort}/api/1/` });
    res.end();
  });
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  rmSync(out, { recursive: true, force: true });
});

describe.skipIf(!k6Available())('k6 pinned to the checked address', () => {
  it('reaches the pinned address for the name, and a redirect goes nowhere', async () => {
    const result = await runK6Scenario({
      scenario: 'transactions',
      target: `http://erp.invalid:${targetPort}`,
      connectAddress: '127.0.0.1',
      outDir: out,
      durationSeconds: 1,
      timeoutMs: 2000,
    });
    expect(result.verdict).toBe('fail');
    expect(target.length).toBeGreaterThan(0);
    expect(new Set(target)).toEqual(new Set([`erp.invalid:${targetPort}`]));
    expect(elsewhere).toEqual([]);
  }, 60_000);
});
