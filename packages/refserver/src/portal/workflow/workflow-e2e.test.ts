import { closeXmlValidator, validateXml } from '@erpcert/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/node-server.js';
import { errstrOf, parsePortal, resOf } from '../testing/portal-client.js';
import { PF } from '../testing/portal-fixture.js';
import { loadWorkflowFixture, WF } from './testing/workflow-fixture.js';

/** Part B's end-to-end flows over real HTTP (issue 4 "Tests"): one server on 127.0.0.1, port 0. */
let server: RunningServer;
type Envelope = { data: Record<string, Record<string, string>[] | undefined> };
const basic = `Basic ${Buffer.from('erpcert:erpcert').toString('base64')}`;

beforeAll(async () => {
  server = await startServer({
    host: '127.0.0.1',
    port: 0,
    seed: false,
    log: () => {},
    now: () => new Date(2025, 2, 10, 12),
  });
  loadWorkflowFixture(server.app.store);
});
afterAll(async () => {
  await server.close();
  await closeXmlValidator();
});

async function hal(q: Record<string, string>, init: RequestInit = {}) {
  const res = await fetch(`${server.url}/WebErpAPI.hal?${new URLSearchParams(q)}`, {
    ...init,
    headers: { authorization: basic, ...(init.headers as Record<string, string>) },
  });
  return { res, text: await res.text() };
}
const sub = (register: string, extra: Record<string, string>) => hal({ action: 'action', register, ...extra });

async function status(regname: string, id: string) {
  const r = await sub('checkapprovalstatus', { regname, id });
  const v = await validateXml(r.text, 'portal-approval');
  expect([v.valid, v.failure]).toEqual([true, false]);
  return parsePortal(r.text).data.DummyVc as Record<string, string>;
}

describe('approval over HTTP', () => {
  it('send for approval, approve step by step, status', async () => {
    expect((await status('IVVc', WF.bigInvoice)).approvalstatus).toBe('0');
    const sent = await sub('sendforapproval', { regname: 'IVVc', id: WF.bigInvoice, usercode: 'REP' });
    expect((await validateXml(sent.text, 'portal-result')).valid).toBe(true);
    expect(errstrOf(sent.text)).toBe('');
    const first = resOf(sent.text).newdata!;
    expect(await status('IVVc', WF.bigInvoice)).toMatchObject({
      approvalstatus: '2',
      hasapprovals: '1',
      cancancel: '1',
    });
    // the approver finds the step in their notifications
    const jd = parsePortal((await sub('getnotifications', { usercode: 'JD' })).text).data.notification;
    expect([jd].flat().map((n: Record<string, string>) => n.id)).toContain(first);
    expect(errstrOf((await sub('approveactivity', { id: first, usercode: 'JD' })).text)).toBe('');
    expect((await status('IVVc', WF.bigInvoice)).approvalstatus).toBe('3');
    expect(errstrOf((await sub('approveactivity', { id: String(Number(first) + 1), usercode: 'ADMIN' })).text)).toBe(
      '',
    );
    expect((await status('IVVc', WF.bigInvoice)).approvalstatus).toBe('4');
    // the approval activity is a record of the REST API too
    const rest = await fetch(`${server.url}/api/1/ActVc/${first}`, {
      headers: { authorization: basic, accept: 'application/json' },
    });
    expect(((await rest.json()) as Envelope).data.ActVc![0]).toMatchObject({
      ActType: 'APPROVAL',
      ActState: 'DONE',
      ActResult: 'APPROVED',
    });
  });

  it('reject, then cancel back to not requested', async () => {
    const act = resOf((await sub('sendforapproval', { regname: 'ORVc', id: PF.draftOrder })).text).newdata!;
    expect(errstrOf((await sub('rejectactivity', { id: act, usercode: 'JD' })).text)).toBe('');
    expect((await status('ORVc', PF.draftOrder)).approvalstatus).toBe('5');
    expect(errstrOf((await sub('cancelapproval', { regname: 'ORVc', id: PF.draftOrder })).text)).toBe('');
    expect(await status('ORVc', PF.draftOrder)).toMatchObject({
      approvalstatus: '0',
      hasapprovals: '0',
      cancancel: '0',
    });
  });
});

describe('signing round trip through the stand-in page over HTTP', () => {
  it('startsigning gives a URL on this server; its page signs the document', async () => {
    const act = resOf(
      (await sub('createsigningactivity', { regname: 'EPContractVc', id: WF.latContract, usercode: 'JD' })).text,
    ).newdata!;
    const session = resOf((await sub('createsigningsess', { id: act })).text).newdata!;
    const url = resOf((await sub('startsigning', { id: session, regname: 'ErpSignSessVc' })).text).url!;
    expect(url.startsWith(`${server.url}/erpcert/signing/`)).toBe(true);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    const action = /<form method="post" action="([^"]+\/complete)"/.exec(html)![1]!;
    const done = await fetch(`${server.url}${action}`, { method: 'POST' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('You have signed EPContractVc 10000801');
    const data = parsePortal((await sub('getactivitydata', { id: act })).text).data;
    expect(data.ActVc).toMatchObject({ ActState: 'DONE', ActResult: 'SIGNED' });
    expect(data.signing).toMatchObject({ status: '2', statusname: 'signed', session });
    const rest = await fetch(`${server.url}/api/1/ErpSignSessVc/${session}`, {
      headers: { authorization: basic, accept: 'application/json' },
    });
    expect(((await rest.json()) as Envelope).data.ErpSignSessVc![0]).toMatchObject({ Status: '2' });
    expect((await fetch(`${server.url}${action}`, { method: 'POST' })).status).toBe(410);
  });
});

describe('field triggers over HTTP', () => {
  it('an encrypted windowactions call (JSON byte-reversed, base64) answers the computed record', async () => {
    const body = {
      vcname: 'IVVc',
      fieldname: 'ArtCode',
      value: 'I2',
      rowindex: 0,
      values: { header: { CustCode: 'C1' }, rows: [{ stp: '1', Quant: '3' }] },
    };
    const encrypted = Buffer.from(JSON.stringify(body), 'utf8').reverse().toString('base64');
    const r = await hal(
      { action: 'windowactions', encrypted: 'true' },
      { method: 'POST', body: encrypted, headers: { 'content-type': 'text/plain' } },
    );
    expect(r.res.status).toBe(200);
    const json = JSON.parse(r.text);
    expect(json.success).toBe(true);
    // I2 20.00 x 3 = 60.00, VAT 9 % = 5.40
    expect(json.record.rows[0]).toMatchObject({ Spec: 'Gadget', Price: '20.00', Sum: '60.00' });
    expect(json.record.Sum4).toBe('65.40');
  });
});
