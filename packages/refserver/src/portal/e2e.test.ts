import { randomBytes } from 'node:crypto';
import { closeXmlValidator, validateXml } from '@erpcert/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server/node-server.js';
import { asList, errstrOf, parsePortal, resOf } from './testing/portal-client.js';
import { loadPortalFixture, PF } from './testing/portal-fixture.js';

/** End-to-end flows over real HTTP (issue 4 "Tests"): one server on 127.0.0.1, port 0. */
let server: RunningServer;
const basic = `Basic ${Buffer.from('erpcert:erpcert').toString('base64')}`;

beforeAll(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, seed: false, log: () => {} });
  loadPortalFixture(server.app.store);
});
afterAll(async () => {
  await server.close();
  await closeXmlValidator();
});

async function get(path: string, headers: Record<string, string> = { authorization: basic }) {
  const res = await fetch(`${server.url}${path}`, { headers });
  return { res, text: await res.text() };
}
const hal = (q: Record<string, string>, path = '/WebErpAPI.hal') => get(`${path}?${new URLSearchParams(q)}`);

describe('portal over HTTP', () => {
  it('logs in with Basic, then works on the HSESSION cookie alone, on both paths', async () => {
    const login = await hal({ action: 'login' });
    expect((await validateXml(login.text, 'portal-login')).valid).toBe(true);
    const cookie = login.res.headers.get('set-cookie')!.split(';')[0]!;
    const users = await get('/WebExcellentAPI.hal?action=action&register=getallusers', { cookie });
    expect(users.res.status).toBe(200);
    expect(asList(parsePortal(users.text).data.UserVc).length).toBeGreaterThan(0);
    const bearer = await get('/WebErpAPI.hal?action=login', { authorization: 'Bearer x' });
    expect(bearer.res.status).toBe(401);
  });

  it('turns a quotation into an order and the order into an invoice, readable through /api/1/', async () => {
    const order = await hal({
      action: 'action',
      register: 'createsalesorderfromquotation',
      id: PF.quotation,
      regname: 'QTVc',
      usercode: 'JD',
    });
    expect((await validateXml(order.text, 'portal-conversion-result')).valid).toBe(true);
    const orderNr = resOf(order.text).newdata!;
    const invoice = await hal({ action: 'action', register: 'createslinvoicefromorder', id: orderNr, usercode: 'JD' });
    const invoiceNr = resOf(invoice.text).newdata!;
    const rest = await get(`/api/1/IVVc/${invoiceNr}`, { authorization: basic, accept: 'application/json' });
    expect(rest.res.status).toBe(200);
    const rec = (JSON.parse(rest.text) as { data: { IVVc: Record<string, unknown>[] } }).data.IVVc[0]!;
    expect(rec.CustCode).toBe('C1');
    expect(rec.Sum4).toBe('46.20');
    expect((rec.rows as Record<string, string>[]).map((r) => [r.ArtCode, r.Quant, r.Sum])).toEqual([
      ['I1', '2', '20.00'],
      ['I2', '1', '20.00'],
    ]);
    const links = await hal({ action: 'action', register: 'getrecordlinks', regname: 'ORVc', id: orderNr });
    expect(asList(parsePortal(links.text).data.LinkVc).map((l) => [l.VcName, l.Comment])).toEqual([
      ['QTVc', 'source'],
      ['IVVc', 'derived'],
    ]);
  });

  it('uploads, lists, downloads byte-identical and deletes an attachment', async () => {
    const bytes = randomBytes(50_000);
    const body = `<root><file><filename>photo.png</filename><base64>${bytes.toString('base64')}</base64></file></root>`;
    const q = `regname=ORVc&id=${PF.draftOrder}`;
    const up = await fetch(`${server.url}/WebErpAPI.hal?action=action&register=doupload&${q}`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/xml' },
      body,
    });
    const uuid = resOf(await up.text()).uuid!;
    const list = await get(`/WebErpAPI.hal?action=action&register=getattachlist&${q}`);
    expect((await validateXml(list.text, 'portal-attachments')).valid).toBe(true);
    expect(parsePortal(list.text).data.attachment).toMatchObject({ uuid, filename: 'photo.png', size: '50000' });
    const file = await fetch(`${server.url}/WebErpAPI.hal?action=action&register=getfile&${q}&file=${uuid}`, {
      headers: { authorization: basic },
    });
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.compare(Buffer.from(await file.arrayBuffer()), bytes)).toBe(0);
    const del = await get(`/WebErpAPI.hal?action=action&register=deleteattachment&${q}&file=${uuid}`);
    expect(errstrOf(del.text)).toBe('');
    expect(
      parsePortal((await get(`/WebErpAPI.hal?action=action&register=getattachlist&${q}`)).text).data.attachment,
    ).toBeUndefined();
  });

  it('inserts and deletes rows, and /api/1/ shows the renumbered rows and new sums', async () => {
    const ins = await hal({ action: 'insertrow', register: 'IVVc', id: `${PF.draftInvoice}:1:2` });
    expect(errstrOf(ins.text)).toBe('');
    const del = await hal({ action: 'deleterow', register: 'IVVc', id: `${PF.draftInvoice}:1` });
    expect(errstrOf(del.text)).toBe('');
    const rest = await get(`/api/1/IVVc/${PF.draftInvoice}`, { authorization: basic, accept: 'application/json' });
    const rec = (JSON.parse(rest.text) as { data: { IVVc: Record<string, unknown>[] } }).data.IVVc[0]!;
    expect((rec.rows as Record<string, string>[]).map((r) => [r['@rownumber'], r.stp, r.ArtCode])).toEqual([
      ['0', '2', ''],
      ['1', '1', 'I2'],
    ]);
    // what is left: I2 1 x 20.00 with 9 % VAT
    expect([rec.Sum1, rec.Sum4]).toEqual(['20.00', '21.80']);
  });

  it('deletes through the portal: the record leaves /api/1/, deletes_after lists it, the sequence moved', async () => {
    const before = Number((await get('/api/1/')).res.headers.get('sequence'));
    const del = await hal({ action: 'delete', register: 'QTVc', id: PF.quotation });
    expect(errstrOf(del.text)).toBe('');
    expect(Number(del.res.headers.get('sequence'))).toBe(before + 1);
    expect((await get(`/api/1/QTVc/${PF.quotation}`)).res.status).toBe(404);
    const deletes = await get(`/api/1/QTVc?deletes_after=${before}`);
    expect(deletes.res.status).toBe(200);
    expect(deletes.text).toContain(`<SerNr>${PF.quotation}</SerNr>`);
  });
});
