import { createClient, type ErpClient } from '@erpcert/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, json, type Rec, records, type Served, serveChild, stopChild } from './testing/serve-child.js';

// issue 21 "Done when": the calls a field-service app and a calendar make against live servers, replayed in their
// wire forms (company in the path, JSON answers, form bodies with and without charset=UTF-8) by @erpcert/client
// against `erpcert serve` and `erpcert serve --quirks` as separate processes (serve --registers:
// client-registers-file.test.ts).
const USER = 'field-app';
const PASSWORD = 'field-App-pass-1';
const JSON_ACCEPT = { accept: 'application/json' };
const FORM = 'application/x-www-form-urlencoded';
const FORM_UTF8 = 'application/x-www-form-urlencoded; charset=UTF-8';

const serve = (extra: string[] = []) =>
  serveChild(['--seed-size', '10', '--user', USER, '--password', PASSWORD, ...extra]);

const clients: ErpClient[] = [];
function client(on: Served): ErpClient {
  const c = createClient({ baseUrl: on.url, auth: { user: USER, password: PASSWORD }, compcode: 1, companyIn: 'path' });
  clients.push(c);
  return c;
}

let plain: Served | undefined;
let quirky: Served | undefined;

beforeAll(async () => {
  [plain, quirky] = await Promise.all([serve(), serve(['--quirks'])]);
}, 120_000);

afterAll(async () => {
  for (const c of clients) c.close();
  await Promise.all([stopChild(plain), stopChild(quirky)]);
}, 30_000);

describe.each([
  ['erpcert serve', false],
  ['erpcert serve --quirks', true],
])('a field-service app and a calendar against %s', (_name, quirks) => {
  const server = () => (quirks ? quirky! : plain!);
  const get = (path: string) => client(server()).request({ method: 'GET', path, headers: JSON_ACCEPT });
  const post = (path: string, pairs: [string, string][], utf8: boolean) =>
    client(server()).request({
      method: 'POST',
      path,
      headers: { ...JSON_ACCEPT, 'content-type': utf8 ? FORM_UTF8 : FORM },
      body: form(pairs),
    });
  const portal = (query: string) =>
    client(server()).request({ api: 'portal', method: 'GET', path: `/WebErpAPI.hal?${query}` });

  it('SVOVc: a new service order gets the next number; the same SerNr again is "Already registered", stored nothing', async () => {
    for (const utf8 of [true, false]) {
      const made = records(
        await post(
          '/api/1/SVOVc',
          [
            ['set_field.CustCode', 'C0001'],
            ['set_field.TransDate', '2025-03-01'],
            ['set_field.ConfirmationNo', `FS-${utf8 ? 'U' : 'L'}`],
            ['set_row_field.0.ArtCode', 'A0010'],
            ['set_row_field.0.Quant', '1'],
            ['set_row_field.0.SerialNr', 'SN-1001'],
            ['set_row_field.0.ItemType', '2'],
          ],
          utf8,
        ),
        'SVOVc',
      )[0]!;
      expect(Number(made.SerNr)).toBeGreaterThan(10000001);
      expect(made).not.toHaveProperty('UUID');
      expect(made.rows![0]).toMatchObject({ ItemType: 'warranty', SerialNr: 'SN-1001' });
      const again = json(
        await post(
          '/api/1/SVOVc',
          [
            ['set_field.SerNr', String(made.SerNr)],
            ['set_field.CustCode', 'C0002'],
          ],
          utf8,
        ),
      );
      expect(again.error).toBeUndefined();
      // @erpcert/client: an envelope without records, carrying the message (XML and JSON)
      for (const format of ['xml', 'json'] as const) {
        const typed = await client(server()).rest.createForm('SVOVc', { SerNr: String(made.SerNr) }, [], { format });
        expect(typed.records).toEqual([]);
        expect(typed.messages.map((m) => m.description)).toEqual(['Already registered']);
      }
      const data = again.data as Record<string, unknown>;
      expect(data.message).toEqual({ '@description': 'Already registered' });
      expect(String(data['@url'])).toMatch(/\/SVOVc\/$/);
      const back = records(await get(`/api/1/SVOVc/${made.SerNr}`), 'SVOVc')[0]!;
      expect(back.CustCode).toBe('C0001');
    }
  });

  // issue 27: the pushes of a field-service app (elviskvalbergs/herbe-service) as it sends them to live servers:
  // form bodies without charset (`set_field.<F>`, then `set_row_field.<n>.<F>`, pairs percent-encoded), Accept JSON,
  // company in the path (lib/erp/standard-books/fetch-json.ts); payloads of lib/sync/push/builders.ts, lookups of
  // lib/sync/push/engine.ts and gather.ts.
  const herbe = (method: 'POST' | 'PATCH', path: string, pairs: [string, string][]) =>
    client(server()).request({ method, path, headers: { ...JSON_ACCEPT, 'content-type': FORM }, body: form(pairs) });
  const herbeOrder = async (marker: string, date: string) => {
    // the natural-key lookup before a create, then the create with CustComplaint1 (the order's description)
    expect(records(await get(`/api/1/SVOVc?filter.CustCode=C0001&filter.TransDate=${date}`), 'SVOVc')).toEqual([]);
    const made = records(
      await herbe('POST', '/api/1/SVOVc', [
        ['set_field.CustCode', 'C0001'],
        ['set_field.TransDate', date],
        ['set_field.CustComplaint1', marker],
        ['set_row_field.0.Quant', '1'],
        ['set_row_field.0.ArtCode', 'A0010'],
        ['set_row_field.0.SerialNr', 'SN-1001'],
        ['set_row_field.0.ItemType', '1'],
      ]),
      'SVOVc',
    )[0]!;
    expect(made).toMatchObject({ CustCode: 'C0001', CustComplaint1: marker });
    return String(made.SerNr);
  };

  it('herbe-service SVOVc push: create with set_field.CustComplaint1, update of CustComplaint2, read by filter.SerNr', async () => {
    const marker = `herbe test ${quirks ? 'Q' : 'P'} 1`;
    const serNr = await herbeOrder(marker, '2025-03-05');
    expect(serNr).toMatch(/^\d+$/);
    const patched = await herbe('PATCH', `/api/1/SVOVc/${serNr}`, [['set_field.CustComplaint2', 'herbe update']]);
    expect(patched.status, patched.text).toBe(200);
    expect(patched.text).not.toMatch(/"error"\s*:/);
    const back = records(await get(`/api/1/SVOVc?filter.SerNr=${serNr}`), 'SVOVc');
    expect(back).toHaveLength(1);
    expect(back[0]).toMatchObject({ CustComplaint1: marker, CustComplaint2: 'herbe update', CustComplaint3: '' });
  });

  it('herbe-service WSVc push: the service order header copied, Sum1, Sum3 and Sum4, rows with Price and Sum', async () => {
    const serNr = await herbeOrder(`herbe test ${quirks ? 'Q' : 'P'} 2`, '2025-03-06');
    const order = records(await get(`/api/1/SVOVc?filter.SerNr=${serNr}`), 'SVOVc')[0]!;
    expect(order.DoneMark === '' || order.DoneMark === '0').toBe(true);
    const stock = json(await get('/api/1/MainStockBlock')).data as Record<string, { rows: Rec[] }>;
    const location = String(stock.MainStockBlock!.rows[0]!.MainStock);
    expect(records(await get(`/api/1/WSVc?filter.SVONr=${serNr}&filter.EMCode=JD`), 'WSVc')).toEqual([]);
    // the header fields the app copies from the service order it read; a live server fills them from the customer
    const copied: [string, string][] = [
      ['CustCode', 'C0001'],
      ['Addr0', 'Main Street 1'],
      ['CustContact', 'Ann Field'],
      ['Objects', 'DEP1'],
      ['Phone', '+372 600 0002'],
      ['LangCode', 'ENG'],
      ['CurncyCode', 'EUR'],
      ['FrRate', '1'],
      ['ToRateB1', '1'],
      ['ToRateB2', '0'],
      ['BaseRate1', '1'],
      ['BaseRate2', '0'],
      ['InvoiceToCode', 'C0001'],
      ['CustVATCode', '1'],
      ['PriceList', 'RETAIL'],
      ['InclVAT', '0'],
      ['ExportFlag', '0'],
    ];
    const made = records(
      await herbe('POST', '/api/1/WSVc', [
        ['set_field.SVONr', serNr],
        ['set_field.WONr', '-1'],
        ['set_field.EMCode', 'JD'],
        ['set_field.Location', location],
        ['set_field.UpdStockFlag', '1'],
        ...copied.map(([f, v]): [string, string] => [`set_field.${f}`, v]),
        ['set_field.Sum1', '90.5'],
        ['set_field.Sum3', '0'],
        ['set_field.Sum4', '90.5'],
        ['set_row_field.0.ArtCode', 'A0010'],
        ['set_row_field.0.Quant', '2'],
        ['set_row_field.0.ItemType', '1'],
        ['set_row_field.0.Price', '40'],
        ['set_row_field.0.Sum', '80'],
        ['set_row_field.0.SerialNr', 'SN-1001'],
        ['set_row_field.1.ArtCode', 'A0010'],
        ['set_row_field.1.Quant', '0.25'],
        ['set_row_field.1.ItemType', '1'],
      ]),
      'WSVc',
    )[0]!;
    const sheet = String(made.SerNr);
    expect(sheet).toMatch(/^\d+$/);
    const back = records(await get(`/api/1/WSVc?filter.SerNr=${sheet}`), 'WSVc');
    expect(back).toHaveLength(1);
    expect(back[0]).toMatchObject({
      SVONr: serNr,
      Sum1: '90.5',
      Sum3: '0',
      Sum4: '90.5',
      ...Object.fromEntries(copied),
    });
    expect(back[0]!.rows![0]).toMatchObject({ Price: '40', Sum: '80', SerialNr: 'SN-1001', ItemType: 'invoiceable' });
    expect(records(await get(`/api/1/WSVc?filter.SVONr=${serNr}&filter.EMCode=JD`), 'WSVc')).toHaveLength(1);
  });

  it('SVOVc: updates_after answers 404 in plain text saying it is not supported and how to add an index', async () => {
    const res = await get('/api/1/SVOVc?updates_after=0');
    expect(res.status).toBe(404);
    expect(res.mimeType).toBe('text/plain');
    expect(res.text).toMatch(/updates_after is not supported for this register/);
    expect(res.text).toMatch(/synchronization index/);
  });

  it('WSVc: WONr empty 1058, WONr 0 1971, WONr -1 accepted; filters CustCode, SVONr, EMCode (company in the path)', async () => {
    const sheet = (wonr: string): [string, string][] => [
      ['set_field.SVONr', '10000001'],
      ['set_field.EMCode', 'MK'],
      ['set_field.CustCode', 'C0002'],
      ['set_field.Location', 'MAIN'],
      ['set_field.WONr', wonr],
    ];
    const empty = json(await post('/api/2/WSVc', sheet(''), true));
    expect(empty.error).toMatchObject({ '@code': '1058', '@field': 'WONr' });
    const finished = json(await post('/api/2/WSVc', sheet('0'), false));
    expect(finished.error).toMatchObject({ '@code': '1971', '@field': 'WONr' });
    const ok = records(await post('/api/2/WSVc', sheet('-1'), true), 'WSVc')[0]!;
    expect(ok).toMatchObject({ WONr: '-1', EMCode: 'MK' });
    for (const f of ['filter.CustCode=C0002', 'filter.SVONr=10000001', 'filter.EMCode=MK'])
      expect(records(await get(`/api/2/WSVc?${f}`), 'WSVc').map((r) => r.SerNr)).toContain(ok.SerNr);
    expect(records(await get('/api/1/WSVc?filter.EMCode=MK'), 'WSVc').map((r) => r.SerNr)).not.toContain(ok.SerNr);
  });

  it('SVOSerVc, ActTypeVc, ActTypeGrVc and MainStockBlock read back', async () => {
    expect(records(await get('/api/1/SVOSerVc/SN-1001'), 'SVOSerVc')[0]).toMatchObject({ ArtCode: 'A0010' });
    const types = records(await get('/api/1/ActTypeVc'), 'ActTypeVc');
    expect(types.find((t) => t.Code === 'CALL')).toMatchObject({ ActTypeGr: 'CONTACT' });
    const groups = records(await get('/api/1/ActTypeGrVc'), 'ActTypeGrVc');
    expect(groups.find((g) => g.Code === 'WORK')).toMatchObject({ CalColNr: '2', ForceProj: '1' });
    const block = json(await get('/api/1/MainStockBlock')).data as Record<string, { rows: Rec[] }>;
    expect(block.MainStockBlock!.rows[0]).toMatchObject({ MainStock: 'MAIN' });
  });

  it('RLinkVc: readable; FromRecidStr is opaque and, with --quirks, carries a raw control character', async () => {
    const res = await get('/api/1/RLinkVc');
    expect(res.status).toBe(200);
    // @erpcert/client reads it either way: the control characters come back in the value
    const typed = await client(server()).rest.list('RLinkVc', {}, { format: 'json' });
    expect(String(typed.records[0]!.FromRecidStr)).toContain(String.fromCharCode(1));
    if (quirks) {
      expect(res.text).toContain(String.fromCharCode(1));
      expect(() => JSON.parse(res.text)).toThrow();
    } else {
      const link = records(res, 'RLinkVc')[0]!;
      expect(String(link.FromRecidStr)).not.toMatch(/^[A-Za-z]+Vc:\d+$/);
    }
  });

  it('ActVc: the calendar creates and edits with CalTimeFlag and AccessGroup', async () => {
    const made = records(
      await post(
        '/api/1/ActVc',
        [
          ['set_field.Comment', 'Planned site visit'],
          ['set_field.TransDate', '2025-03-12'],
          ['set_field.CalTimeFlag', '2'],
          ['set_field.AccessGroup', 'FIELD'],
        ],
        true,
      ),
      'ActVc',
    )[0]!;
    expect(made).toMatchObject({ CalTimeFlag: '2', AccessGroup: 'FIELD' });
    await client(server()).request({
      method: 'PATCH',
      path: `/api/1/ActVc/${made.SerNr}`,
      headers: { ...JSON_ACCEPT, 'content-type': FORM },
      body: form([['set_field.CalTimeFlag', '1']]),
    });
    expect(records(await get(`/api/1/ActVc/${made.SerNr}`), 'ActVc')[0]!.CalTimeFlag).toBe('1');
  });

  it('PRVc: the project picker lists projects not terminated and searches their Name', async () => {
    const open = records(await get('/api/1/PRVc?filter.Terminated=0&sort=Name&range=E:F'), 'PRVc');
    expect(open.map((p) => p.Name)).toEqual(['ERP rollout']);
    const all = records(await get('/api/1/PRVc?filter.Terminated=0'), 'PRVc');
    expect(all.length).toBeGreaterThan(1);
    expect(all.every((p) => p.Terminated === '0')).toBe(true);
  });

  it('UserVc: sign-in finds a person by emailAddr and LoginEmailAddr', async () => {
    const mail = `jd.${quirks ? 'q' : 'p'}@example.com`;
    const res = await client(server()).request({
      method: 'PATCH',
      path: '/api/1/UserVc/JD',
      headers: { ...JSON_ACCEPT, 'content-type': FORM_UTF8 },
      body: form([
        ['set_field.emailAddr', mail],
        ['set_field.LoginEmailAddr', mail],
      ]),
    });
    expect(res.status).toBe(200);
    for (const f of ['emailAddr', 'LoginEmailAddr'])
      expect(records(await get(`/api/1/UserVc?filter.${f}=${encodeURIComponent(mail)}`), 'UserVc')).toHaveLength(1);
  });

  it('getrecordlinks: <res regname="LinkVc"/> then one LinkVc per link, none without links', async () => {
    const act = records(
      await post(
        '/api/1/ActVc',
        [
          ['set_field.Comment', 'Follow-up of a service order'],
          ['set_field.SourceRegister', 'SVOVc'],
          ['set_field.SourceRecordId', '10000001'],
        ],
        true,
      ),
      'ActVc',
    )[0]!;
    const res = await portal('action=action&register=getrecordlinks&regname=SVOVc&id=10000001');
    expect(res.status).toBe(200);
    const body = res.bytes.toString('latin1');
    expect(body).toMatch(/<data><res[^>]* regname="LinkVc"\/>/);
    const ids = [...body.matchAll(/<LinkVc><ID>([\s\S]*?)<\/ID><VcName>ActVc<\/VcName>/g)].map((m) => m[1]!);
    // --quirks: the id as four raw bytes, a little-endian integer, read as Latin-1
    const asNumber = (s: string) => (quirks ? String(Buffer.from(s, 'latin1').readUInt32LE(0)) : s);
    expect(ids.map(asNumber)).toContain(String(act.SerNr));
    const none = await portal('action=action&register=getrecordlinks&regname=CUVc&id=C0003');
    expect(none.text).toMatch(/<res[^>]* regname="LinkVc"\/>/);
    expect(none.text).not.toContain('<LinkVc>');
  });

  it('document of SVOVc and WSVc: 200 with an empty file, not an error', async () => {
    for (const register of ['SVOVc', 'WSVc']) {
      const res = await portal(`action=document&register=${register}&id=10000001`);
      expect(res.status).toBe(200);
      expect(res.text).toMatch(/<file><name\/><base64\/><\/file>/);
      expect(res.text).not.toMatch(/errstr="[^"]/);
    }
  });

  it('OAuth: a refresh_token comes with the access token and buys a new one; the wire is clean for strict clients', async () => {
    const token = async (pairs: Record<string, string>) => {
      // Node's fetch is a strict HTTP client: it refuses Content-Length together with chunked encoding
      const res = await fetch(`${server().url}/oauth-token`, {
        method: 'POST',
        headers: { 'content-type': FORM },
        body: new URLSearchParams({ client_id: 'erpcert-client', client_secret: 'erpcert-secret', ...pairs }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, string>;
    };
    const first = await token({ grant_type: 'client_credentials' });
    expect(first.refresh_token).toBeTruthy();
    const next = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token! });
    expect(next.access_token).toBeTruthy();
    expect(next.access_token).not.toBe(first.access_token);
    const bearer = await client(server()).request({
      method: 'GET',
      path: '/api/1/PRVc',
      headers: { ...JSON_ACCEPT, authorization: `Bearer ${next.access_token}` },
    });
    expect(bearer.status).toBe(200);
    // the ERP's own endpoints keep the rough wire under --quirks: the same strict client fails there
    const erp = fetch(`${server().url}/api/1/`, { headers: { authorization: `Basic ${btoa(`${USER}:${PASSWORD}`)}` } });
    if (quirks) await expect(erp).rejects.toThrow();
    else expect((await erp).status).toBe(200);
  });
});
