import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../app-types.js';
import { parsePortal, portal } from '../portal/testing/portal-client.js';
import { call, jsonRecords, testApp } from '../testing/test-client.js';

// issue 21: the registers live deployments use beyond the docs, described as data in specs/observed-fields.yaml,
// in-process on the demo data (seed 0: master data and every register's `records`)
let app: App | undefined;
afterEach(() => app?.close());
const JSON_ACCEPT = { accept: 'application/json' };
const seeded = (options: Parameters<typeof testApp>[0] = {}) => {
  app = testApp({ seed: 0, ...options });
  return app;
};
const get = async (a: App, url: string) => {
  const res = await call(a, 'GET', url, { headers: JSON_ACCEPT });
  expect(res.status, res.text).toBe(200);
  return JSON.parse(res.text) as { data: Record<string, unknown>; error?: Record<string, string> };
};
const post = async (a: App, register: string, form: [string, string][]) =>
  JSON.parse((await call(a, 'POST', `/api/1/${register}`, { form, headers: JSON_ACCEPT })).text) as {
    data?: Record<string, unknown>;
    error?: Record<string, string>;
  };

describe('SVOVc, service orders', () => {
  it('is no base register: no UUID or ServerSequence, and updates_after answers 404 in plain text', async () => {
    const a = seeded();
    const list = jsonRecords((await call(a, 'GET', '/api/1/SVOVc', { headers: JSON_ACCEPT })).text, 'SVOVc');
    expect(list).toHaveLength(1);
    expect(list[0]).not.toHaveProperty('UUID');
    expect(list[0]).not.toHaveProperty('ServerSequence');
    const feed = await call(a, 'GET', '/api/1/SVOVc?updates_after=0');
    expect(feed.status).toBe(404);
    expect(feed.headers['Content-Type']).toMatch(/^text\/plain/);
    expect(feed.text).toMatch(/updates_after is not supported for this register/);
    expect(feed.text).toMatch(/add a synchronization index/);
  });

  it('numbers a POST without SerNr; a POST of an existing SerNr answers "Already registered" and stores nothing', async () => {
    const a = seeded();
    const made = await post(a, 'SVOVc', [
      ['set_field.CustCode', 'C0001'],
      ['set_field.TransDate', '2025-03-01'],
      ['set_row_field.0.ArtCode', 'A0010'],
      ['set_row_field.0.Quant', '2'],
      ['set_row_field.0.ItemType', '1'],
    ]);
    const rec = (made.data!.SVOVc as Record<string, unknown>[])[0]!;
    expect(rec.SerNr).toBe('10000002');
    expect((rec.rows as Record<string, string>[])[0]!.ItemType).toBe('invoiceable');
    const before = a.store.sequence;
    const again = await post(a, 'SVOVc', [
      ['set_field.SerNr', '10000002'],
      ['set_field.CustCode', 'C0002'],
    ]);
    expect(again.error).toBeUndefined();
    expect(again.data).toMatchObject({ '@register': 'SVOVc', message: { '@description': 'Already registered' } });
    expect(String(again.data!['@url'])).toMatch(/\/SVOVc\/$/);
    expect(a.store.sequence).toBe(before);
    const back = jsonRecords((await call(a, 'GET', '/api/1/SVOVc/10000002', { headers: JSON_ACCEPT })).text, 'SVOVc');
    expect(back[0]!.CustCode).toBe('C0001');
    const xml = await call(a, 'POST', '/api/1/SVOVc', { form: [['set_field.SerNr', '10000002']] });
    expect(xml.text).toMatch(
      /<message description="Already registered"\/>\s*<data register="SVOVc"[^>]* url="\/api\/1\/SVOVc\/"/,
    );
  });

  it('refuses an ItemType that is neither a code nor a label', async () => {
    const a = seeded();
    const res = await post(a, 'SVOVc', [
      ['set_field.CustCode', 'C0001'],
      ['set_row_field.0.ItemType', '9'],
    ]);
    expect(res.error).toMatchObject({ '@field': 'ItemType' });
  });

  it('document answers 200 with an empty file (no printout)', async () => {
    const a = seeded();
    for (const register of ['SVOVc', 'WSVc']) {
      const res = await portal(a, { action: 'document', register, id: '10000001' });
      expect(res.status).toBe(200);
      expect(res.text).toMatch(/<file><name\/><base64\/><\/file>/);
    }
  });
});

describe('WSVc, work sheets', () => {
  const sheet = (wonr: string): [string, string][] => [
    ['set_field.SVONr', '10000001'],
    ['set_field.EMCode', 'JD'],
    ['set_field.CustCode', 'C0001'],
    ['set_field.WONr', wonr],
  ];

  it.each([
    ['an empty WONr', '', '1058'],
    ['WONr 0 (a finished work order)', '0', '1971'],
  ])('refuses %s with code %s on WONr', async (_name, wonr, code) => {
    const a = seeded();
    const res = await post(a, 'WSVc', sheet(wonr));
    expect(res.error).toMatchObject({ '@code': code, '@field': 'WONr' });
  });

  it('accepts WONr -1 (no work order) and filters by SerNr, CustCode, SVONr and EMCode, but no other field', async () => {
    const a = seeded();
    const res = await post(a, 'WSVc', sheet('-1'));
    expect(res.error).toBeUndefined();
    for (const f of ['filter.CustCode=C0001', 'filter.SVONr=10000001', 'filter.EMCode=JD'])
      expect((await get(a, `/api/1/WSVc?${f}`)).data.WSVc).toHaveLength(2);
    expect((await get(a, '/api/1/WSVc?filter.EMCode=MK')).data.WSVc).toHaveLength(0);
    expect((await get(a, '/api/1/WSVc?filter.SerNr=10000001')).data.WSVc).toHaveLength(1);
    expect((await call(a, 'GET', '/api/1/WSVc?filter.Location=MAIN')).status).toBe(400);
  });
});

describe('the other registers and fields of issue 21', () => {
  it('MainStockBlock is read like VATCodeBlock', async () => {
    const a = seeded();
    expect((await get(a, '/api/1/MainStockBlock')).data.MainStockBlock).toEqual({
      rows: [{ '@rownumber': '0', MainStock: 'MAIN' }],
    });
  });

  it('ActTypeVc, ActTypeGrVc and SVOSerVc list their records', async () => {
    const a = seeded();
    const types = (await get(a, '/api/1/ActTypeVc')).data.ActTypeVc as Record<string, string>[];
    expect(types.map((t) => t.Code)).toEqual(expect.arrayContaining(['CALL', 'MEET', 'TASK']));
    const groups = (await get(a, '/api/1/ActTypeGrVc')).data.ActTypeGrVc as Record<string, string>[];
    expect(Object.keys(groups[0]!)).toEqual(
      expect.arrayContaining(['CalColNr', 'ForceProj', 'ForceCust', 'ForceItem', 'ForceTextInMatrix']),
    );
    expect((await get(a, '/api/1/SVOSerVc/SN-1001')).data.SVOSerVc).toHaveLength(1);
  });

  it('RLinkVc is read-only; --quirks sends a raw control character inside FromRecidStr', async () => {
    const a = seeded();
    const plain = await call(a, 'GET', '/api/1/RLinkVc', { headers: JSON_ACCEPT });
    const rec = jsonRecords(plain.text, 'RLinkVc')[0]!;
    expect(String(rec.FromRecidStr)).toContain(String.fromCharCode(1));
    expect((await call(a, 'POST', '/api/1/RLinkVc', { form: [['set_field.Comment', 'x']] })).status).toBe(405);
    a.close();
    const q = seeded({ quirks: true });
    const rough = await call(q, 'GET', '/api/1/RLinkVc', { headers: { accept: 'application/json; charset=utf-8' } });
    expect(rough.text).toContain(String.fromCharCode(1));
    expect(() => JSON.parse(rough.text)).toThrow();
  });

  it('ActVc takes CalTimeFlag and AccessGroup; PRVc filters by Terminated; UserVc by LoginEmailAddr', async () => {
    const a = seeded();
    const act = await post(a, 'ActVc', [
      ['set_field.Comment', 'Planned visit'],
      ['set_field.TransDate', '2025-03-11'],
      ['set_field.CalTimeFlag', '2'],
      ['set_field.AccessGroup', 'SALES'],
    ]);
    expect(act.error).toBeUndefined();
    expect((act.data!.ActVc as Record<string, string>[])[0]).toMatchObject({ CalTimeFlag: '2', AccessGroup: 'SALES' });
    const open = (await get(a, '/api/1/PRVc?filter.Terminated=0')).data.PRVc as Record<string, string>[];
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((p) => p.Terminated === '0' && p.Name !== '')).toBe(true);
    const user = await call(a, 'PATCH', '/api/1/UserVc/JD', {
      form: [['set_field.LoginEmailAddr', 'jd@example.com']],
    });
    expect(user.status).toBe(200);
    const found = (await get(a, '/api/1/UserVc?filter.LoginEmailAddr=jd@example.com')).data.UserVc as unknown[];
    expect(found).toHaveLength(1);
  });

  it('getrecordlinks answers <res regname="LinkVc"/> and one LinkVc per link; none for a record without links', async () => {
    const a = seeded();
    const none = parsePortal(
      (await portal(a, { action: 'action', register: 'getrecordlinks', regname: 'CUVc', id: 'C0001' })).text,
    );
    expect(none.data.res).toMatchObject({ regname: 'LinkVc' });
    expect(none.data.LinkVc).toBeUndefined();
  });
});
