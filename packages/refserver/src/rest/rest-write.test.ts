import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../app-types.js';
import { patchFromForm } from '../business/record-write.js';
import { loadFixture } from '../testing/fixtures.js';
import { call, jsonRecords, parseXml, testApp, xmlRecords } from '../testing/test-client.js';

let app: App;
beforeEach(() => {
  app = testApp();
  loadFixture(app.store);
});
afterEach(() => app.close());

const JSON_ACCEPT = { accept: 'application/json' };
const post = (register: string, form: [string, string][], query = '') =>
  call(app, 'POST', `/api/1/${register}${query}`, { form, headers: JSON_ACCEPT });
const patch = (path: string, form: [string, string][]) =>
  call(app, 'PATCH', `/api/1/${path}`, { form, headers: JSON_ACCEPT });
const read = async (path: string) =>
  jsonRecords((await call(app, 'GET', `/api/1/${path}`, { headers: JSON_ACCEPT })).text, path.split('/')[0]!)[0]!;
const one = (text: string, register: string) => jsonRecords(text, register)[0]!;

describe('form POST runs auto-fill and sums (record-rest-api.md §4 rule 1)', () => {
  it('fills an invoice from the customer, the item and the payment term', async () => {
    const res = await post('IVVc', [
      ['set_field.CustCode', 'C1'],
      ['set_row_field.0.ArtCode', 'I1'],
      ['set_row_field.0.Quant', '2'],
    ]);
    expect(res.status).toBe(200);
    const rec = one(res.text, 'IVVc');
    expect(rec).toMatchObject({
      SerNr: '10000001',
      Addr0: 'Alpha Ltd',
      Addr1: 'Main St 1',
      Addr2: 'Tallinn',
      Addr3: '10111',
      PayDeal: '30',
      CurncyCode: 'EUR',
      InvCountry: 'EE',
      SalesMan: 'JD',
      PriceList: 'PL1',
      ARAcc: '1500',
      InvDate: '2025-03-10',
      TransDate: '2025-03-10',
      PayDate: '2025-04-09',
      OKFlag: '0',
      Sum0: '18.00',
      Sum1: '18.00',
      Sum2: '0.00',
      Sum3: '3.96',
      Sum4: '21.96',
      BaseSum4: '21.96',
    });
    expect(rec.rows).toEqual([
      {
        '@rownumber': '0',
        stp: '1',
        ArtCode: 'I1',
        Quant: '2',
        Price: '9.00',
        Sum: '18.00',
        SalesAcc: '3000',
        VATCode: '1',
        Spec: 'Widget',
        UnitCode: 'pcs',
      },
    ]);
  });

  it('answers with the non-blank fields only; GET lists them all', async () => {
    const posted = one((await post('IVVc', [['set_field.CustCode', 'C1']])).text, 'IVVc');
    expect(posted.DiscPerc).toBeUndefined();
    expect(posted['@url']).toBe('/api/1/IVVc/10000001');
    const got = await read('IVVc/10000001');
    expect(got.DiscPerc).toBe('');
    const withAll = one((await post('IVVc', [['set_field.CustCode', 'C1']], '?fieldmode=all')).text, 'IVVc');
    expect(withAll.DiscPerc).toBe('');
  });

  it('never overwrites a field the request set', async () => {
    const rec = one(
      (
        await post('IVVc', [
          ['set_field.PayDeal', '14'],
          ['set_field.CustCode', 'C1'],
          ['set_field.Addr0', 'Someone else'],
          ['set_row_field.0.ArtCode', 'I1'],
          ['set_row_field.0.Price', '12.50'],
        ])
      ).text,
      'IVVc',
    );
    expect(rec).toMatchObject({ PayDeal: '14', PayDate: '2025-03-24', Addr0: 'Someone else', Sum4: '15.25' });
    expect(rec.rows![0]).toMatchObject({ Price: '12.50', Quant: '1', Sum: '12.50' });
  });

  it.each([
    [
      'a row discount',
      [
        ['set_row_field.0.ArtCode', 'I1'],
        ['set_row_field.0.Quant', '2'],
        ['set_row_field.0.vRebate', '10'],
      ],
      { Sum0: '18.00', Sum1: '16.20', Sum2: '1.80', Sum3: '3.56', Sum4: '19.76' },
    ],
    [
      'two VAT rates',
      [
        ['set_row_field.0.ArtCode', 'I1'],
        ['set_row_field.1.ArtCode', 'I2'],
        ['set_row_field.1.Quant', '3'],
      ],
      { Sum0: '69.00', Sum1: '69.00', Sum3: '7.38', Sum4: '76.38' },
    ],
    [
      'a header discount',
      [
        ['set_field.DiscPerc', '10'],
        ['set_row_field.0.ArtCode', 'I1'],
        ['set_row_field.1.ArtCode', 'I2'],
        ['set_row_field.1.Quant', '3'],
      ],
      { DiscSum: '6.90', Sum1: '62.10', Sum2: '6.90', Sum3: '6.64', Sum4: '68.74' },
    ],
    [
      'a text row',
      [
        ['set_row_field.0.stp', '2'],
        ['set_row_field.0.Spec', 'Note'],
        ['set_row_field.1.ArtCode', 'I1'],
      ],
      { Sum1: '9.00', Sum4: '10.98' },
    ],
  ] as [string, [string, string][], Record<string, string>][])('computes sums with %s', async (_name, rows, sums) => {
    const rec = one((await post('IVVc', [['set_field.CustCode', 'C1'], ...rows])).text, 'IVVc');
    expect(rec).toMatchObject(sums);
  });

  it('back-calculates vRebate from an explicit row Sum', async () => {
    const rec = one(
      (
        await post('IVVc', [
          ['set_row_field.0.ArtCode', 'I1'],
          ['set_row_field.0.Quant', '2'],
          ['set_row_field.0.Price', '10'],
          ['set_row_field.0.Sum', '15.00'],
        ])
      ).text,
      'IVVc',
    );
    expect(rec.rows![0]).toMatchObject({ vRebate: '25', Sum: '15.00' });
    expect(rec.Sum1).toBe('15.00');
  });

  it('computes journal entry totals and numbers entries per year', async () => {
    const rec = one(
      (
        await post('TRVc', [
          ['set_field.TransDate', '2024-05-01'],
          ['set_row_field.0.AccNumber', '1000'],
          ['set_row_field.0.DebVal', '50'],
          ['set_row_field.1.AccNumber', '4000'],
          ['set_row_field.1.CredVal', '40'],
        ])
      ).text,
      'TRVc',
    );
    expect(rec).toMatchObject({
      IntYc: '2024',
      Number: '1',
      DSum: '50.00',
      CSum: '40.00',
      DiffVal: '10.00',
      '@url': '/api/1/TRVc/2024/1',
    });
  });

  it('recalculates an item volume and net weight', async () => {
    const rec = one(
      (
        await post('INVc', [
          ['set_field.Code', 'BOX'],
          ['set_field.Width', '0.5'],
          ['set_field.Height', '0.2'],
          ['set_field.Depth', '0.1'],
          ['set_field.Density', '100'],
        ])
      ).text,
      'INVc',
    );
    expect(rec).toMatchObject({ Volume: '0.01', NetWeight: '1' });
  });
});

describe('validation errors: HTTP 200 with <error> before <data>, nothing written', () => {
  it.each([
    ['an unknown header field', [['set_field.Foo', '1']], '2001', 'Foo', '-1'],
    ['an unknown row field', [['set_row_field.0.Bar', '1']], '2001', 'Bar', '0'],
    ['an unknown customer', [['set_field.CustCode', 'NOPE']], '2006', 'CustCode', '-1'],
    ['an unknown item', [['set_row_field.0.ArtCode', 'NOPE']], '2006', 'ArtCode', '0'],
    ['an unknown payment term', [['set_field.PayDeal', '99']], '2006', 'PayDeal', '-1'],
    [
      'a quantity that is no number',
      [
        ['set_row_field.0.ArtCode', 'I1'],
        ['set_row_field.0.Quant', 'abc'],
      ],
      '2003',
      'Quant',
      '0',
    ],
    ['OKFlag 2', [['set_field.OKFlag', '2']], '2003', 'OKFlag', '-1'],
    ['a SerNr that is no number', [['set_field.SerNr', 'x1']], '2003', 'SerNr', '-1'],
    ['ServerSequence', [['set_field.ServerSequence', '5']], '2009', 'ServerSequence', '-1'],
    ['a row type 7', [['set_row_field.0.stp', '7']], '2003', 'stp', '0'],
    ['a gap in the rows', [['set_row_field.1.Spec', 'x']], '2003', 'Spec', '1'],
    ['a control character', [['set_field.Addr0', 'a\u0001b']], '2003', 'Addr0', '-1'],
  ] as [string, [string, string][], string, string, string][])('%s', async (_name, form, code, field, row) => {
    const before = app.store.sequence;
    const json = await post('IVVc', form);
    expect(json.status).toBe(200);
    expect(JSON.parse(json.text).error).toMatchObject({ '@code': code, '@field': field, '@row': row });
    const xml = await call(app, 'POST', '/api/1/IVVc', { form });
    expect(xml.status).toBe(200);
    expect(xml.text).toMatch(
      /^<\?xml[^>]*>\n<error code="\d+" description="[^"]+" row="-?\d+" field="\w+"\/>\n<data register="IVVc"/,
    );
    expect(parseXml(xml.text)).toMatchObject({ error: { '@code': code, '@field': field, '@row': row } });
    expect(app.store.sequence).toBe(before);
    expect(jsonRecords((await call(app, 'GET', '/api/1/IVVc', { headers: JSON_ACCEPT })).text, 'IVVc')).toEqual([]);
  });

  it('names every unknown field in the description', async () => {
    const res = await post('CUVc', [
      ['set_field.Code', 'X'],
      ['set_field.Foo', '1'],
      ['set_field.Bar', '2'],
    ]);
    expect(JSON.parse(res.text).error['@description']).toContain('Foo, Bar');
  });

  it('refuses a key that exists and a missing key', async () => {
    expect(JSON.parse((await post('CUVc', [['set_field.Code', 'C1']])).text).error['@code']).toBe('2004');
    expect(JSON.parse((await post('CUVc', [['set_field.Name', 'no code']])).text).error).toMatchObject({
      '@code': '2002',
      '@field': 'Code',
    });
  });

  it('refuses a row number beyond the rows as a validation error (HTTP 200), however many digits it has', async () => {
    for (const n of ['5', '1234567', '3148478358573181224737327516']) {
      const res = await post('INVc', [
        ['set_field.Code', `ROW${n.length}`],
        [`set_row_field.${n}.Text`, 'x'],
      ]);
      expect(res.status, n).toBe(200);
      expect(JSON.parse(res.text).error['@description'], n).toMatch(/^row .* cannot be set: the record has 0 row\(s\)/);
    }
    expect(app.store.get('INVc', 1, ['ROW1'])).toBeUndefined();
  });

  it('refuses a malformed form body with 400', async () => {
    const res = await call(app, 'POST', '/api/1/CUVc', { form: [['Code', 'X']] });
    expect(res.status).toBe(400);
    expect(res.text).toContain('set_field');
  });

  it('refuses other media types with 415', async () => {
    const res = await call(app, 'POST', '/api/1/CUVc', {
      body: '<x/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.status).toBe(415);
  });
});

describe('confirmation and PATCH', () => {
  const invoice = (extra: [string, string][] = []) =>
    post('IVVc', [['set_field.CustCode', 'C1'], ['set_row_field.0.ArtCode', 'I1'], ...extra]);

  it('set_field.OKFlag=1 confirms; a confirmed record refuses every change', async () => {
    const rec = one((await invoice([['set_field.OKFlag', '1']])).text, 'IVVc');
    expect(rec.OKFlag).toBe('1');
    const seq = app.store.sequence;
    for (const form of [[['set_field.Addr0', 'x']], [['set_row_field.0.Quant', '5']], [['set_field.OKFlag', '0']]] as [
      string,
      string,
    ][][]) {
      const res = await patch('IVVc/10000001', form);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text).error).toMatchObject({ '@code': '2005', '@description': 'Record is locked' });
    }
    expect(app.store.sequence).toBe(seq);
    expect((await read('IVVc/10000001')).Addr0).toBe('Alpha Ltd');
  });

  it('updates a draft: triggers run for the changed fields, sums are recomputed, the sequence moves', async () => {
    const created = one((await invoice()).text, 'IVVc');
    const res = await patch('IVVc/10000001', [
      ['set_field.PayDeal', '14'],
      ['set_row_field.0.Quant', '3'],
      ['set_row_field.1.ArtCode', 'I2'],
    ]);
    expect(res.status).toBe(200);
    const rec = one(res.text, 'IVVc');
    expect(Number(rec['@sequence'])).toBeGreaterThan(Number(created['@sequence']));
    expect(rec).toMatchObject({
      PayDeal: '14',
      PayDate: '2025-03-24',
      Sum1: '47.00',
      Sum3: '7.74',
      Sum4: '54.74',
      DiscPerc: '',
    });
    expect(rec.rows!.map((r) => [r.ArtCode, r.Quant, r.Sum])).toEqual([
      ['I1', '3', '27.00'],
      ['I2', '1', '20.00'],
    ]);
    const confirmed = one((await patch('IVVc/10000001', [['set_field.OKFlag', '1']])).text, 'IVVc');
    expect(confirmed.OKFlag).toBe('1');
  });

  it.each([
    ['a key change', [['set_field.SerNr', '5']], '2009'],
    ['a row beyond the next one', [['set_row_field.3.Quant', '1']], '2003'],
    ['an unknown field', [['set_field.Nope', '1']], '2001'],
  ] as [string, [string, string][], string][])('refuses %s', async (_name, form, code) => {
    await invoice();
    expect(JSON.parse((await patch('IVVc/10000001', form)).text).error['@code']).toBe(code);
  });

  it('loses no update when a writer holds a stale copy of the record', async () => {
    await invoice();
    const stale = app.store.get('IVVc', 1, ['10000001'])!;
    const ctx = app.writeContext(1);
    const schema = app.store.schema('IVVc')!;
    patchFromForm(ctx, schema, stale, { header: [['Addr1', 'first']], rows: new Map() });
    patchFromForm(ctx, schema, stale, { header: [['Addr2', 'second']], rows: new Map() });
    expect(await read('IVVc/10000001')).toMatchObject({ Addr1: 'first', Addr2: 'second' });
  });

  it('answers 404 for a record that does not exist and 415 for a JSON body', async () => {
    expect((await patch('IVVc/999', [['set_field.Addr0', 'x']])).status).toBe(404);
    await invoice();
    const res = await call(app, 'PATCH', '/api/1/IVVc/10000001', { json: { data: {} } });
    expect(res.status).toBe(415);
  });
});

describe('JSON POST (record-rest-api.md §4 rules 2 and 3)', () => {
  it('creates several records at once without auto-fill', async () => {
    const res = await call(app, 'POST', '/api/1/IVVc', {
      headers: JSON_ACCEPT,
      json: {
        data: {
          IVVc: [
            {
              '@register': 'IVVc',
              CustCode: 'C1',
              rows: [{ stp: '1', ArtCode: 'I1', Quant: 2, Price: '9.00', Sum: '18.00' }],
            },
            { CustCode: 'C3', InvDate: '2025-01-01' },
          ],
        },
      },
    });
    const recs = jsonRecords(res.text, 'IVVc');
    expect(recs.map((r) => [r.SerNr, r.CustCode])).toEqual([
      ['10000001', 'C1'],
      ['10000002', 'C3'],
    ]);
    expect(recs[0]!.Addr0).toBeUndefined();
    expect(recs[0]!.PayDeal).toBeUndefined();
    expect(recs[0]!.rows![0]).toMatchObject({ Quant: '2', Sum: '18.00' });
    expect(recs[0]!.Sum4).toBeUndefined();
  });

  it('creates none when one record fails, and says which', async () => {
    const before = app.store.sequence;
    const res = await call(app, 'POST', '/api/1/CUVc', {
      headers: JSON_ACCEPT,
      json: { data: { CUVc: [{ Code: 'N1' }, { Code: 'N2', Colour: 'red' }] } },
    });
    expect(JSON.parse(res.text).error).toMatchObject({ '@code': '2001', '@field': 'Colour' });
    expect(JSON.parse(res.text).error['@description']).toContain('record 1');
    expect(app.store.sequence).toBe(before);
    expect((await call(app, 'GET', '/api/1/CUVc/N1')).status).toBe(404);
  });

  it.each([
    ['a lone surrogate (XML cannot carry it; the JSON and XML views would differ)', '\\ud800'],
    ['a control character', '\\u0001'],
  ])('refuses a value with %s, field named, nothing written', async (_name, jsonEscape) => {
    const before = app.store.sequence;
    const body = `{"data":{"CUVc":[{"Code":"LS1","Name":"a${jsonEscape}b"}]}}`;
    const res = await call(app, 'POST', '/api/1/CUVc', {
      body,
      headers: { ...JSON_ACCEPT, 'content-type': 'application/json' },
    });
    expect(JSON.parse(res.text).error).toMatchObject({ '@code': '2003', '@field': 'Name' });
    expect(app.store.sequence).toBe(before);
    expect((await call(app, 'GET', '/api/1/CUVc/LS1')).status).toBe(404);
  });

  it.each([
    ['not JSON', '{"data":'],
    ['no data object', '{"IVVc":[]}'],
    ['another register', '{"data":{"CUVc":[{"Code":"X"}]}}'],
    ['an @register that disagrees', '{"data":{"IVVc":[{"@register":"CUVc"}]}}'],
    ['an object value', '{"data":{"IVVc":[{"CustCode":{"a":1}}]}}'],
    ['no record', '{"data":{"IVVc":[]}}'],
  ])('answers 400 for %s', async (_name, body) => {
    const res = await call(app, 'POST', '/api/1/IVVc', { body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(xmlRecords(res.text, 'IVVc')).toEqual([]);
    expect(parseXml(res.text)).toHaveProperty('error');
  });
});
