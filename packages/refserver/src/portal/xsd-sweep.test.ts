import { closeXmlValidator, validateXml, type XmlBodyKind } from '@erpcert/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app-types.js';
import { testApp } from '../testing/test-client.js';
import { portal, resOf } from './testing/portal-client.js';
import { loadPortalFixture, PF } from './testing/portal-fixture.js';

/**
 * Every XML answer of part A, success and failure, against the XSD kind of its operation
 * (specs/xsd/README.md): one request each, in an order where each success leaves what the next needs.
 */
let app: App;
let uuid = '';
beforeAll(() => {
  app = testApp();
  loadPortalFixture(app.store);
});
afterAll(async () => {
  app.close();
  await closeXmlValidator();
});

const sub = (register: string, q: Record<string, string> = {}) => ({ action: 'action', register, ...q });
const upload = `<root><file><filename>a.txt</filename><base64>aGVsbG8=</base64></file></root>`;
const xml = { 'content-type': 'application/xml' };

type Case = [
  string,
  XmlBodyKind,
  Record<string, string>,
  { form?: Record<string, string>; body?: string } | undefined,
  boolean,
];
const cases: Case[] = [
  ['login', 'portal-login', { action: 'login' }, undefined, true],
  ['hasusernewapi', 'portal-hasusernewapi', sub('hasusernewapi', { usercode: 'JD' }), undefined, true],
  ['getportalusers', 'open', sub('getportalusers'), undefined, true],
  ['getadminusers', 'open', sub('getadminusers'), undefined, true],
  ['getallusers', 'open', sub('getallusers'), undefined, true],
  [
    'insertrow',
    'portal-result',
    { action: 'insertrow', register: 'IVVc', id: `${PF.draftInvoice}:0:2` },
    undefined,
    true,
  ],
  [
    'deleterow',
    'portal-result',
    { action: 'deleterow', register: 'IVVc', id: `${PF.draftInvoice}:1` },
    undefined,
    true,
  ],
  [
    'posttext',
    'portal-result',
    { action: 'posttext', register: 'EPOrderDocVc', id: PF.orderDoc },
    { form: { 'set_field.Math': 'x' } },
    true,
  ],
  ['document', 'portal-document', { action: 'document', register: 'ORVc', id: PF.draftOrder }, undefined, true],
  ['doupload', 'portal-upload-result', sub('doupload', { regname: 'QTVc', id: PF.quotation }), { body: upload }, true],
  ['getattachlist', 'portal-attachments', sub('getattachlist', { regname: 'QTVc', id: PF.quotation }), undefined, true],
  ['getrecordlinks', 'open', sub('getrecordlinks', { regname: 'IVVc', id: PF.confirmedInvoice }), undefined, true],
  ['pastespecial INVc', 'portal-lookup', { action: 'pastespecial', register: 'INVc', id: 'i' }, undefined, true],
  ['pastespecial CUVc', 'portal-lookup', { action: 'pastespecial', register: 'CUVc', id: '' }, undefined, true],
  ['pastespecial VEVc', 'portal-lookup', { action: 'pastespecial', register: 'VEVc', id: '' }, undefined, true],
  ['pastespecial AllCUVc', 'portal-lookup', { action: 'pastespecial', register: 'AllCUVc', id: 'c' }, undefined, true],
  ['pastespecial UserVc', 'portal-lookup', { action: 'pastespecial', register: 'UserVc', id: 'j' }, undefined, true],
  [
    'createslinvoicefromorder',
    'portal-conversion-result',
    sub('createslinvoicefromorder', { id: PF.draftOrder, usercode: 'JD' }),
    undefined,
    true,
  ],
  [
    'createsalesorderfromquotation',
    'portal-conversion-result',
    sub('createsalesorderfromquotation', { id: PF.quotation, regname: 'QTVc', usercode: 'JD' }),
    undefined,
    true,
  ],
  [
    'createslinvoicefromquotation',
    'portal-conversion-result',
    sub('createslinvoicefromquotation', { id: PF.quotation, regname: 'QTVc', usercode: 'JD' }),
    undefined,
    true,
  ],
  ['copyrecord', 'portal-result', sub('copyrecord', { regname: 'IVVc', id: PF.draftInvoice }), undefined, true],
  ['sendemail', 'portal-result', sub('sendemail', { regname: 'IVVc', id: PF.draftInvoice }), undefined, false],
  [
    'unokrecord',
    'portal-result',
    sub('unokrecord', { regname: 'IVVc', id: PF.confirmedInvoice, usercode: 'ADMIN' }),
    undefined,
    true,
  ],
  [
    'registerapi',
    'portal-result',
    sub('registerapi', { UUID: '3f2b6c1e-8a4d-4e2f-9b1c-0d5e6f7a8b9c', url: '127.0.0.1', port: '9', path: '/x' }),
    undefined,
    true,
  ],
  ['buildrecidstr', 'portal-result', sub('buildrecidstr', { vcname: 'IVVc', code: PF.draftInvoice }), undefined, true],
  ['delete', 'portal-result', { action: 'delete', register: 'VIVc', id: PF.purchase }, undefined, true],
  ['deactivate', 'portal-result', { action: 'deactivate' }, undefined, true],
  // failures of each shape are accepted by the kind as a failure answer
  ['document failure', 'portal-document', { action: 'document', register: 'IVVc', id: '1' }, undefined, false],
  ['doupload failure', 'portal-upload-result', sub('doupload', { regname: 'IVVc', id: '1' }), { body: upload }, false],
  [
    'conversion failure',
    'portal-conversion-result',
    sub('createslinvoicefromorder', { id: '1', usercode: 'JD' }),
    undefined,
    false,
  ],
  ['lookup failure', 'portal-lookup', { action: 'pastespecial', register: 'IVVc', id: '' }, undefined, false],
  ['hasusernewapi failure', 'portal-hasusernewapi', sub('hasusernewapi', { usercode: 'X' }), undefined, false],
  ['login failure', 'portal-login', { action: 'login', usercode: 'X' }, undefined, false],
];

describe('XSD validation of every part A answer', () => {
  it.each(cases)('%s validates as %s', async (_name, kind, query, opts, succeeds) => {
    const res = await portal(
      app,
      query,
      opts?.body !== undefined
        ? { method: 'POST', body: opts.body, headers: xml }
        : opts?.form
          ? { form: opts.form }
          : {},
    );
    const v = await validateXml(res.text, kind);
    expect(v.errors).toEqual([]);
    expect(v.valid).toBe(true);
    expect(v.failure).toBe(!succeeds);
    if (kind === 'portal-upload-result' && succeeds) uuid = resOf(res.text).uuid!;
  });

  it('answers getfile with the bytes and deleteattachment with the result', async () => {
    const file = await portal(app, sub('getfile', { regname: 'QTVc', id: PF.quotation, file: uuid }));
    expect(file.text).toBe('hello');
    const del = await portal(app, sub('deleteattachment', { regname: 'QTVc', id: PF.quotation, file: uuid }));
    expect((await validateXml(del.text, 'portal-result')).valid).toBe(true);
  });
});
