import { closeXmlValidator, validateXml } from '@erpcert/contract';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../app-types.js';
import { call } from '../../testing/test-client.js';
import { errstrOf, parsePortal, portal, resOf } from '../testing/portal-client.js';
import { PF } from '../testing/portal-fixture.js';
import { closeWorkflowApps, WF, workflowApp } from './testing/workflow-fixture.js';

afterEach(closeWorkflowApps);
afterAll(() => closeXmlValidator());

type Opts = Parameters<typeof portal>[2];
/** A sub-action whose body is "not shown" (kind open): valid, and a success. */
async function get(a: App, register: string, extra: Record<string, string> = {}, options: Opts = {}) {
  const res = await portal(a, { action: 'action', register, ...extra }, options);
  const v = await validateXml(res.text, 'open');
  expect(v.errors).toEqual([]);
  return { text: res.text, errstr: errstrOf(res.text), data: parsePortal(res.text).data, res: resOf(res.text) };
}
/** A sub-action answering the operation result. */
async function op(a: App, register: string, extra: Record<string, string> = {}, options: Opts = {}) {
  const res = await portal(a, { action: 'action', register, ...extra }, options);
  expect((await validateXml(res.text, 'portal-result')).errors).toEqual([]);
  return { errstr: errstrOf(res.text), res: resOf(res.text) };
}
const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const text = { 'content-type': 'text/plain; charset=utf-8' };

describe('getactivitydata', () => {
  it('answers the activity with every field, its description and comment count', async () => {
    const a = workflowApp();
    const r = await get(a, 'getactivitydata', { id: WF.task });
    expect(r.errstr).toBe('');
    expect(r.data.ActVc).toMatchObject({
      SerNr: WF.task,
      ActType: 'TASK',
      MainPersons: 'JD',
      CUCode: 'C1',
      EndDate: '',
    });
    expect(r.data.description).toBe('');
    expect(r.data.comments.count).toBe('0');
    expect(r.data.approval).toBeUndefined();
  });

  it('shows the approval step of an approval activity and the signers of a signing activity', async () => {
    const a = workflowApp();
    const approval = (await op(a, 'sendforapproval', { regname: 'IVVc', id: WF.bigInvoice })).res.newdata!;
    expect((await get(a, 'getactivitydata', { id: approval })).data.approval).toEqual({
      regname: 'IVVc',
      id: WF.bigInvoice,
      step: '1',
      steps: '2',
      state: 'open',
      decidedby: '',
      decidedon: '',
    });
    const signing = (
      await op(a, 'createsigningactivity', { regname: 'EPContractVc', id: WF.latContract, signers: 'JD,REP' })
    ).res.newdata!;
    const s = (await get(a, 'getactivitydata', { id: signing })).data.signing;
    expect(s).toMatchObject({ regname: 'EPContractVc', id: WF.latContract, status: '0', statusname: 'created' });
    expect(s.signer.map((x: Record<string, string>) => x.usercode)).toEqual(['JD', 'REP']);
  });

  it('refuses a missing activity by name', async () => {
    expect((await get(workflowApp(), 'getactivitydata', { id: '1' })).errstr).toBe(
      'ActVc 1 does not exist in company 1',
    );
  });
});

describe('comments', () => {
  it('adds comments from a text body, a form field and the query, and lists them oldest first', async () => {
    const a = workflowApp();
    expect(
      (
        await op(
          a,
          'addcomment',
          { id: WF.task, usercode: 'JD' },
          { body: 'Called, no answer\nTry again', headers: text },
        )
      ).errstr,
    ).toBe('');
    await op(a, 'addcomment', { id: WF.task }, { form: { comment: 'Käisin kohal' } });
    await op(a, 'addcomment', { id: WF.task, comment: '<ok> & done' });
    const r = await get(a, 'getcomments', { id: WF.task });
    expect(list(r.data.comment).map((c: Record<string, string>) => [c.usercode, c.date, c.text])).toEqual([
      ['JD', '2025-03-10', 'Called, no answer\nTry again'],
      ['erpcert', '2025-03-10', 'Käisin kohal'],
      ['erpcert', '2025-03-10', '<ok> & done'],
    ]);
    expect((await get(a, 'getactivitydata', { id: WF.task })).data.comments.count).toBe('3');
  });

  it.each([
    ['no text', {}, undefined, 'missing the comment text: send it as the request body or in the form field "comment"'],
    ['blank text', {}, '   ', 'missing the comment text: send it as the request body or in the form field "comment"'],
    ['a control character', {}, 'bell\u0007', 'the text holds control characters XML cannot carry'],
    ['an unknown author', { usercode: 'NOBODY' }, 'hi', 'usercode "NOBODY" is not a user of company 1'],
  ])('refuses %s', async (_n, extra, body, message) => {
    const a = workflowApp();
    const r = await op(a, 'addcomment', { id: WF.task, ...extra }, body === undefined ? {} : { body, headers: text });
    expect(r.errstr).toBe(message);
    expect((await get(a, 'getcomments', { id: WF.task })).data.comment).toBeUndefined();
  });
});

describe('settaskdescription', () => {
  it('stores the lines as the activity rows, visible through /api/1/ and getactivitydata', async () => {
    const a = workflowApp();
    const before = a.store.sequence;
    expect(
      (
        await op(
          a,
          'settaskdescription',
          { id: WF.task },
          { body: 'Bring samples\r\nAsk for the price list', headers: text },
        )
      ).errstr,
    ).toBe('');
    expect(a.store.sequence).toBe(before + 1);
    const rest = await call(a, 'GET', `/api/1/ActVc/${WF.task}`, { headers: { accept: 'application/json' } });
    expect(JSON.parse(rest.text).data.ActVc[0].rows).toEqual([
      { '@rownumber': '0', TextCode: '', Text: 'Bring samples' },
      { '@rownumber': '1', TextCode: '', Text: 'Ask for the price list' },
    ]);
    expect((await get(a, 'getactivitydata', { id: WF.task })).data.description).toBe(
      'Bring samples\nAsk for the price list',
    );
    await op(a, 'settaskdescription', { id: WF.task }, { form: { text: '' } });
    expect(a.store.get('ActVc', 1, [WF.task])!.rows).toEqual([]);
  });

  it('refuses a missing text and an activity open in another session', async () => {
    const a = workflowApp();
    expect((await op(a, 'settaskdescription', { id: WF.task })).errstr).toBe(
      'missing the description: send it as the request body or in the form field "text"',
    );
    const lock = await call(a, 'POST', `/erpcert/lock?register=ActVc&id=${WF.task}`);
    expect(lock.status).toBe(200);
    expect((await op(a, 'settaskdescription', { id: WF.task }, { body: 'x', headers: text })).errstr).toBe(
      'Record is locked',
    );
  });
});

describe('getactivitytypes', () => {
  it('lists the types with their signing information', async () => {
    const r = await get(workflowApp(), 'getactivitytypes');
    expect(list(r.data.ActType)).toEqual([
      { code: 'APPROVAL', name: 'Approval', signing: '0', signregisters: '' },
      { code: 'CALL', name: 'Phone call', signing: '0', signregisters: '' },
      { code: 'MEET', name: 'Meeting', signing: '0', signregisters: '' },
      {
        code: 'SIGN',
        name: 'Digital signature',
        signing: '1',
        signregisters: 'ORVc,IVVc,EPOrderDocVc,EPContractVc,EPTS2Vc',
      },
      { code: 'TASK', name: 'Task', signing: '0', signregisters: '' },
    ]);
  });
});

describe('linktosourcerecord', () => {
  it('creates a task linked to the record; getrecordlinks lists it', async () => {
    const a = workflowApp();
    const r = await op(a, 'linktosourcerecord', {
      sourceRegName: 'IVVc',
      sourceRecordId: PF.draftInvoice,
      usercode: 'JD',
    });
    expect(r.errstr).toBe('');
    const act = a.store.get('ActVc', 1, [r.res.newdata!])!.fields;
    expect(act).toMatchObject({
      ActType: 'TASK',
      ActState: 'TODO',
      TransDate: '2025-03-10',
      StartTime: '12:00',
      MainPersons: 'JD',
      CUCode: 'C1',
      CUName: 'Alpha Ltd',
      Comment: `IVVc ${PF.draftInvoice} Alpha Ltd`,
      SourceRegister: 'IVVc',
      SourceRecordId: PF.draftInvoice,
    });
    const links = await get(a, 'getrecordlinks', { regname: 'IVVc', id: PF.draftInvoice });
    expect(list(links.data.LinkVc)).toContainEqual({ ID: r.res.newdata, VcName: 'ActVc', Comment: 'activity' });
  });

  it.each([
    [{ sourceRegName: 'IVVc' }, 'missing required parameter "sourceRecordId"'],
    [{ sourceRegName: 'NoSuchVc', sourceRecordId: '1' }, 'register NoSuchVc is not available on this server'],
    [{ sourceRegName: 'VIVc', sourceRecordId: '1' }, 'VIVc 1 does not exist in company 1'],
  ])('refuses %j', async (params, message) => {
    const a = workflowApp();
    const before = a.store.sequence;
    expect((await op(a, 'linktosourcerecord', params)).errstr).toBe(message);
    expect(a.store.sequence).toBe(before);
  });
});

describe('getnotifications', () => {
  it('lists approvals the user may decide now, signings to sign and due tasks', async () => {
    const a = workflowApp();
    const approval = (await op(a, 'sendforapproval', { regname: 'IVVc', id: WF.bigInvoice })).res.newdata!;
    const signing = (
      await op(a, 'createsigningactivity', { regname: 'EPContractVc', id: WF.latContract, usercode: 'JD' })
    ).res.newdata!;
    const jd = await get(a, 'getnotifications', { usercode: 'JD' });
    expect(jd.res.count).toBe('3');
    expect(list(jd.data.notification).map((n: Record<string, string>) => [n.type, n.id, n.source, n.text])).toEqual([
      ['approval', approval, `IVVc ${WF.bigInvoice}`, `Approve IVVc ${WF.bigInvoice} (step 1 of 2), Sum4 500.00`],
      ['signing', signing, `EPContractVc ${WF.latContract}`, `Sign EPContractVc ${WF.latContract}`],
      ['task', WF.task, '', 'Call Alpha about the order'],
    ]);
    // ADMIN decides step 2 only after step 1
    expect((await get(a, 'getnotifications', { usercode: 'ADMIN' })).res.count).toBe('0');
    await op(a, 'approveactivity', { id: approval, usercode: 'JD' });
    const admin = await get(a, 'getnotifications', { usercode: 'ADMIN' });
    expect(list(admin.data.notification).map((n: Record<string, string>) => n.id)).toEqual([
      String(Number(approval) + 1),
    ]);
  });

  it('needs a usercode naming a user', async () => {
    const a = workflowApp();
    expect((await get(a, 'getnotifications')).errstr).toBe('missing required parameter "usercode"');
    expect((await get(a, 'getnotifications', { usercode: 'X' })).errstr).toBe(
      'usercode "X" is not a user of company 1',
    );
  });
});

describe('getdashboardkpi', () => {
  const kpis = async (a: App, extra: Record<string, string> = {}) =>
    Object.fromEntries(
      list((await get(a, 'getdashboardkpi', extra)).data.kpi).map((k: Record<string, string>) => [k.code, k.value]),
    );

  it('computes the KPIs from the data', async () => {
    const a = workflowApp();
    // the fixture: one confirmed invoice 10000102 of 2025-03-02, Sum4 46.20, unpaid, due on its date; one order
    expect(await kpis(a)).toEqual({
      SALES_MTD: '46.20',
      SALES_YTD: '46.20',
      INVOICES_MTD: '1',
      OPEN_AR: '46.20',
      OVERDUE_AR: '46.20',
      OPEN_AP: '0.00',
      OPEN_ORDERS: '1',
      PENDING_APPROVALS: '0',
      OPEN_ACTIVITIES: '1',
    });
    await op(a, 'sendforapproval', { regname: 'IVVc', id: PF.draftInvoice });
    await op(a, 'createslinvoicefromorder', { id: PF.draftOrder, usercode: 'JD' });
    expect(await kpis(a, { usercode: 'JD' })).toMatchObject({
      PENDING_APPROVALS: '1',
      OPEN_ACTIVITIES: '2',
      OPEN_ORDERS: '0',
      MY_APPROVALS: '1',
      MY_TASKS: '1',
    });
  });
});

describe('getbilinks', () => {
  it.each([
    [{}, ['SALES']],
    [{ usercode: 'JD' }, ['SALES']],
    [{ usercode: 'REP' }, ['AR', 'SALES', 'STOCK']],
  ])('%j sees %j', async (extra, codes) => {
    const r = await get(workflowApp(), 'getbilinks', extra);
    expect(list(r.data.link).map((l: Record<string, string>) => l.code)).toEqual(codes);
    expect(list(r.data.link)[0]).toHaveProperty('url');
  });
});

describe('getapprovalpersons and getcontactpersons (rule 13: parameters not shown)', () => {
  const persons = async (a: App, extra: Record<string, string> = {}) =>
    list((await get(a, 'getapprovalpersons', extra)).data.person).map(
      (p: Record<string, string>) => `${p.regname} ${p.step} ${p.usercode}`,
    );

  it('getapprovalpersons: every rule, one register, or the steps a record needs', async () => {
    const a = workflowApp();
    // the fixture rules; SALES is JD (OLD is closed), @ADMIN is ADMIN, REPORTS is REP
    expect(await persons(a)).toEqual([
      'IVVc 1 JD',
      'IVVc 2 ADMIN',
      'VIVc 1 ACC',
      'ORVc 1 JD',
      'ActVc 1 ADMIN',
      'EPOrderDocVc 1 REP',
    ]);
    expect(await persons(a, { regname: 'IVVc' })).toEqual(['IVVc 1 JD', 'IVVc 2 ADMIN']);
    expect(await persons(a, { regname: 'IVVc', id: PF.draftInvoice })).toEqual(['IVVc 1 JD']);
    expect(await persons(a, { regname: 'VIVc', id: PF.purchase })).toEqual([]);
    expect((await get(a, 'getapprovalpersons', { regname: 'CUVc' })).errstr).toMatch(
      /^regname "CUVc" is not allowed for sendforapproval/,
    );
  });

  it('getcontactpersons: valid contact relations, names filled from the contacts', async () => {
    const a = workflowApp();
    const rel = (CustCode: string, ContactCode: string, extra: Record<string, string> = {}) =>
      a.store.insert('ContactRelVc', 1, {
        fields: { CustCode, ContactCode, StartDate: '2024-01-01', Invalid: '0', ...extra },
        rows: [],
      });
    rel('C1', 'C2');
    rel('C1', 'C3', { Invalid: '1' });
    rel('C1', 'C4', { EndDate: '2025-01-01' });
    rel('C3', 'C4', { ContactName: 'Delta (sales)' });
    const c1 = await get(a, 'getcontactpersons', { id: 'C1' });
    expect(c1.data.ContactRelVc).toEqual({
      CustCode: 'C1',
      CustName: 'Alpha Ltd',
      ContactCode: 'C2',
      ContactName: 'Beta Supplies',
      StartDate: '2024-01-01',
      EndDate: '',
    });
    const all = await get(a, 'getcontactpersons');
    expect(
      list(all.data.ContactRelVc).map((r: Record<string, string>) => `${r.CustCode}-${r.ContactCode} ${r.ContactName}`),
    ).toEqual(['C1-C2 Beta Supplies', 'C3-C4 Delta (sales)']);
    expect((await get(a, 'getcontactpersons', { id: 'X' })).errstr).toBe('id "X" is not a contact of company 1');
  });
});
