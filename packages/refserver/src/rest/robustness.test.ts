import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app-types.js';
import { Prng } from '../seed/prng.js';
import { loadFixture } from '../testing/fixtures.js';
import { call, testApp } from '../testing/test-client.js';

let app: App & { logs: string[] };
beforeAll(() => {
  app = testApp();
  loadFixture(app.store);
});
afterAll(() => app.close());

const hostile: [string, string, { body?: string | Buffer; headers?: Record<string, string> }][] = [
  ['GET', '/api/1/CUVc?limit=99999999999999999999', {}],
  ['GET', '/api/1/CUVc?offset=999999999999999', {}],
  ['GET', '/api/1/CUVc?sort=Code&range=%00:%FF', {}],
  ['GET', '/api/1/CUVc?filter.Code=%F0%9F%98%80', {}],
  ['GET', '/api/1/CUVc/%C0%AF', {}],
  ['GET', '/api/1/CUVc/%', {}],
  ['GET', '/api/1/%2e%2e/CUVc', {}],
  ['GET', '/api/999999999999/CUVc', {}],
  ['GET', '/api//CUVc', {}],
  ['GET', `/api/1/CUVc?fields=${'A,'.repeat(5000)}`, {}],
  ['GET', `/api/1/${'X'.repeat(10000)}`, {}],
  [
    'POST',
    '/api/1/CUVc',
    {
      body: Buffer.from([0xff, 0xfe, 0x00, 0x26, 0x3d]),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    },
  ],
  [
    'POST',
    '/api/1/CUVc',
    { body: 'set_field.Code=%ZZ&set_field.Name=%', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  ],
  ['POST', '/api/1/CUVc', { body: '='.repeat(1000), headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
  [
    'POST',
    '/api/1/CUVc',
    { body: `${'['.repeat(5000)}${']'.repeat(5000)}`, headers: { 'content-type': 'application/json' } },
  ],
  [
    'POST',
    '/api/1/CUVc',
    { body: '{"data":{"CUVc":[{"Code":"X","rows":{"a":1}}]}}', headers: { 'content-type': 'application/json' } },
  ],
  [
    'POST',
    '/api/1/CUVc',
    { body: '{"data":{"CUVc":[{"Code":"\\u0000"}]}}', headers: { 'content-type': 'application/json' } },
  ],
  [
    'POST',
    '/api/1/CUVc',
    { body: '{"data":{"CUVc":[{"__proto__":{"x":1},"Code":"P"}]}}', headers: { 'content-type': 'application/json' } },
  ],
  [
    'POST',
    '/api/1/IVVc',
    { body: 'set_row_field.999999.Quant=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  ],
  [
    'POST',
    '/api/1/IVVc',
    {
      body: 'set_row_field.0.Quant=1e400&set_row_field.0.Price=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    },
  ],
  [
    'PATCH',
    '/api/1/CUVc/C1',
    {
      body: 'set_field.toString=1&set_field.constructor=2',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    },
  ],
  ['GET', '/api/1/CUVc', { headers: { authorization: 'Basic' } }],
  ['GET', '/api/1/CUVc', { headers: { authorization: `Basic ${'A'.repeat(100000)}` } }],
  ['GET', '/api/1/CUVc', { headers: { cookie: 'HSESSION=; HSESSION' } }],
  ['GET', '/oauth-authorize?redirect_uri=http%3A%2F%2F%5B%3A%3A1&client_id=erpcert-client&response_type=code', {}],
  ['POST', '/oauth-token', { body: Buffer.from([0xc3, 0x28]), headers: { authorization: 'Basic %%%' } }],
];

describe('hostile input never crashes the server', () => {
  it.each(hostile.map((h, i) => [i, ...h] as const))('#%i %s %s', async (_i, method, url, opts) => {
    const res = await call(app, method, url, opts);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.Sequence).toBe(String(app.store.sequence));
  });

  it('random requests answer a shape, never a 500', async () => {
    const r = new Prng(7);
    const registers = ['CUVc', 'IVVc', 'TRVc', 'PLVc', 'ItemStatusVc', 'Nope', ''];
    const params = [
      'limit',
      'offset',
      'sort',
      'range',
      'fields',
      'filter.Code',
      'filter.Sum4',
      'updates_after',
      'deletes_after',
      'compcode',
      'fieldmode',
    ];
    const values = ['', '-1', '0', '1', 'abc', 'a:b', 'a:b:c', ':', 'Code', 'Code,Name', 'SerNr', '10000001', '%', '2'];
    const fields = [
      'Code',
      'Name',
      'SerNr',
      'CustCode',
      'OKFlag',
      'PayDeal',
      'Quant',
      'ArtCode',
      'stp',
      'Nope',
      'UUID',
    ];
    for (let i = 0; i < 300; i++) {
      const reg = r.pick(registers);
      const method = r.pick(['GET', 'GET', 'POST', 'PATCH', 'DELETE']);
      const query = Array.from(
        { length: r.int(0, 4) },
        () => `${r.pick(params)}=${encodeURIComponent(r.pick(values))}`,
      ).join('&');
      const key = r.int(0, 2) === 0 ? `/${r.pick(['C1', '10000001', 'PL1/I1', 'x'])}` : '';
      const body = Array.from({ length: r.int(0, 5) }, () =>
        r.int(0, 1)
          ? `set_field.${r.pick(fields)}=${encodeURIComponent(r.pick(values))}`
          : `set_row_field.${r.int(0, 2)}.${r.pick(fields)}=${encodeURIComponent(r.pick(values))}`,
      ).join('&');
      const res = await call(app, method, `/api/${r.pick(['1', '2', '3'])}/${reg}${key}?${query}`, {
        body,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(r.int(0, 1) ? { accept: 'application/json' } : {}),
        },
      });
      expect(res.status, `${method} ${reg}${key}?${query} ${body}: ${res.text}`).toBeLessThan(500);
      if (res.status !== 204 && !res.headers['Content-Type']?.toString().startsWith('text/plain')) {
        expect(res.text).toMatch(/<data|<error|"data"|"error"/);
      }
    }
    expect(app.logs.filter((l) => l.includes('internal error'))).toEqual([]);
  });
});
