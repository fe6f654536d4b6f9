import { validateXml } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import type { App } from '../../app-types.js';
import { call } from '../../testing/test-client.js';
import { errstrOf, parsePortal, portal } from '../testing/portal-client.js';
import { PF, portalTestApps } from '../testing/portal-fixture.js';
import { pdfString, winAnsiBytes, writePdf } from './pdf-writer.js';

const app = portalTestApps();

/**
 * Checks the structure of a PDF (ISO 32000-1 §7.5): the header, every object where the cross-reference table
 * says it starts, startxref pointing at the table, %%EOF, each stream's /Length; returns the content streams.
 */
function inspectPdf(pdf: Buffer): { streams: string[]; objects: number } {
  const text = pdf.toString('latin1');
  expect(text.startsWith('%PDF-1.')).toBe(true);
  expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
  expect(text.slice(startxref, startxref + 4)).toBe('xref');
  const table = /^xref\n0 (\d+)\n([\s\S]*?)trailer/.exec(text.slice(startxref))!;
  const count = Number(table[1]);
  const entries = table[2]!.split('\n').filter(Boolean);
  expect(entries).toHaveLength(count);
  expect(entries[0]).toBe('0000000000 65535 f ');
  for (let id = 1; id < count; id++) {
    const [offset, gen, kind] = entries[id]!.split(' ');
    expect([gen, kind]).toEqual(['00000', 'n']);
    expect(text.slice(Number(offset), Number(offset) + `${id} 0 obj`.length)).toBe(`${id} 0 obj`);
  }
  expect(text).toMatch(new RegExp(`trailer\\n<< /Size ${count} /Root 1 0 R`));
  const streams: string[] = [];
  for (const m of text.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
    const start = m.index! + m[0].length;
    const body = text.slice(start, start + Number(m[1]));
    expect(text.slice(start + Number(m[1]), start + Number(m[1]) + 9)).toBe('endstream');
    streams.push(body);
  }
  return { streams, objects: count - 1 };
}

async function documentOf(a: App, query: Record<string, string>) {
  const res = await portal(a, { action: 'document', ...query });
  const file = parsePortal(res.text).data?.file;
  return { res, name: file?.name as string, pdf: Buffer.from(String(file?.base64 ?? ''), 'base64') };
}

describe('the PDF writer', () => {
  it('encodes text as WinAnsi and escapes the literal-string delimiters', () => {
    expect(winAnsiBytes('Aä€š')).toEqual([0x41, 0xe4, 0x80, 0x9a]);
    // Latvian letters outside WinAnsi lose their accent; a letter with no Latin base becomes "?"
    expect(String.fromCharCode(...winAnsiBytes('Rēķins Ω'))).toBe('Rekins ?');
    expect(pdfString('a(b)\\ä')).toBe('(a\\(b\\)\\\\\\344)');
  });

  it('writes a well-formed file with one page object and stream per page', () => {
    const pdf = writePdf(
      [
        { texts: [{ x: 10, y: 10, size: 9, text: 'one' }], lines: [] },
        { texts: [{ x: 10, y: 10, size: 9, text: 'two' }], lines: [{ x1: 0, y1: 0, x2: 5, y2: 5 }] },
      ],
      { title: 't', created: new Date('2025-01-01T00:00:00Z') },
    );
    const { streams, objects } = inspectPdf(pdf);
    expect(objects).toBe(9);
    expect(streams.map((s) => /\((\w+)\) Tj/.exec(s)?.[1])).toEqual(['one', 'two']);
  });
});

describe('action=document', () => {
  it('answers a real PDF of the invoice: number, customer, rows and totals', async () => {
    const a = app();
    const { res, name, pdf } = await documentOf(a, { register: 'IVVc', id: PF.draftInvoice });
    expect((await validateXml(res.text, 'portal-document')).valid).toBe(true);
    expect(name).toBe(`IVVc-${PF.draftInvoice}.pdf`);
    const all = inspectPdf(pdf).streams.join('\n');
    for (const s of [
      `(No. ${PF.draftInvoice})`,
      '(Invoice)',
      '(C1  Alpha Ltd)',
      '(Main St 1)',
      '(Widget)',
      '(Gadget)',
      '(46.20 EUR)',
    ])
      expect(all).toContain(s);
  });

  it.each([
    ['est', ['(Arve)', '(Kogus)', '(Kokku)']],
    ['lat', ['(Rekins)', '(Daudzums)', '(Kopa)']],
    ['eng', ['(Invoice)', '(Qty)', '(Total)']],
  ])('prints the %s labels', async (language, want) => {
    const { pdf } = await documentOf(app(), { register: 'IVVc', id: PF.draftInvoice, language });
    const all = inspectPdf(pdf).streams.join('\n');
    for (const s of want) expect(all).toContain(s);
  });

  it('takes the template from doccode: PROFORMA heading, INVSUMMARY without rows', async () => {
    const a = app();
    const pro = inspectPdf((await documentOf(a, { register: 'IVVc', id: PF.draftInvoice, doccode: 'PROFORMA' })).pdf);
    expect(pro.streams.join('')).toContain('(Pro forma invoice)');
    const sum = inspectPdf((await documentOf(a, { register: 'IVVc', id: PF.draftInvoice, doccode: 'INVSUMMARY' })).pdf);
    expect(sum.streams.join('')).not.toContain('(Widget)');
    expect(sum.streams.join('')).toContain('(46.20 EUR)');
  });

  it('prints a purchase invoice and an order document', async () => {
    const a = app();
    const vi = inspectPdf((await documentOf(a, { register: 'VIVc', id: PF.purchase })).pdf).streams.join('');
    for (const s of ['(Purchase invoice)', '(C2  Beta Supplies)', '(4000)', '(100.00)', '(122.00)'])
      expect(vi).toContain(s);
    const od = inspectPdf((await documentOf(a, { register: 'EPOrderDocVc', id: PF.orderDoc, language: 'est' })).pdf);
    expect(od.streams.join('')).toContain('(K\\344skkiri)');
  });

  it.each([
    [
      { register: 'IVVc', id: PF.draftInvoice, doccode: 'NOPE' },
      'doccode "NOPE" is not a IVVc template; templates: INVOICE, INVSUMMARY, PROFORMA',
    ],
    [
      { register: 'IVVc', id: PF.draftInvoice, language: 'fin' },
      'parameter "language" must be one of eng, est, lat, got "fin"',
    ],
    [{ register: 'IVVc', id: '1' }, 'IVVc 1 does not exist in company 1'],
    [
      { register: 'CUVc', id: 'C1' },
      /register "CUVc" is not allowed for document; allowed: IVVc, VIVc, ORVc, QTVc, EPOrderDocVc/,
    ],
  ])('refuses %j', async (query, text) => {
    const { res } = await documentOf(app(), query);
    expect(errstrOf(res.text)).toMatch(text);
    expect((await validateXml(res.text, 'portal-document')).checkedAs).toBe('portal-result');
  });

  it('refuses a register without a template in the company', async () => {
    const a = app();
    a.store.insert('IVVc', 2, { fields: { SerNr: '5', InvDate: '2025-01-01' }, rows: [] });
    const { res } = await documentOf(a, { register: 'IVVc', id: '5', compno: '2' });
    expect(errstrOf(res.text)).toBe('no document template for IVVc in company 2');
  });
});

describe('sendemail', () => {
  const send = (a: App, extra: Record<string, string>) =>
    portal(a, { action: 'action', register: 'sendemail', ...extra });

  it('writes the mail with the PDF to the outbox', async () => {
    const a = app();
    a.store.insert('IVVc', 1, {
      fields: { SerNr: '10000110', CustCode: 'C4', InvDate: '2025-03-05', Sum4: '1.00' },
      rows: [],
    });
    const res = await send(a, { regname: 'IVVc', id: '10000110', usercode: 'JD' });
    expect(errstrOf(res.text)).toBe('');
    const box = JSON.parse((await call(a, 'GET', '/erpcert/outbox')).text) as { mails: Record<string, unknown>[] };
    expect(box.mails).toHaveLength(1);
    expect(box.mails[0]).toMatchObject({
      company: 1,
      from: 'jd@example.com',
      to: 'delta@example.com',
      subject: 'Invoice 10000110',
      register: 'IVVc',
      recordId: '10000110',
      usercode: 'JD',
      attachment: { name: 'IVVc-10000110.pdf' },
    });
    const mail = await call(a, 'GET', String(box.mails[0]!.url));
    expect(mail.headers['Content-Type']).toBe('message/rfc822');
    expect(mail.text).toMatch(/^From: jd@example.com\r\nTo: delta@example.com\r\nSubject: Invoice 10000110\r\n/);
    const b64 = /Content-Disposition: attachment; filename="IVVc-10000110.pdf"\r\n\r\n([\s\S]*?)\r\n--/.exec(
      mail.text,
    )![1]!;
    expect(inspectPdf(Buffer.from(b64.replace(/\r\n/g, ''), 'base64')).streams.join('')).toContain('(No. 10000110)');
    expect((await call(a, 'GET', '/erpcert/outbox', { auth: false })).status).toBe(401);
  });

  it('names every missing precondition and writes nothing', async () => {
    const a = app();
    a.store.db.exec('DELETE FROM portal_settings; DELETE FROM portal_templates');
    const res = await send(a, { regname: 'ORVc', id: PF.draftOrder });
    expect(errstrOf(res.text)).toBe(
      `cannot send ORVc ${PF.draftOrder}: no e-mail address on customer C1; ` +
        'no mail settings (mail.from, mail.server) in company 1; no document template for ORVc',
    );
    expect(JSON.parse((await call(a, 'GET', '/erpcert/outbox')).text).mails).toEqual([]);
  });

  it('refuses a register outside IVVc, ORVc, QTVc', async () => {
    const res = await send(app(), { regname: 'VIVc', id: PF.purchase });
    expect(errstrOf(res.text)).toBe('regname "VIVc" is not allowed for sendemail; allowed: IVVc, ORVc, QTVc');
  });
});
