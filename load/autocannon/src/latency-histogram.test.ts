/// <reference path="./autocannon.d.ts" />

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LatencyHistogram, NO_LATENCY } from './latency-histogram.js';
import { runPlan } from './open-model.js';

function recorded(values: readonly number[]) {
  const h = new LatencyHistogram();
  try {
    for (const v of values) h.record(v);
    return { latency: h.latency(), count: h.count };
  } finally {
    h.destroy();
  }
}

const repeat = (value: number, times: number): number[] => Array.from({ length: times }, () => value);

describe('LatencyHistogram', () => {
  it.each([
    [
      '1..100 ms, one each',
      Array.from({ length: 100 }, (_, i) => 100 - i),
      { p50: 50, p90: 90, p95: 95, p99: 99, max: 100 },
    ],
    [
      '1..20 ms, one each',
      Array.from({ length: 20 }, (_, i) => i + 1),
      { p50: 10, p90: 18, p95: 19, p99: 20, max: 20 },
    ],
    // 6 % slow: p90 is fast and p97.5 slow; a p95 interpolated between them would be ~337 ms, the measured is 500
    [
      '94 x 10 ms and 6 x 500 ms',
      [...repeat(10, 94), ...repeat(500, 6)],
      { p50: 10, p90: 10, p95: 500, p99: 500, max: 500 },
    ],
    [
      '96 x 10 ms and 4 x 500 ms',
      [...repeat(500, 4), ...repeat(10, 96)],
      { p50: 10, p90: 10, p95: 10, p99: 500, max: 500 },
    ],
  ])('%s', (_, values, want) => {
    expect(recorded(values)).toEqual({ latency: want, count: values.length });
  });

  it('holds at least 95 % of the responses at or under p95, and fewer than 95 % under it', () => {
    let seed = 25;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let run = 0; run < 40; run++) {
      const n = 1 + Math.floor(next() * 400);
      // a long tail: most responses fast, some up to 5 s
      const values = Array.from({ length: n }, () => Math.floor(1 + next() ** 4 * 5000));
      const { latency } = recorded(values);
      const atOrUnder = values.filter((v) => v <= latency.p95).length;
      const under = values.filter((v) => v < latency.p95).length;
      // nearest rank (the rank rounded to the nearest whole response)
      expect(atOrUnder, `n=${n}`).toBeGreaterThanOrEqual(0.95 * n - 0.5);
      expect(under, `n=${n}`).toBeLessThan(0.95 * n + 0.5);
      expect(values).toContain(latency.p95);
      expect(latency.p90).toBeLessThanOrEqual(latency.p95);
      expect(latency.p95).toBeLessThanOrEqual(latency.p99);
      expect(latency.max).toBe(Math.max(...values));
    }
  });

  it('is all zero without a response', () => {
    expect(recorded([])).toEqual({ latency: NO_LATENCY, count: 0 });
  });
});

/** A fixture that answers after 0 to 7 ms, so that the response times spread. */
let server: Server;
let origin: string;
beforeAll(async () => {
  let n = 0;
  server = createServer((_req, res) => {
    n++;
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/xml' }).end('<data><ok/></data>'), n % 8);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('the response times autocannon emits', () => {
  it('are the values its own latency histogram holds: the same p50, p90, p99 and max', async () => {
    const h = new LatencyHistogram();
    try {
      const run = autocannon({ url: `${origin}/ok`, connections: 4, amount: 300, timeout: 5 });
      run.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) =>
        h.record(responseTime),
      );
      const result = await run;
      const mine = h.latency();
      expect(h.count).toBe(result.latency.totalCount);
      expect(h.count).toBe(300);
      expect({ p50: mine.p50, p90: mine.p90, p99: mine.p99, max: mine.max }).toEqual({
        p50: result.latency.p50,
        p90: result.latency.p90,
        p99: result.latency.p99,
        max: result.latency.max,
      });
    } finally {
      h.destroy();
    }
  });

  it('give runPlan its p95, between p90 and p99', async () => {
    const m = await runPlan({
      origin,
      sequence: [
        {
          method: 'GET',
          build: () => ({ path: '/ok', headers: {} }),
          check: (status) => (status === 200 ? undefined : `status ${status}`),
          completesOperation: true,
        },
      ],
      amount: 200,
      connections: 4,
      timeoutSeconds: 5,
    });
    expect(m.responses).toBe(200);
    expect(m.latencyMs.p90).toBeLessThanOrEqual(m.latencyMs.p95);
    expect(m.latencyMs.p95).toBeLessThanOrEqual(m.latencyMs.p99);
    expect(m.latencyMs.p99).toBeLessThanOrEqual(m.latencyMs.max);
  });
});
