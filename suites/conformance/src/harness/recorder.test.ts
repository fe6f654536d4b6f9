import type { Exchange } from '@erpcert/client';
import { describe, expect, it } from 'vitest';
import { ExchangeRecorder, toRecordedExchange } from './recorder.js';

function exchange(id: number, body = 'x'): Exchange {
  return {
    id,
    api: 'rest',
    operation: 'list',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 3,
    request: {
      method: 'GET',
      url: `http://h/api/1/CUVc?n=${id}`,
      headers: [
        { name: 'Authorization', value: 'Basic ***' },
        { name: 'Accept', value: 'a' },
        { name: 'accept', value: 'b' },
      ],
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: '1.1',
      headers: [{ name: 'Sequence', value: '7' }],
      body: { mimeType: 'application/xml', text: body, size: body.length },
    },
  };
}

describe('toRecordedExchange', () => {
  it('keeps method, url, headers (lower-cased, repeats joined) and bodies', () => {
    expect(toRecordedExchange(exchange(1))).toEqual({
      request: {
        method: 'GET',
        url: 'http://h/api/1/CUVc?n=1',
        headers: { authorization: 'Basic ***', accept: 'a, b' },
      },
      response: { status: 200, headers: { sequence: '7' }, body: 'x' },
      durationMs: 3,
    });
  });

  it('cuts long bodies and says how long they were', () => {
    const cut = toRecordedExchange(exchange(1, 'y'.repeat(50)), 10);
    expect(cut.response?.body).toBe(`${'y'.repeat(10)}... (50 bytes in all)`);
  });

  it('keeps the transport failure when there is no response', () => {
    const { response: _r, ...noResponse } = exchange(2);
    expect(toRecordedExchange({ ...noResponse, error: 'ECONNREFUSED' })).toMatchObject({ error: 'ECONNREFUSED' });
  });
});

describe('ExchangeRecorder', () => {
  it('keeps the exchanges of the current run apart from the whole test', () => {
    const r = new ExchangeRecorder();
    r.beginTest();
    r.observe(exchange(1));
    r.beginRun();
    r.observe(exchange(2));
    r.observe(exchange(3));
    expect(r.run().map((e) => e.request.url.slice(-3))).toEqual(['n=2', 'n=3']);
    expect(r.test().map((e) => e.request.url.slice(-3))).toEqual(['n=1', 'n=2', 'n=3']);
    expect(r.test(1)).toHaveLength(1);
    r.beginTest();
    expect(r.test()).toEqual([]);
  });

  it('keeps at most `limit` exchanges', () => {
    const r = new ExchangeRecorder(2);
    for (let i = 1; i <= 5; i++) r.observe(exchange(i));
    expect(r.run().map((e) => e.request.url.slice(-3))).toEqual(['n=4', 'n=5']);
  });
});
