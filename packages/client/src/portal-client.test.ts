import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type ErpClient } from './client.js';
import type { ClientConfig } from './config.js';
import { decryptTriggerText } from './portal-bodies.js';
import { httpResponse, jsonResponse, type RawServer, startRawServer, xmlResponse } from './testing/raw-server.js';

const RESULT = xmlResponse('<data><res errstr=""/></data>');
const TRIGGER = jsonResponse({ success: true, res: true, record: { rows: [] } });

let server: RawServer | undefined;
let client: ErpClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
});

async function setup(answer: (target: string) => Buffer = () => RESULT, config: Partial<ClientConfig> = {}) {
  server = await startRawServer((req) => answer(req.target));
  client = createClient({ baseUrl: server.url, auth: { user: 'u', password: 'pw-secret' }, ...config });
  return client;
}

describe('portal requests', () => {
  it('puts the dispatch values first, then the parameters, then the configured globals', async () => {
    const c = await setup(undefined, { usercode: 'ANN', compno: 2, portalcc: 'est' });
    await c.portal.getattachlist({ regname: 'IVVc', id: '100001' });
    expect(server!.requests[0]!.target).toBe(
      '/WebErpAPI.hal?action=action&register=getattachlist&regname=IVVc&id=100001&compno=2&usercode=ANN&portalcc=est',
    );
  });

  it('lets a call override a global or leave it out with null', async () => {
    const c = await setup(undefined, { usercode: 'ANN', compno: 2 });
    await c.portal.deactivate({ usercode: 'BOB', compno: null });
    expect(server!.requests[0]!.target).toBe('/WebErpAPI.hal?action=deactivate&usercode=BOB');
  });

  it('uses the configured portal path (real deployments: /WebExcellentAPI.hal)', async () => {
    const c = await setup(undefined, { portalPath: '/WebExcellentAPI.hal' });
    await c.portal.delete({ register: 'IVVc', id: '7' });
    expect(server!.requests[0]!.target).toBe('/WebExcellentAPI.hal?action=delete&register=IVVc&id=7');
  });

  it.each([
    {
      name: 'posttext',
      send: (c: ErpClient) => c.portal.posttext({ register: 'MailVc', id: '5' }, 'Hello'),
      target: '/WebErpAPI.hal?action=posttext&register=MailVc&id=5',
      type: 'application/x-www-form-urlencoded; charset=UTF-8',
      body: 'set_field.Math=Hello',
    },
    {
      name: 'addcomment',
      send: (c: ErpClient) => c.portal.addcomment({ id: '9' }, 'Looks good'),
      target: '/WebErpAPI.hal?action=action&register=addcomment&id=9',
      type: 'text/plain; charset=UTF-8',
      body: 'Looks good',
    },
    {
      name: 'doupload',
      send: (c: ErpClient) =>
        c.portal.doupload({ regname: 'IVVc', id: '1' }, { filename: 'a.txt', content: Buffer.from('hi') }),
      target: '/WebErpAPI.hal?action=action&register=doupload&regname=IVVc&id=1',
      type: 'application/xml; charset=UTF-8',
      body: '<?xml version="1.0" encoding="UTF-8"?>\n<root><file><filename>a.txt</filename><base64>aGk=</base64></file></root>',
    },
  ])('POSTs $name with its body', async ({ send, target, type, body }) => {
    const c = await setup(() =>
      xmlResponse('<data><res errstr="" uuid="0b5e8c2a-3f4d-4e6a-9b1c-2d3e4f5a6b7c"/></data>'),
    );
    await send(c);
    const req = server!.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.target).toBe(target);
    expect(req.headers['content-type']).toBe(type);
    expect(req.body.toString()).toBe(body);
  });

  it('sends windowactions plain, or encrypted with encrypted=true', async () => {
    const c = await setup(() => TRIGGER);
    const request = { vcname: 'IVVc' as const, fieldname: 'CustCode', value: 'C1', rowindex: -1 };
    await c.portal.windowactions({}, request);
    await c.portal.windowactions({ usercode: 'ANN' }, request, { encrypted: true });
    const [plain, encrypted] = server!.requests;
    expect(plain!.target).toBe('/WebErpAPI.hal?action=windowactions');
    expect(JSON.parse(plain!.body.toString())).toEqual(request);
    expect(encrypted!.target).toBe('/WebErpAPI.hal?action=windowactions&encrypted=true&usercode=ANN');
    expect(JSON.parse(decryptTriggerText(encrypted!.body.toString()))).toEqual(request);
  });

  it('sends activeeditfields and report bodies', async () => {
    const c = await setup((t) =>
      t.includes('activeeditfields')
        ? jsonResponse({ success: true, res: true, activeFields: { headerFields: true, matrixFields: true } })
        : jsonResponse({ rows: [] }),
    );
    const active = await c.portal.activeeditfields({}, { vcname: 'ORVc', id: '4' });
    const report = await c.portal.report(
      { usercode: 'ANN' },
      { reportwindow: 'W', repname: 'R', lang: 'ENG', spec: {} },
    );
    const [a, r] = server!.requests;
    expect(a!.headers['content-type']).toBe('application/octet-stream');
    expect(JSON.parse(Buffer.from(a!.body.toString(), 'base64').toString())).toEqual({ vcname: 'ORVc', id: '4' });
    expect(active.body.activeFields).toEqual({ headerFields: true, matrixFields: true });
    expect(r!.target).toBe('/WebErpAPI.hal?action=report&usercode=ANN');
    expect(JSON.parse(r!.body.toString())).toEqual({ reportwindow: 'W', repname: 'R', lang: 'ENG', spec: {} });
    expect(report.body).toEqual({ rows: [] });
  });

  it('login returns the login result and the session it opened', async () => {
    const c = await setup(
      () =>
        xmlResponse(
          '<data><res errstr="" dateformat="YYYY-MM-DD" dec_separator="." apiversion="1.0.1" version="1"><supported><activities>1</activities><invoices>1</invoices><attachments>0</attachments><hassigning>0</hassigning></supported></res></data>',
          {
            'Set-Cookie': 'HSESSION=portal-session-1; Path=/',
          },
        ),
      { useSession: true },
    );
    const login = await c.portal.login();
    expect(server!.requests[0]!.target).toBe('/WebErpAPI.hal?action=login');
    expect(login).toMatchObject({
      sessionId: 'portal-session-1',
      fields: { apiversion: '1.0.1' },
      supported: { attachments: '0' },
    });
  });

  it('pastespecial sends the search text in id and decodes the records', async () => {
    const c = await setup(() =>
      xmlResponse('<data><INVc><Code>A1</Code><Name>Apple</Name><UPrice1>1</UPrice1></INVc></data>'),
    );
    const found = await c.portal.pastespecial({ register: 'INVc', id: 'ap app' });
    expect(server!.requests[0]!.target).toBe('/WebErpAPI.hal?action=pastespecial&register=INVc&id=ap%20app');
    expect(found.records.map((r) => r.Name)).toEqual(['Apple']);
  });

  it('getfile returns the bytes', async () => {
    const bytes = Buffer.from([1, 2, 3, 0, 255]);
    const c = await setup(() => httpResponse({ headers: { 'Content-Type': 'application/octet-stream' }, body: bytes }));
    const file = await c.portal.getfile({ regname: 'IVVc', id: '1', file: '0b5e8c2a-3f4d-4e6a-9b1c-2d3e4f5a6b7c' });
    expect(file.content).toEqual(bytes);
  });
});

describe('portal lists', () => {
  /** A list of `total` IVVc rows that honours page/perpage. */
  function listServer(total: number, totalpagesLies = false) {
    return (target: string) => {
      const q = new URL(target, 'http://x').searchParams;
      const page = Number(q.get('page'));
      const perpage = Number(q.get('perpage'));
      const rows = Array.from({ length: total }, (_, i) => i + 1).slice((page - 1) * perpage, page * perpage);
      const pages = totalpagesLies ? 99 : Math.ceil(total / perpage);
      return xmlResponse(
        `<data count="${total}" page="${page}" perpage="${perpage}" totalpages="${pages}">${rows.map((n) => `<IVVc><SerNr>${n}</SerNr></IVVc>`).join('')}</data>`,
      );
    };
  }

  it.each([
    { total: 5, perpage: 2, pages: ['1', '2', '3'] },
    { total: 4, perpage: 2, pages: ['1', '2'] },
    { total: 0, perpage: 10, pages: ['1'] },
  ])('walks $total rows $perpage per page', async ({ total, perpage, pages }) => {
    const c = await setup(listServer(total));
    const serials: unknown[] = [];
    for await (const page of c.portal.listPages('IVVc', { sortkey: 'SerNr' }, { perpage }))
      serials.push(...page.records.map((r) => r.SerNr));
    expect(serials).toEqual(Array.from({ length: total }, (_, i) => String(i + 1)));
    expect(server!.requests.map((r) => new URL(r.target, 'http://x').searchParams.get('page'))).toEqual(pages);
    expect(server!.requests[0]!.target).toBe(`/WebErpAPI.hal?register=IVVc&sortkey=SerNr&page=1&perpage=${perpage}`);
  });

  it('stops at a short page even when totalpages says more', async () => {
    const c = await setup(listServer(3, true));
    let n = 0;
    for await (const _ of c.portal.listPages('IVVc', {}, { perpage: 2 })) n++;
    expect(n).toBe(2);
  });

  it('lists a register the spec does not name (a hook-added list) the same way', async () => {
    const c = await setup(() =>
      xmlResponse('<data count="1" page="1" perpage="5" totalpages="1"><MyListVc><Code>X</Code></MyListVc></data>'),
    );
    const list = await c.portal.list('MyListVc', { page: 1, perpage: 5 });
    expect(server!.requests[0]!.target).toBe('/WebErpAPI.hal?register=MyListVc&page=1&perpage=5');
    expect(list.records).toEqual([{ Code: 'X' }]);
  });
});
