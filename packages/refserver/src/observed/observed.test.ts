import { closeXmlValidator, detectXmlBodyKind, validateXml } from '@erpcert/contract';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { App } from '../app-types.js';
import { errstrOf, portal, resOf } from '../portal/testing/portal-client.js';
import { call, jsonRecords, parseXml, testApp } from '../testing/test-client.js';
import { vatRates } from '../values/vat.js';

// issue 10: what live servers serve beyond the docs, on the demo data (seed 0: master data only)
let app: App | undefined;
afterEach(() => app?.close());
afterAll(closeXmlValidator);
const JSON_ACCEPT = { accept: 'application/json' };
const seeded = (options: Parameters<typeof testApp>[0] = {}) => {
  app = testApp({ seed: 0, ...options });
  return app;
};

describe('PRVc and DepVc: list, get by key, create, update, sequences and change feed', () => {
  it.each(['PRVc', 'DepVc'])('%s', async (register) => {
    const a = seeded();
    const list = jsonRecords((await call(a, 'GET', `/api/1/${register}`, { headers: JSON_ACCEPT })).text, register);
    expect(list.length).toBeGreaterThan(1);
    expect(Object.keys(list[0]!)).toEqual(
      expect.arrayContaining(['Code', 'Comment', 'Closed', 'UUID', 'ServerSequence', 'SyncFlags']),
    );
    const before = a.store.sequence;
    const made = await call(a, 'POST', `/api/1/${register}`, {
      form: [
        ['set_field.Code', 'NEW1'],
        ['set_field.Comment', 'New one'],
      ],
      headers: JSON_ACCEPT,
    });
    expect(jsonRecords(made.text, register)[0]).toMatchObject({ Code: 'NEW1', Comment: 'New one' });
    await call(a, 'PATCH', `/api/1/${register}/NEW1`, { form: [['set_field.Closed', '1']] });
    const one = jsonRecords((await call(a, 'GET', `/api/1/${register}/NEW1`, { headers: JSON_ACCEPT })).text, register);
    expect(one).toHaveLength(1);
    expect(one[0]).toMatchObject({ Code: 'NEW1', Closed: '1' });
    const feed = jsonRecords(
      (await call(a, 'GET', `/api/1/${register}?updates_after=${before}`, { headers: JSON_ACCEPT })).text,
      register,
    );
    expect(feed.map((r) => r.Code)).toEqual(['NEW1']);
    expect(Number(feed[0]!.ServerSequence)).toBeGreaterThan(before);
  });

  it('DepVc holds the department codes of the department objects (ObjVc DEP1, DEP2)', async () => {
    const a = seeded();
    const deps = jsonRecords((await call(a, 'GET', '/api/1/DepVc', { headers: JSON_ACCEPT })).text, 'DepVc');
    const objs = jsonRecords((await call(a, 'GET', '/api/1/ObjVc', { headers: JSON_ACCEPT })).text, 'ObjVc');
    for (const code of ['DEP1', 'DEP2']) {
      expect(deps.find((d) => d.Code === code)?.Comment).toBe(objs.find((o) => o.Code === code)?.Comment);
    }
  });
});

describe('VATCodeBlock: one settings record', () => {
  it('answers JSON with an object holding rows under the register key, one row per VAT code', async () => {
    const a = seeded();
    const res = await call(a, 'GET', '/api/1/VATCodeBlock', { headers: JSON_ACCEPT });
    expect(res.status).toBe(200);
    const data = JSON.parse(res.text).data;
    expect(data['@register']).toBe('VATCodeBlock');
    expect(data['@sequence']).toBe(String(a.store.sequence));
    expect(Array.isArray(data.VATCodeBlock)).toBe(false);
    const rows = data.VATCodeBlock.rows as Record<string, string>[];
    expect(rows.map((r) => r.VATCode)).toEqual(Object.keys(vatRates));
    expect(rows.find((r) => r.VATCode === '1')).toMatchObject({
      '@rownumber': '1',
      ExVatpr: '22',
      IncVatpr: '18.03',
      SalesVATAcc: '2610',
      PurchVATAcc: '2640',
      ValidFrom: '2024-01-01',
      ValidUntil: '',
    });
  });

  it('uses every VAT code that items, accounts and invoice rows use', async () => {
    const a = seeded({ seed: 40 });
    const block = JSON.parse((await call(a, 'GET', '/api/1/VATCodeBlock', { headers: JSON_ACCEPT })).text).data;
    const codes = new Set((block.VATCodeBlock.rows as Record<string, string>[]).map((r) => r.VATCode));
    const used = new Set<string>();
    for (const [register, row] of [
      ['INVc', false],
      ['AccVc', false],
      ['IVVc', true],
    ] as const) {
      for (const r of jsonRecords(
        (await call(a, 'GET', `/api/1/${register}`, { headers: JSON_ACCEPT })).text,
        register,
      ))
        for (const v of row ? (r.rows ?? []).map((x) => x.VATCode) : [r.VATCode]) if (v) used.add(String(v));
    }
    expect(used.size).toBeGreaterThan(0);
    for (const v of used) expect(codes, v).toContain(v);
  });

  it('answers XML with <VATCodeBlock><rows><row rownumber>', async () => {
    const a = seeded();
    const res = await call(a, 'GET', '/api/1/VATCodeBlock');
    const doc = parseXml(res.text) as { data: { VATCodeBlock: { rows: { row: unknown[] } }[] } };
    expect(doc.data.VATCodeBlock[0]!.rows.row).toHaveLength(Object.keys(vatRates).length);
    // the shape specs/xsd/rest-block.xsd describes (and the spec's VATCodeBlockEnvelopeXml); a block is no record
    expect(detectXmlBodyKind(res.text)).toBe('rest-block');
    expect(await validateXml(res.text, 'rest-block')).toMatchObject({ valid: true, errors: [] });
  });

  it('refuses writes with 405 and keys with 404, in the error shape', async () => {
    const a = seeded();
    const post = await call(a, 'POST', '/api/1/VATCodeBlock', { form: [['set_field.X', '1']], headers: JSON_ACCEPT });
    expect(post.status).toBe(405);
    expect(post.headers.Allow).toBe('GET, HEAD');
    expect(JSON.parse(post.text).error['@code']).toBe('1008');
    const key = await call(a, 'GET', '/api/1/VATCodeBlock/1', { headers: JSON_ACCEPT });
    expect(key.status).toBe(404);
  });
});

describe('the observed fields (specs/observed-fields.yaml) are accepted, stored, served and filtered', () => {
  it('IVVc header and rows, CUVc, INVc, IPVc, VIVc', async () => {
    const a = seeded();
    const inv = await call(a, 'POST', '/api/1/IVVc', {
      form: [
        ['set_field.CustCode', 'C0001'],
        ['set_field.InvComment', 'from the observed list'],
        ['set_field.RefStr', 'REF-77'],
        ['set_field.ExportFlag', '1'],
        ['set_row_field.0.ArtCode', 'A0010'],
        ['set_row_field.0.Objects', 'DEP1'],
      ],
      headers: JSON_ACCEPT,
    });
    const made = jsonRecords(inv.text, 'IVVc')[0]!;
    expect(made).toMatchObject({ InvComment: 'from the observed list', RefStr: 'REF-77', ExportFlag: '1' });
    expect(made.rows![0]).toMatchObject({ Objects: 'DEP1', stp: '1' });
    const filtered = jsonRecords(
      (await call(a, 'GET', '/api/1/IVVc?filter.RefStr=REF-77', { headers: JSON_ACCEPT })).text,
      'IVVc',
    );
    expect(filtered.map((r) => r.SerNr)).toEqual([made.SerNr]);
    await call(a, 'PATCH', `/api/1/IVVc/${made.SerNr}`, { form: [['set_field.InvComment', 'changed']] });
    const back = jsonRecords(
      (await call(a, 'GET', `/api/1/IVVc/${made.SerNr}`, { headers: JSON_ACCEPT })).text,
      'IVVc',
    );
    expect(back[0]!.InvComment).toBe('changed');
    for (const [register, body] of [
      ['CUVc', { Code: 'OBS1', Name: 'x', Fax: '1', wwwAddr: 'w', CustType: '2', Objects: 'DEP1', BankAccount: 'B' }],
      ['INVc', { Code: 'OBS1', Name: 'x', SalesAcc: '3000' }],
      ['IPVc', { Comment: 'c', Objects: 'DEP1', rows: [{ stp: '1', CustName: 'n', RecCurncy: 'EUR', Comment: 'r' }] }],
      ['VIVc', { Comment: 'purchase note' }],
    ] as const) {
      const res = await call(a, 'POST', `/api/1/${register}`, {
        json: { data: { [register]: [body] } },
        headers: JSON_ACCEPT,
      });
      const { rows, ...header } = body as Record<string, unknown>;
      const got = jsonRecords(res.text, register)[0]!;
      expect(got, register).toMatchObject(header);
      if (rows) expect(got.rows![0], register).toMatchObject((rows as Record<string, string>[])[0]!);
    }
  });

  it('still refuses a field no live server has, in the documented error shape', async () => {
    const a = seeded();
    const res = await call(a, 'PATCH', '/api/1/CUVc/C0001', {
      form: [['set_field.NoSuchField', '1']],
      headers: JSON_ACCEPT,
    });
    expect(JSON.parse(res.text).error).toMatchObject({ '@code': '2001', '@field': 'NoSuchField' });
  });
});

describe('the API login is a person of the user register (--user)', () => {
  it('works as usercode in every company, with every right; demo users keep theirs', async () => {
    const a = seeded({ user: 'apiuser', password: 'pw' });
    const auth = { authorization: `Basic ${Buffer.from('apiuser:pw').toString('base64')}` };
    for (const compno of ['1', '2']) {
      const has = await portal(
        a,
        { action: 'action', register: 'hasusernewapi', usercode: 'apiuser', compno },
        { headers: auth },
      );
      expect(resOf(has.text), compno).toMatchObject({ errstr: '', hasapi: '1' });
    }
    const admins = await portal(
      a,
      { action: 'action', register: 'getadminusers', usercode: 'apiuser' },
      { headers: auth },
    );
    expect(admins.text).toContain('apiuser');
    const jd = a.store.get('UserVc', 1, ['JD'])!.fields;
    expect(jd.AccessGroup).toBe('SALES');
    const refused = await portal(
      a,
      { action: 'action', register: 'hasusernewapi', usercode: 'NOBODY' },
      { headers: auth },
    );
    expect(errstrOf(refused.text)).toMatch(/NOBODY/);
  });
});
