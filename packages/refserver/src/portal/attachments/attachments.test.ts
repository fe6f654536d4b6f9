import { closeXmlValidator, validateXml } from '@erpcert/contract';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../app-types.js';
import { testApp } from '../../testing/test-client.js';
import { createPortalModule } from '../index.js';
import { errstrOf, parsePortal, portal, resOf } from '../testing/portal-client.js';
import { loadPortalFixture, PF } from '../testing/portal-fixture.js';

const apps: App[] = [];
function app(maxWebPostSize?: number) {
  const a = testApp(maxWebPostSize ? { modules: [createPortalModule({ maxWebPostSize })] } : {});
  loadPortalFixture(a.store);
  apps.push(a);
  return a;
}
afterEach(() => {
  for (const a of apps.splice(0)) a.close();
});
afterAll(() => closeXmlValidator());

const uploadBody = (filename: string, content: Buffer) =>
  `<root><file><filename>${filename}</filename><base64>${content.toString('base64')}</base64></file></root>`;
const xml = { 'content-type': 'application/xml' };
const upload = (a: App, regname: string, id: string, body: string) =>
  portal(a, { action: 'action', register: 'doupload', regname, id }, { method: 'POST', body, headers: xml });
const sub = (register: string, regname: string, id: string, extra: Record<string, string> = {}) => ({
  action: 'action',
  register,
  regname,
  id,
  ...extra,
});

describe('attachments', () => {
  it('uploads, lists, downloads byte-identical and deletes', async () => {
    const a = app();
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13, 60, 62]);
    const up = await upload(a, 'IVVc', PF.draftInvoice, uploadBody('scan ä.pdf', bytes));
    expect((await validateXml(up.text, 'portal-upload-result')).valid).toBe(true);
    const uuid = resOf(up.text).uuid!;
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const list = await portal(a, sub('getattachlist', 'IVVc', PF.draftInvoice));
    expect((await validateXml(list.text, 'portal-attachments')).valid).toBe(true);
    // the fixed clock of testApp: 2025-03-10
    expect(parsePortal(list.text).data.attachment).toEqual({
      uuid,
      filename: 'scan ä.pdf',
      size: '9',
      date: '2025-03-10',
    });

    const file = await portal(a, sub('getfile', 'IVVc', PF.draftInvoice, { file: uuid }));
    expect(file.status).toBe(200);
    expect(Buffer.compare(file.body, bytes)).toBe(0);
    expect(file.headers['Content-Type']).toBe('application/pdf');
    expect(file.headers['Content-Disposition']).toBe(
      `attachment; filename="scan _.pdf"; filename*=UTF-8''scan%20%C3%A4.pdf`,
    );

    const del = await portal(a, sub('deleteattachment', 'IVVc', PF.draftInvoice, { file: uuid }));
    expect(errstrOf(del.text)).toBe('');
    const empty = await portal(a, sub('getattachlist', 'IVVc', PF.draftInvoice));
    expect(empty.text).toContain('<data></data>');
    const gone = await portal(a, sub('getfile', 'IVVc', PF.draftInvoice, { file: uuid }));
    expect(errstrOf(gone.text)).toBe(`IVVc ${PF.draftInvoice} has no attachment ${uuid}`);
  });

  it('keeps attachments per record: another record does not see or serve them', async () => {
    const a = app();
    const uuid = resOf((await upload(a, 'IVVc', PF.draftInvoice, uploadBody('a.txt', Buffer.from('x')))).text).uuid!;
    const other = await portal(a, sub('getfile', 'IVVc', PF.confirmedInvoice, { file: uuid }));
    expect(errstrOf(other.text)).toMatch(/has no attachment/);
    expect((await portal(a, sub('getattachlist', 'ORVc', PF.draftOrder))).text).toContain('<data></data>');
  });

  it.each([
    [
      'a register outside the doupload row',
      'VEVc',
      PF.draftInvoice,
      uploadBody('a.txt', Buffer.from('x')),
      /regname "VEVc" is not allowed for attachments \(doupload\)/,
    ],
    ['a missing record', 'IVVc', '99999999', uploadBody('a.txt', Buffer.from('x')), /IVVc 99999999 does not exist/],
    ['XML that is not well-formed', 'IVVc', PF.draftInvoice, '<root><file>', /not well-formed XML/],
    ['another root element', 'IVVc', PF.draftInvoice, '<upload><file/></upload>', /root element <root>/],
    [
      'two files',
      'IVVc',
      PF.draftInvoice,
      `<root>${'<file><filename>a</filename><base64>eA==</base64></file>'.repeat(2)}</root>`,
      /exactly one <file>, got 2/,
    ],
    [
      'bad base64',
      'IVVc',
      PF.draftInvoice,
      '<root><file><filename>a</filename><base64>%%%</base64></file></root>',
      /not valid base64/,
    ],
    [
      'a path as file name',
      'IVVc',
      PF.draftInvoice,
      uploadBody('../etc/passwd', Buffer.from('x')),
      /must be a plain file name/,
    ],
    ['an empty body', 'IVVc', PF.draftInvoice, '', /the upload body is empty/],
  ])('refuses %s and stores nothing', async (_n, regname, id, body, text) => {
    const a = app();
    const res = await upload(a, regname, id, body);
    expect(errstrOf(res.text)).toMatch(text);
    const count = a.store.db.prepare('SELECT COUNT(*) FROM portal_attachments').pluck().get();
    expect(count).toBe(0);
  });

  it('refuses an upload over Max Web Post Size and stores nothing', async () => {
    const a = app(100);
    const small = await upload(a, 'IVVc', PF.draftInvoice, uploadBody('a.txt', Buffer.from('x')));
    expect(errstrOf(small.text)).toBe('');
    const body = uploadBody('big.bin', Buffer.alloc(200, 1));
    const res = await upload(a, 'IVVc', PF.draftInvoice, body);
    expect(errstrOf(res.text)).toBe(`the upload is ${Buffer.byteLength(body)} bytes; Max Web Post Size is 100 bytes`);
    expect(a.store.db.prepare('SELECT COUNT(*) FROM portal_attachments').pluck().get()).toBe(1);
  });

  it('checks the file parameter and requires regname', async () => {
    const a = app();
    const bad = await portal(a, sub('getfile', 'IVVc', PF.draftInvoice, { file: 'abc' }));
    expect(errstrOf(bad.text)).toBe('parameter "file" must be a UUID, got "abc"');
    const noReg = await portal(a, { action: 'action', register: 'getattachlist', id: PF.draftInvoice });
    expect(errstrOf(noReg.text)).toBe('missing required parameter "regname"');
  });

  it('drops the attachments of a deleted record', async () => {
    const a = app();
    await upload(a, 'ORVc', PF.draftOrder, uploadBody('a.txt', Buffer.from('x')));
    await portal(a, { action: 'delete', register: 'ORVc', id: PF.draftOrder });
    expect(a.store.db.prepare('SELECT COUNT(*) FROM portal_attachments').pluck().get()).toBe(0);
  });
});
