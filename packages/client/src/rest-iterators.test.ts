import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type ErpClient } from './client.js';
import { ErpError } from './errors.js';
import type { FeedEvent } from './rest-iterators.js';
import { FakeClock } from './testing/fake-clock.js';
import { httpResponse, type RawServer, startRawServer, xmlResponse } from './testing/raw-server.js';

let server: RawServer | undefined;
let client: ErpClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
});

function envelope(codes: string[], sequence = '50'): string {
  const records = codes
    .map(
      (c) =>
        `<CUVc register="CUVc" sequence="${c.replace(/\D/g, '')}" url="/api/1/CUVc/${c}"><Code>${c}</Code><rows/></CUVc>`,
    )
    .join('');
  return `<data register="CUVc" sequence="${sequence}" systemversion="1">${records}</data>`;
}

/** A server holding `total` records C1..Cn that honours limit/offset. */
async function pagedServer(total: number, clock = new FakeClock()) {
  const all = Array.from({ length: total }, (_, i) => `C${i + 1}`);
  server = await startRawServer((req) => {
    const q = new URL(req.target, 'http://x').searchParams;
    const offset = Number(q.get('offset') ?? 0);
    const limit = Number(q.get('limit') ?? all.length);
    return xmlResponse(envelope(all.slice(offset, offset + limit)));
  });
  client = createClient({ baseUrl: server.url, auth: { user: 'u', password: 'pw-secret' }, clock });
  return client;
}

describe('REST pages and records', () => {
  it.each([
    { total: 7, pageSize: 3, want: ['0:3', '3:3', '6:1'] },
    { total: 6, pageSize: 3, want: ['0:3', '3:3', '6:0'] },
    { total: 0, pageSize: 5, want: ['0:0'] },
  ])('walks $total records in pages of $pageSize', async ({ total, pageSize, want }) => {
    const c = await pagedServer(total);
    const seen: string[] = [];
    for await (const page of c.rest.pages('CUVc', { fields: 'Code' }, { pageSize })) {
      const offset = new URL(page.raw.exchange.request.url).searchParams.get('offset');
      seen.push(`${offset}:${page.records.length}`);
    }
    expect(seen).toEqual(want);
  });

  it('yields every record once, in order', async () => {
    const c = await pagedServer(5);
    const codes: unknown[] = [];
    for await (const r of c.rest.records('CUVc', {}, { pageSize: 2 })) codes.push(r.Code);
    expect(codes).toEqual(['C1', 'C2', 'C3', 'C4', 'C5']);
  });

  it('stops after a page larger than pageSize (a server that ignores limit)', async () => {
    server = await startRawServer(() => xmlResponse(envelope(['C1', 'C2', 'C3'])));
    client = createClient({ baseUrl: server.url, auth: { user: 'u', password: 'pw-secret' } });
    let pages = 0;
    for await (const _ of client.rest.pages('CUVc', {}, { pageSize: 2 })) pages++;
    expect(pages).toBe(1);
  });

  it('pauses between pages on the client clock', async () => {
    const clock = new FakeClock();
    const c = await pagedServer(5, clock);
    const walk = (async () => {
      let n = 0;
      for await (const _ of c.rest.pages('CUVc', {}, { pageSize: 2, pauseMs: 1000 })) n++;
      return n;
    })();
    while (clock.pending === 0 || server!.requests.length < 1) await new Promise((r) => setImmediate(r));
    await clock.advance(1000);
    while (clock.pending === 0) await new Promise((r) => setImmediate(r));
    await clock.advance(1000);
    expect(await walk).toBe(3);
    expect(clock.sleeps).toEqual([1000, 1000]);
  });
});

async function collect(c: ErpClient, since: number | string, opts: object = {}) {
  const events: FeedEvent[] = [];
  for await (const e of c.rest.feed('CUVc', { since, ...opts })) events.push(e);
  return events;
}

describe('sequence feed', () => {
  it('yields updates, deletions and the next sequence from the Sequence header', async () => {
    server = await startRawServer((req) =>
      req.target.includes('updates_after=40')
        ? xmlResponse(envelope(['C41', 'C45'], '46'), { Sequence: '47' })
        : xmlResponse(
            '<data register="CUVc" sequence="48" systemversion="1"><CUVc register="CUVc" sequence="44" url="/api/1/CUVc/C9"><Code>C9</Code></CUVc></data>',
          ),
    );
    client = createClient({ baseUrl: server.url, auth: { user: 'u', password: 'pw-secret' } });
    const events = await collect(client, 40);
    expect(server.requests.map((r) => r.target)).toEqual([
      '/api/1/CUVc?updates_after=40',
      '/api/1/CUVc?deletes_after=40',
    ]);
    expect(
      events.map((e) => (e.kind === 'updated' || e.kind === 'deleted' ? `${e.kind} ${e.record.Code}` : e)),
    ).toEqual([
      'updated C41',
      'updated C45',
      'deleted C9',
      { kind: 'end', since: '40', next: '47', updated: 2, deleted: 1 },
    ]);
  });

  it('takes the envelope sequence when there is no header, and the highest record sequence when there is neither', async () => {
    server = await startRawServer((req) =>
      req.target.includes('updates_after')
        ? xmlResponse(envelope(['C41', 'C45'], '46'))
        : httpResponse({ status: 204, reason: 'No Content', noLength: true }),
    );
    client = createClient({ baseUrl: server.url, auth: { user: 'u', password: 'pw-secret' } });
    expect((await collect(client, 40)).at(-1)).toEqual({
      kind: 'end',
      since: '40',
      next: '46',
      updated: 2,
      deleted: 0,
    });
    await server.close();
    server = await startRawServer((req) =>
      req.target.includes('updates_after')
        ? xmlResponse(envelope(['C41', 'C45']).replace(' sequence="50"', ''))
        : httpResponse({ status: 204, reason: 'No Content', noLength: true }),
    );
    client.close();
    client = createClient({ baseUrl: server.url, auth: { user: 'u', password: 'pw-secret' } });
    expect((await collect(client, 40)).at(-1)).toEqual({
      kind: 'end',
      since: '40',
      next: '45',
      updated: 2,
      deleted: 0,
    });
  });

  it('reports 404 plain text on updates_after and 204 on deletes_after as outcomes, not crashes', async () => {
    server = await startRawServer((req) =>
      req.target.includes('updates_after')
        ? httpResponse({
            status: 404,
            reason: 'Not Found',
            headers: { 'Content-Type': 'text/plain' },
            body: 'Register has no synchronisation index',
          })
        : httpResponse({ status: 204, reason: 'No Content', noLength: true }),
    );
    client = createClient({ baseUrl: server.url, auth: { user: 'u', password: 'pw-secret' } });
    expect(await collect(client, 7)).toEqual([
      { kind: 'unavailable', query: 'updates_after', status: 404, text: 'Register has no synchronisation index' },
      { kind: 'end', since: '7', next: '7', updated: 0, deleted: 0 },
    ]);
  });

  it('still throws an ERP error body on 404', async () => {
    server = await startRawServer(() => xmlResponse('<error code="5" description="No such register"/>', {}, 404));
    client = createClient({ baseUrl: server.url, auth: { user: 'u', password: 'pw-secret' } });
    await expect(collect(client, 1)).rejects.toBeInstanceOf(ErpError);
  });

  it('pages the update query when asked', async () => {
    const c = await pagedServer(3);
    const events = await collect(c, 0, { pageSize: 2, deletes: false });
    expect(server!.requests.map((r) => r.target)).toEqual([
      '/api/1/CUVc?updates_after=0&limit=2&offset=0',
      '/api/1/CUVc?updates_after=0&limit=2&offset=2',
    ]);
    expect(events.filter((e) => e.kind === 'updated')).toHaveLength(3);
  });
});
