import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedServer, startEmbeddedServer } from './embedded-server.js';

const linux = process.platform === 'linux';

describe('startEmbeddedServer', () => {
  let server: EmbeddedServer;
  beforeAll(async () => {
    server = await startEmbeddedServer({ seedSize: 20, user: 'erpcert', password: 'erpcert' });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('serves the record API on loopback', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/api/1/CUVc?limit=1`, {
      headers: { authorization: `Basic ${Buffer.from('erpcert:erpcert').toString('base64')}` },
    });
    expect(res.status).toBe(200);
  });

  // /proc is Linux's: elsewhere cpuMicros() is undefined by design (the target's CPU is then not reported)
  it.runIf(linux)(
    "counts the server thread's CPU: its requests raise it, the main thread's work does not",
    async () => {
      const auth = { authorization: `Basic ${Buffer.from('erpcert:erpcert').toString('base64')}` };
      const start = server.cpuMicros();
      expect(start).toBeGreaterThan(0); // seeding alone took CPU
      // the main thread spins for 400 ms: a whole-process figure would grow by that much
      const spinUntil = performance.now() + 400;
      while (performance.now() < spinUntil) Math.sqrt(Math.random());
      const afterSpin = server.cpuMicros()!;
      expect(afterSpin - start!).toBeLessThan(200_000);
      for (let i = 0; i < 300; i++) {
        const res = await fetch(`${server.url}/api/1/IVVc?limit=50`, { headers: auth });
        await res.arrayBuffer();
      }
      expect(server.cpuMicros()!).toBeGreaterThan(afterSpin);
    },
  );
});
