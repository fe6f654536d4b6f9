import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type ErpClient } from './client.js';
import { Pacer } from './pacer.js';
import { FakeClock } from './testing/fake-clock.js';
import { type RawServer, startRawServer, xmlResponse } from './testing/raw-server.js';

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

describe('Pacer', () => {
  it('spaces request starts by the interval, in call order', async () => {
    const clock = new FakeClock(1000);
    const pacer = new Pacer({ minIntervalMs: 100 }, clock);
    const started: [string, number][] = [];
    const go = (name: string) => pacer.acquire().then(() => started.push([name, clock.now()]));
    const all = Promise.all([go('a'), go('b'), go('c')]);
    await settle();
    expect(started).toEqual([['a', 1000]]);
    await clock.advance(99);
    expect(started).toEqual([['a', 1000]]);
    await clock.advance(1);
    expect(started).toEqual([
      ['a', 1000],
      ['b', 1100],
    ]);
    await clock.advance(100);
    await all;
    expect(started).toEqual([
      ['a', 1000],
      ['b', 1100],
      ['c', 1200],
    ]);
  });

  it('does not wait when the interval has already passed', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ minIntervalMs: 100 }, clock);
    await pacer.acquire();
    await clock.advance(250);
    await pacer.acquire();
    expect(clock.sleeps).toEqual([]);
  });

  it.each([
    [{ maxPerSecond: 4 }, 250],
    [{ minIntervalMs: 300, maxPerSecond: 4 }, 300],
    [{ minIntervalMs: 100, maxPerSecond: 2 }, 500],
    [{}, 0],
  ])('%j gives an interval of %i ms', (options, interval) => {
    expect(new Pacer(options, new FakeClock()).intervalMs).toBe(interval);
  });
});

describe('a paced client', () => {
  let server: RawServer | undefined;
  let client: ErpClient | undefined;
  afterEach(async () => {
    client?.close();
    await server?.close();
  });

  it('shares one pace between REST and portal calls', async () => {
    const clock = new FakeClock();
    server = await startRawServer(() => xmlResponse('<data><res errstr=""/></data>'));
    client = createClient({
      baseUrl: server.url,
      auth: { user: 'u', password: 'pw-secret' },
      clock,
      maxSockets: 1,
      pacing: { maxPerSecond: 10 },
    });
    const calls = Promise.all([
      client.rest.list('IVVc', { limit: 1 }),
      client.portal.call('deactivate', { usercode: 'A' }),
      client.rest.list('IVVc', { limit: 3 }),
    ]);
    await settle();
    expect(clock.sleeps).toEqual([100, 200]);
    await clock.advance(200);
    await calls;
    expect(server.requests.map((r) => r.target)).toEqual([
      '/api/1/IVVc?limit=1',
      '/WebErpAPI.hal?action=deactivate&usercode=A',
      '/api/1/IVVc?limit=3',
    ]);
  });
});
