import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from './client.js';
import type { Clock } from './clock.js';
import { isErpClientError } from './errors.js';
import type { Exchange } from './exchange.js';
import { decideThrottle, retryAfterMs } from './retry-after.js';
import { httpResponse, jsonResponse, type RawServer, startRawServer } from './testing/raw-server.js';

const NOW = Date.parse('2026-01-10T12:00:00Z');

describe('retryAfterMs', () => {
  it.each([
    ['delay-seconds', '2', 2000],
    ['zero', '0', 0],
    ['spaces around', ' 7 ', 7000],
    ['IMF-fixdate 5 s ahead', 'Sat, 10 Jan 2026 12:00:05 GMT', 5000],
    ['a date in the past is now', 'Sat, 10 Jan 2026 11:59:00 GMT', 0],
    ['obsolete RFC 850 date', 'Saturday, 10-Jan-26 12:00:03 GMT', 3000],
    ['asctime date', 'Sat Jan 10 12:00:04 2026', 4000],
  ])('%s: %j -> %d ms', (_name, value, want) => {
    expect(retryAfterMs(value, NOW)).toBe(want);
  });

  it.each([
    ['negative', '-1'],
    ['fraction', '1.5'],
    ['text', 'soon'],
    ['empty', ''],
    ['absent', undefined],
  ])('%s (%j) is unreadable', (_name, value) => {
    expect(retryAfterMs(value, NOW)).toBeUndefined();
  });
});

describe('decideThrottle', () => {
  it.each([
    ['200 with Retry-After is an answer', 200, '1', 0, undefined, { action: 'answer' }],
    ['500 with Retry-After is an answer', 500, '1', 0, undefined, { action: 'answer' }],
    ['503 without Retry-After is a server failure', 503, undefined, 0, undefined, { action: 'answer' }],
    ['429 without Retry-After is handed on', 429, undefined, 0, undefined, { action: 'answer' }],
    ['429 with seconds is waited for', 429, '2', 0, undefined, { action: 'retry', waitMs: 2000 }],
    ['503 with seconds is waited for', 503, '1', 2, undefined, { action: 'retry', waitMs: 1000 }],
    [
      'the default allows 3 retries',
      429,
      '1',
      3,
      undefined,
      { action: 'give-up', reason: 'still throttled after 3 retries' },
    ],
    [
      'maxRetries bounds the count',
      429,
      '1',
      1,
      { maxRetries: 1 },
      { action: 'give-up', reason: 'still throttled after 1 retry' },
    ],
    [
      'maxWaitMs bounds one wait',
      429,
      '5',
      0,
      { maxWaitMs: 4000 },
      { action: 'give-up', reason: 'Retry-After asks for 5000 ms, more than the 4000 ms allowed' },
    ],
    [
      'false turns retries off',
      429,
      '1',
      0,
      false,
      { action: 'give-up', reason: 'Retry-After is not honoured (retries off)' },
    ],
  ] as const)('%s', (_name, status, header, retries, options, want) => {
    expect(decideThrottle(status, header, retries, options, NOW)).toEqual(want);
  });
});

describe('a client against a throttling server', () => {
  let server: RawServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** A clock whose sleeps return at once and are recorded (the test asserts the waits asked for, not time). */
  function recordingClock(): Clock & { sleeps: number[] } {
    const sleeps: number[] = [];
    return { sleeps, now: () => performance.now(), sleep: async (ms) => void sleeps.push(ms) };
  }

  const throttled = (status: number, retryAfter: string) =>
    httpResponse({
      status,
      reason: '',
      headers: { 'Retry-After': retryAfter, 'Content-Type': 'text/plain' },
      body: 'slow down',
    });
  const ok = jsonResponse({ data: { '@register': 'IVVc', '@sequence': '1', IVVc: [{ SerNr: '1' }] } });

  it('waits as asked and sends again; every answer reaches the observer, marked', async () => {
    const answers = [throttled(429, '2'), throttled(503, '1'), ok];
    server = await startRawServer((_req, i) => answers[i] ?? ok);
    const clock = recordingClock();
    const seen: Exchange[] = [];
    const client = createClient({ baseUrl: server.url, clock, onExchange: (e) => seen.push(e) });
    const env = await client.rest.list('IVVc', {}, { format: 'json' });
    expect(env.records).toEqual([{ SerNr: '1' }]);
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([2000, 1000]);
    expect(seen.map((e) => [e.response?.status, e.throttle])).toEqual([
      [429, { outcome: 'retried', waitMs: 2000 }],
      [503, { outcome: 'retried', waitMs: 1000 }],
      [200, undefined],
    ]);
    client.close();
  });

  it('past maxRetries hands the throttled answer on, marked gave-up', async () => {
    server = await startRawServer(() => throttled(429, '1'));
    const clock = recordingClock();
    const seen: Exchange[] = [];
    const client = createClient({
      baseUrl: server.url,
      clock,
      retryAfter: { maxRetries: 2 },
      onExchange: (e) => seen.push(e),
    });
    const err = await client.rest.list('IVVc', {}, { format: 'json' }).catch((e: unknown) => e);
    expect(isErpClientError(err) && err.status).toBe(429);
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([1000, 1000]);
    expect(seen.at(-1)?.throttle).toEqual({ outcome: 'gave-up', reason: 'still throttled after 2 retries' });
    // the error's exchange says so too (the suite blames no rule for a throttled answer)
    expect(isErpClientError(err) && err.exchange?.throttle?.outcome).toBe('gave-up');
    client.close();
  });

  it('does not wait longer than maxWaitMs', async () => {
    server = await startRawServer(() => throttled(503, '120'));
    const clock = recordingClock();
    const client = createClient({ baseUrl: server.url, clock, retryAfter: { maxWaitMs: 60_000 } });
    const err = await client.rest.list('IVVc', {}, { format: 'json' }).catch((e: unknown) => e);
    expect(isErpClientError(err) && err.status).toBe(503);
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    client.close();
  });
});
