import { closeXmlValidator, validateXml, type XmlBodyKind } from '@erpcert/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { DecodeError, ErpError, HttpStatusError } from './errors.js';
import { encryptTriggerText } from './portal-bodies.js';
import { decodePortal } from './portal-decode.js';
import type { PortalResultKind } from './portal-operations.js';
import { fakeResponse } from './testing/fake-response.js';

afterAll(async () => {
  await closeXmlValidator();
});

const UUID = '0b5e8c2a-3f4d-4e6a-9b1c-2d3e4f5a6b7c';

// Every fixed XML shape (/work/briefs/xml-shapes.md, portal-action-api.md §2), what the client makes of it, and the
// XSD kind that proves the fixture is the real shape.
const SHAPES: { kind: PortalResultKind; xsd: XmlBodyKind; body: string; record?: string; want: object }[] = [
  {
    kind: 'result',
    xsd: 'portal-result',
    body: '<data><res errstr=""/></data>',
    want: { errstr: '', attrs: { errstr: '' } },
  },
  {
    kind: 'upload',
    xsd: 'portal-upload-result',
    body: `<data><res errstr="" uuid="${UUID}"/></data>`,
    want: { errstr: '', uuid: UUID },
  },
  {
    kind: 'conversion',
    xsd: 'portal-conversion-result',
    body: '<data><res errstr="" newdata="100077"/></data>',
    want: { newdata: '100077' },
  },
  {
    kind: 'hasapi',
    xsd: 'portal-hasusernewapi',
    body: '<data><res errstr="" hasapi="1"/></data>',
    want: { hasapi: '1' },
  },
  {
    kind: 'login',
    xsd: 'portal-login',
    body: '<data><res errstr="" dateformat="YYYY-MM-DD" dec_separator="." apiversion="1.0.1" version="9.3"><supported><activities>1</activities><invoices>1</invoices><attachments>1</attachments><hassigning>0</hassigning></supported></res></data>',
    want: {
      fields: { dateformat: 'YYYY-MM-DD', dec_separator: '.', apiversion: '1.0.1', version: '9.3' },
      supported: { activities: '1', invoices: '1', attachments: '1', hassigning: '0' },
    },
  },
  {
    kind: 'approval',
    xsd: 'portal-approval',
    body: '<data><res errstr="" regname="IVVc"/><DummyVc><hasapprovals>1</hasapprovals><approvalstatus>3</approvalstatus><message>Waiting for Ann</message><cancancel>1</cancancel></DummyVc></data>',
    want: {
      regname: 'IVVc',
      status: { hasapprovals: '1', approvalstatus: '3', message: 'Waiting for Ann', cancancel: '1' },
    },
  },
  {
    kind: 'document',
    xsd: 'portal-document',
    body: '<data><file><name>IVVc-1.pdf</name><base64>JVBERi0xLjQ=</base64></file></data>',
    want: { name: 'IVVc-1.pdf', base64: 'JVBERi0xLjQ=', content: Buffer.from('%PDF-1.4', 'latin1') },
  },
  {
    kind: 'attachments',
    xsd: 'portal-attachments',
    body: `<data><attachment uuid="${UUID}" filename="a.txt" size="12" date="2026-01-31"/></data>`,
    want: { attachments: [{ uuid: UUID, filename: 'a.txt', size: '12', date: '2026-01-31' }] },
  },
  { kind: 'attachments', xsd: 'portal-attachments', body: '<data></data>', want: { attachments: [] } },
  {
    kind: 'lookup',
    xsd: 'portal-lookup',
    record: 'INVc',
    body: '<data><INVc><Code>A1</Code><Name>Apple</Name><UPrice1>1.20</UPrice1></INVc><INVc><Code>A2</Code><Name>Apricot</Name><UPrice1>2</UPrice1></INVc></data>',
    want: {
      register: 'INVc',
      records: [
        { Code: 'A1', Name: 'Apple', UPrice1: '1.20' },
        { Code: 'A2', Name: 'Apricot', UPrice1: '2' },
      ],
    },
  },
  {
    kind: 'list',
    xsd: 'portal-list',
    record: 'IVVc',
    body: '<data count="3" page="1" perpage="2" totalpages="2"><IVVc><SerNr>1</SerNr><InvDate>2026-01-02</InvDate><CustCode>C1</CustCode><Sum4>10.00</Sum4></IVVc><IVVc><SerNr>2</SerNr><InvDate>2026-01-03</InvDate><CustCode>C2</CustCode><Sum4>5</Sum4></IVVc></data>',
    want: {
      register: 'IVVc',
      attrs: { count: '3', page: '1', perpage: '2', totalpages: '2' },
      count: 3,
      page: 1,
      perpage: 2,
      totalpages: 2,
      total: undefined,
      records: [
        { SerNr: '1', InvDate: '2026-01-02', CustCode: 'C1', Sum4: '10.00' },
        { SerNr: '2', InvDate: '2026-01-03', CustCode: 'C2', Sum4: '5' },
      ],
    },
  },
  {
    kind: 'list',
    xsd: 'portal-arap-list',
    record: 'ARVc',
    body: '<data page="1" total="1"><ARVc><InvoiceNr>7</InvoiceNr><OfficialSerNr>F7</OfficialSerNr><RefStr/><RVal>12.5</RVal><ARCurncyCode>EUR</ARCurncyCode><CustCode>C1</CustCode><CustName>Ann</CustName><DueDate>2026-02-01</DueDate></ARVc></data>',
    want: {
      page: 1,
      total: 1,
      count: undefined,
      records: [
        {
          InvoiceNr: '7',
          OfficialSerNr: 'F7',
          RefStr: '',
          RVal: '12.5',
          ARCurncyCode: 'EUR',
          CustCode: 'C1',
          CustName: 'Ann',
          DueDate: '2026-02-01',
        },
      ],
    },
  },
  {
    kind: 'open',
    xsd: 'open',
    body: '<data><employee><Code>E1</Code></employee></data>',
    want: { data: { employee: [{ Code: 'E1' }] } },
  },
];

describe('decodePortal: every fixed XML shape', () => {
  it.each(SHAPES)('$kind ($xsd)', async ({ kind, xsd, body, record, want }) => {
    expect((await validateXml(body, xsd)).valid).toBe(true);
    const got = decodePortal(kind, fakeResponse(body), {
      operation: 'op',
      ...(record ? { recordRegister: record } : {}),
    });
    expect(got).toMatchObject(want);
    expect(got.messages).toEqual([]);
  });

  it('reads login fields written as child elements too (not settled by the docs)', () => {
    const body =
      '<data><res errstr=""><dateformat>DD.MM.YYYY</dateformat><dec_separator>,</dec_separator><apiversion>1.0.1</apiversion><version>9</version><supported><activities>0</activities></supported></res></data>';
    expect(decodePortal('login', fakeResponse(body), { operation: 'login' })).toMatchObject({
      fields: { dateformat: 'DD.MM.YYYY', dec_separator: ',', apiversion: '1.0.1', version: '9' },
      supported: { activities: '0' },
    });
  });
});

describe('decodePortal: failures', () => {
  it.each([
    {
      name: 'a non-empty errstr',
      body: '<data><res errstr="Record is locked"/></data>',
      source: 'errstr',
      description: 'Record is locked',
    },
    {
      name: 'an <error> alone',
      body: '<error code="13" description="Access denied"/>',
      source: 'error-element',
      description: 'Access denied',
    },
    {
      name: 'an <error> before <data>',
      body: '<error description="Unknown register" field="register"/><data><res errstr=""/></data>',
      source: 'error-element',
      description: 'Unknown register',
    },
    {
      name: 'errstr on an approval status',
      body: '<data><res errstr="No approval rules"/></data>',
      source: 'errstr',
      description: 'No approval rules',
      kind: 'approval' as const,
    },
  ])('throws ErpError for $name', async ({ body, source, description, kind }) => {
    expect((await validateXml(body, 'portal-result')).failure).toBe(true);
    const err = (() => {
      try {
        decodePortal(kind ?? 'result', fakeResponse(body), { operation: 'delete', register: 'IVVc' });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ErpError);
    expect(err).toMatchObject({ source, description, operation: 'delete', register: 'IVVc', status: 200 });
  });

  it.each([
    { name: 'no <res> in an operation result', kind: 'result' as const, body: '<data></data>' },
    { name: 'JSON where XML is expected', kind: 'result' as const, body: '{"ok":true}' },
    { name: 'XML where JSON is expected', kind: 'trigger' as const, body: '<data><x/></data>' },
  ])('throws DecodeError for $name', ({ kind, body }) => {
    expect(() => decodePortal(kind, fakeResponse(body), { operation: 'op' })).toThrow(DecodeError);
  });

  it('throws HttpStatusError for a non-2xx without an error document', () => {
    expect(() => decodePortal('result', fakeResponse('', { status: 403 }), { operation: 'op' })).toThrow(
      HttpStatusError,
    );
  });
});

describe('decodePortal: JSON answers and files', () => {
  const TRIGGER = {
    success: true,
    res: true,
    messages: [{ description: 'Price list changed' }],
    record: { CustCode: 'C1', rows: [{ stp: '1' }] },
  };

  it('decodes a field-trigger answer and returns its warnings', () => {
    const got = decodePortal('trigger', fakeResponse(JSON.stringify(TRIGGER), { contentType: 'application/json' }), {
      operation: 'windowactions',
    });
    expect(got.body).toEqual(TRIGGER);
    expect(got.messages).toEqual([{ description: 'Price list changed' }]);
  });

  it('decodes an encrypted field-trigger answer', () => {
    const body = encryptTriggerText(JSON.stringify(TRIGGER));
    const got = decodePortal('trigger', fakeResponse(body, { contentType: 'text/plain' }), {
      operation: 'windowactions',
    });
    expect(got.body).toEqual(TRIGGER);
  });

  it('decodes an active-edit-fields answer', () => {
    const body = {
      success: true,
      res: true,
      activeFields: { headerFields: true, matrixFields: false, exceptionHeaderList: 'CustCode' },
    };
    const got = decodePortal('activefields', fakeResponse(JSON.stringify(body), { contentType: 'application/json' }), {
      operation: 'activeeditfields',
    });
    expect(got.body).toEqual(body);
  });

  it('returns getfile bytes as sent, with the name from Content-Disposition', () => {
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10]);
    const got = decodePortal(
      'file',
      fakeResponse(bytes, {
        contentType: 'application/pdf',
        headers: { 'content-disposition': 'attachment; filename="x 1.pdf"' },
      }),
      { operation: 'action_getfile' },
    );
    expect(got).toMatchObject({ content: bytes, name: 'x 1.pdf', contentType: 'application/pdf' });
  });

  it('returns getfile bytes from an XML <file> with base64', () => {
    const got = decodePortal(
      'file',
      fakeResponse('<data><file><name>n.txt</name><base64>aGVsbG8=</base64></file></data>'),
      {
        operation: 'action_getfile',
      },
    );
    expect(got).toMatchObject({ content: Buffer.from('hello'), name: 'n.txt' });
  });

  it('throws the errstr of a getfile failure', () => {
    expect(() =>
      decodePortal('file', fakeResponse('<data><res errstr="File not found"/></data>'), {
        operation: 'action_getfile',
      }),
    ).toThrow(ErpError);
  });
});
