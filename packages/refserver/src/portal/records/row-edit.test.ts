import { validateXml } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import type { App } from '../../app-types.js';
import { errstrOf, portal } from '../testing/portal-client.js';
import { PF, portalTestApps } from '../testing/portal-fixture.js';

const app = portalTestApps();

const rowsOf = (a: App, register: string, id: string) => a.store.get(register, 1, [id])!.rows;

describe('action=deleterow', () => {
  it('deletes a row, renumbers the rest and recomputes the sums', async () => {
    const a = app();
    const res = await portal(a, { action: 'deleterow', register: 'IVVc', id: `${PF.draftInvoice}:1` });
    expect(errstrOf(res.text)).toBe('');
    expect((await validateXml(res.text, 'portal-result')).valid).toBe(true);
    const rec = a.store.get('IVVc', 1, [PF.draftInvoice])!;
    expect(rec.rows.map((r) => r.ArtCode)).toEqual(['I2']);
    // what is left: I2 1 x 20.00, VAT 9 % = 1.80
    expect([rec.fields.Sum1, rec.fields.Sum3, rec.fields.Sum4]).toEqual(['20.00', '1.80', '21.80']);
  });

  it('deletes several rows named in any order', async () => {
    const a = app();
    await portal(a, { action: 'deleterow', register: 'EPOrderDocVc', id: `${PF.orderDoc}:2,1` });
    expect(rowsOf(a, 'EPOrderDocVc', PF.orderDoc)).toEqual([]);
  });

  it.each([
    ['12:', /no row numbers/],
    ['12', /must be \{SerNr\}:\{rows\}/],
    [':1', /must be \{SerNr\}:\{rows\}/],
    [`${PF.draftInvoice}:0`, /"0" is not a row number from 1/],
    [`${PF.draftInvoice}:a`, /"a" is not a row number from 1/],
    [`${PF.draftInvoice}:1,`, /"" is not a row number from 1/],
    [`${PF.draftInvoice}:1,1`, /row 1 is named twice/],
    [`${PF.draftInvoice}:3`, /row 3 is beyond the record: IVVc 10000101 has 2 row\(s\)/],
    [`${PF.draftInvoice}:1,3`, /row 3 is beyond the record/],
    ['99999999:1', /IVVc 99999999 does not exist/],
    [`${PF.confirmedInvoice}:1`, /^Record is locked$/],
  ])('refuses id %s and changes nothing', async (id, text) => {
    const a = app();
    const before = a.store.sequence;
    const res = await portal(a, { action: 'deleterow', register: 'IVVc', id });
    expect(errstrOf(res.text)).toMatch(text);
    expect(a.store.sequence).toBe(before);
    expect(rowsOf(a, 'IVVc', PF.draftInvoice)).toHaveLength(2);
  });

  it('refuses a register the table does not list for deleterow', async () => {
    const a = app();
    const res = await portal(a, { action: 'deleterow', register: 'QTVc', id: `${PF.quotation}:1` });
    expect(errstrOf(res.text)).toMatch(/register "QTVc" is not allowed for deleterow; allowed: IVVc, ORVc, VIVc/);
  });
});

describe('action=insertrow', () => {
  it.each([
    ['0', 'at the beginning', ['', 'I1', 'I2']],
    ['1', 'after row 1', ['I1', '', 'I2']],
    ['2', 'after the last row', ['I1', 'I2', '']],
  ])('afterRow %s inserts %s', async (after, _what, codes) => {
    const a = app();
    const res = await portal(a, { action: 'insertrow', register: 'IVVc', id: `${PF.draftInvoice}:${after}:2` });
    expect(errstrOf(res.text)).toBe('');
    const rows = rowsOf(a, 'IVVc', PF.draftInvoice);
    expect(rows.map((r) => r.ArtCode)).toEqual(codes);
    expect(rows[codes.indexOf('')]!.stp).toBe('2');
    expect(a.store.get('IVVc', 1, [PF.draftInvoice])!.fields.Sum4).toBe('46.20');
  });

  it.each([
    ['12:0', /must be \{SerNr\}:\{afterRow\}:\{rowType\}/],
    ['12:0:1:1', /must be/],
    [`${PF.draftInvoice}:a:1`, /afterRow "a" is not a number from 0/],
    [`${PF.draftInvoice}:-1:1`, /afterRow "-1"/],
    [`${PF.draftInvoice}:1:9`, /rowType "9" is not 1 \(item\), 2 \(text\) or 3 \(credit\)/],
    [`${PF.draftInvoice}:1:`, /rowType ""/],
    [`${PF.draftInvoice}:3:1`, /afterRow 3 is beyond the record: IVVc 10000101 has 2 row\(s\)/],
    [`${PF.confirmedInvoice}:0:1`, /^Record is locked$/],
  ])('refuses id %s and changes nothing', async (id, text) => {
    const a = app();
    const before = a.store.sequence;
    const res = await portal(a, { action: 'insertrow', register: 'IVVc', id });
    expect(errstrOf(res.text)).toMatch(text);
    expect(a.store.sequence).toBe(before);
  });

  it('inserts into a purchase invoice (VIVc) and keeps its totals', async () => {
    const a = app();
    await portal(a, { action: 'insertrow', register: 'VIVc', id: `${PF.purchase}:1:1` });
    const rec = a.store.get('VIVc', 1, [PF.purchase])!;
    expect(rec.rows.map((r) => r.stp)).toEqual(['1', '1']);
    expect([rec.fields.PayVal, rec.fields.VATVal]).toEqual(['122.00', '22.00']);
  });
});

describe('action=posttext', () => {
  it('stores set_field.Math in the record', async () => {
    const a = app();
    const html = '<p>Dear customer &amp; friends</p>';
    const res = await portal(
      a,
      { action: 'posttext', register: 'MailVc', id: PF.mail },
      { form: { 'set_field.Math': html } },
    );
    expect(errstrOf(res.text)).toBe('');
    expect(a.store.get('MailVc', 1, [PF.mail])!.fields.Math).toBe(html);
  });

  it.each([
    ['no set_field.Math', { other: 'x' }, /missing required body field "set_field.Math"/],
    ['another field', { 'set_field.Math': 'x', 'set_field.Subject': 'y' }, /also has set_field.Subject/],
  ])('refuses a body with %s', async (_n, form, text) => {
    const a = app();
    const res = await portal(a, { action: 'posttext', register: 'MailVc', id: PF.mail }, { form });
    expect(errstrOf(res.text)).toMatch(text);
    expect(a.store.get('MailVc', 1, [PF.mail])!.fields.Math).toBe('old text');
  });

  it('refuses GET, a non-form body and a register outside MailVc, EPOrderDocVc', async () => {
    const a = app();
    const q = { action: 'posttext', register: 'MailVc', id: PF.mail };
    expect((await portal(a, q)).status).toBe(405);
    const json = await portal(a, q, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(errstrOf(json.text)).toMatch(/form-encoded body/);
    const iv = await portal(a, { ...q, register: 'IVVc' }, { form: { 'set_field.Math': 'x' } });
    expect(errstrOf(iv.text)).toMatch(/not allowed for posttext; allowed: MailVc, EPOrderDocVc/);
  });
});
