import { validateXml } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import { call } from '../../testing/test-client.js';
import { errstrOf, parsePortal, portal, resOf } from '../testing/portal-client.js';
import { PF, portalTestApps } from '../testing/portal-fixture.js';

const app = portalTestApps();

const sub = (register: string, q: Record<string, string>) => ({ action: 'action', register, ...q });

describe('conversions', () => {
  it.each([
    ['createslinvoicefromorder', { id: PF.draftOrder }, 'ORVc', 'IVVc'],
    ['createsalesorderfromquotation', { id: PF.quotation, regname: 'QTVc' }, 'QTVc', 'ORVc'],
    ['createslinvoicefromquotation', { id: PF.quotation, regname: 'QTVc' }, 'QTVc', 'IVVc'],
  ])('%s makes a new %s -> %s record with the customer and rows, auto-filled', async (name, q, from, to) => {
    const a = app();
    const res = await portal(a, sub(name, { ...q, usercode: 'JD' }));
    expect((await validateXml(res.text, 'portal-conversion-result')).valid).toBe(true);
    const newdata = resOf(res.text).newdata!;
    expect(newdata).toMatch(/^\d+$/);
    const rec = a.store.get(to, 1, [newdata])!;
    expect(rec.fields.CustCode).toBe('C1');
    expect(rec.fields.OKFlag === '' || rec.fields.OKFlag === '0').toBe(true);
    expect(rec.rows.map((r) => [r.ArtCode, r.Quant, r.Price, r.Sum])).toEqual([
      ['I1', '2', '10.00', '20.00'],
      ['I2', '1', '20.00', '20.00'],
    ]);
    // auto-fill of a form write: the customer's address (C1 Main St 1) and the item's sales account (GOODS 3000)
    if (to === 'IVVc') {
      expect(rec.fields.Addr1).toBe('Main St 1');
      expect(rec.fields.InvDate).toBe('2025-03-10');
      // InvDate 2025-03-10 + payment term 30 days
      expect(rec.fields.PayDate).toBe('2025-04-09');
    }
    expect(rec.fields.Sum4).toBe('46.20');
    const links = await portal(a, sub('getrecordlinks', { regname: to, id: newdata }));
    expect(parsePortal(links.text).data.LinkVc).toEqual({ ID: q.id, VcName: from, Comment: 'source' });
  });

  it('refuses a second conversion of the same source, a wrong regname and a missing usercode', async () => {
    const a = app();
    const first = await portal(a, sub('createslinvoicefromorder', { id: PF.draftOrder, usercode: 'JD' }));
    const newdata = resOf(first.text).newdata;
    const again = await portal(a, sub('createslinvoicefromorder', { id: PF.draftOrder, usercode: 'JD' }));
    expect(errstrOf(again.text)).toBe(`ORVc ${PF.draftOrder} was already converted to IVVc ${newdata}`);
    const wrong = await portal(
      a,
      sub('createsalesorderfromquotation', { id: PF.quotation, regname: 'ORVc', usercode: 'JD' }),
    );
    expect(errstrOf(wrong.text)).toBe('createsalesorderfromquotation converts QTVc records; regname is "ORVc"');
    const nouser = await portal(a, sub('createslinvoicefromquotation', { id: PF.quotation, regname: 'QTVc' }));
    expect(errstrOf(nouser.text)).toBe('missing required parameter "usercode"');
    const unknown = await portal(a, sub('createslinvoicefromquotation', { id: PF.quotation, usercode: 'NOBODY' }));
    expect(errstrOf(unknown.text)).toBe('usercode "NOBODY" is not a user of company 1');
  });
});

describe('copyrecord', () => {
  it('copies an invoice to a new SerNr, dated today, as a draft', async () => {
    const a = app();
    const res = await portal(a, sub('copyrecord', { regname: 'IVVc', id: PF.confirmedInvoice }));
    expect((await validateXml(res.text, 'portal-result')).valid).toBe(true);
    const newdata = resOf(res.text).newdata!;
    expect(newdata).not.toBe(PF.confirmedInvoice);
    const copy = a.store.get('IVVc', 1, [newdata])!;
    expect([copy.fields.InvDate, copy.fields.OKFlag, copy.fields.CustCode, copy.fields.Sum4]).toEqual([
      '2025-03-10',
      '0',
      'C1',
      '46.20',
    ]);
    expect(copy.fields.UUID).not.toBe(a.store.get('IVVc', 1, [PF.confirmedInvoice])!.fields.UUID);
    expect((await call(a, 'GET', `/api/1/IVVc/${newdata}`)).status).toBe(200);
  });

  it.each(['ORVc', 'QTVc'])('refuses %s (IVVc only)', async (regname) => {
    const res = await portal(app(), sub('copyrecord', { regname, id: '1' }));
    expect(errstrOf(res.text)).toBe(`regname "${regname}" is not allowed for copyrecord; allowed: IVVc`);
  });
});

describe('unokrecord', () => {
  it.each(['ADMIN', 'ACC'])(
    'lets %s (un-confirm permission) turn a confirmed invoice into a draft',
    async (usercode) => {
      const a = app();
      const res = await portal(a, sub('unokrecord', { regname: 'IVVc', id: PF.confirmedInvoice, usercode }));
      expect(errstrOf(res.text)).toBe('');
      expect(a.store.get('IVVc', 1, [PF.confirmedInvoice])!.fields.OKFlag).toBe('0');
    },
  );

  it.each([
    [
      'a user without the permission',
      { id: PF.confirmedInvoice, usercode: 'JD' },
      'Access denied: user JD has no un-confirm permission',
    ],
    ['a closed user', { id: PF.confirmedInvoice, usercode: 'OLD' }, 'user OLD is closed'],
    ['no usercode', { id: PF.confirmedInvoice }, 'missing required parameter "usercode"'],
    [
      'a draft record',
      { id: PF.draftInvoice, usercode: 'ADMIN' },
      `IVVc ${PF.draftInvoice} is not confirmed (OKFlag 0)`,
    ],
  ])('refuses %s and leaves OKFlag', async (_n, q, text) => {
    const a = app();
    const before = a.store.get('IVVc', 1, [q.id])!.fields.OKFlag;
    const res = await portal(a, sub('unokrecord', { regname: 'IVVc', ...q }));
    expect(errstrOf(res.text)).toBe(text);
    expect(a.store.get('IVVc', 1, [q.id])!.fields.OKFlag).toBe(before);
  });

  it('serves PlanAbsenceVc and refuses registers outside the row', async () => {
    const a = app();
    a.store.insert('PlanAbsenceVc', 1, { fields: { SerNr: '7', OKFlag: '1' }, rows: [] });
    expect(
      errstrOf((await portal(a, sub('unokrecord', { regname: 'PlanAbsenceVc', id: '7', usercode: 'ADMIN' }))).text),
    ).toBe('');
    const vi = await portal(a, sub('unokrecord', { regname: 'VIVc', id: PF.purchase, usercode: 'ADMIN' }));
    expect(errstrOf(vi.text)).toBe('regname "VIVc" is not allowed for unokrecord; allowed: IVVc, ORVc, PlanAbsenceVc');
  });
});
