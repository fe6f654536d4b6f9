import { closeXmlValidator, validateXml } from '@erpcert/contract';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../app-types.js';
import { errstrOf, parsePortal, portal, resOf } from '../testing/portal-client.js';
import { PF } from '../testing/portal-fixture.js';
import { closeWorkflowApps, WF, workflowApp } from './testing/workflow-fixture.js';

afterEach(closeWorkflowApps);
afterAll(() => closeXmlValidator());

const sub = (register: string, extra: Record<string, string>) => ({ action: 'action', register, ...extra });

/** checkapprovalstatus, checked against the XSD; the DummyVc fields as values. */
async function status(a: App, regname: string, id: string) {
  const res = await portal(a, sub('checkapprovalstatus', { regname, id }));
  const v = await validateXml(res.text, 'portal-approval');
  expect(v.errors).toEqual([]);
  expect(v.failure).toBe(false);
  const data = parsePortal(res.text).data;
  expect(data.res.regname).toBe(regname);
  const d = data.DummyVc as Record<string, string>;
  return {
    status: Number(d.approvalstatus),
    hasapprovals: d.hasapprovals,
    cancancel: d.cancancel,
    message: d.message,
  };
}

async function op(a: App, register: string, extra: Record<string, string>) {
  const res = await portal(a, sub(register, extra));
  const v = await validateXml(res.text, 'portal-result');
  expect(v.errors).toEqual([]);
  return { errstr: errstrOf(res.text), res: resOf(res.text) };
}

const send = (a: App, regname: string, id: string, usercode?: string) =>
  op(a, 'sendforapproval', { regname, id, ...(usercode ? { usercode } : {}) });
const approve = (a: App, id: string, usercode: string) => op(a, 'approveactivity', { id, usercode });
const reject = (a: App, id: string, usercode: string) => op(a, 'rejectactivity', { id, usercode });
const cancel = (a: App, regname: string, id: string) => op(a, 'cancelapproval', { regname, id });
const activity = (a: App, id: string) => a.store.get('ActVc', 1, [id])!.fields;

describe('approval status without a request (codes 0 and 1 come from the rules)', () => {
  it.each([
    ['QTVc without rules', 'QTVc', PF.quotation, 1, 'Not required: no approval rule for QTVc'],
    [
      'VIVc below the limit',
      'VIVc',
      PF.purchase,
      1,
      'Not required: PayVal 122.00 is below 1000.00, the approval limit',
    ],
    ['IVVc above step 1', 'IVVc', PF.draftInvoice, 0, 'Not requested: approval needed in 1 step(s); Sum4 46.20'],
    ['IVVc above both steps', 'IVVc', WF.bigInvoice, 0, 'Not requested: approval needed in 2 step(s); Sum4 500.00'],
    ['ORVc always', 'ORVc', PF.draftOrder, 0, 'Not requested: approval needed in 1 step(s); Sum4 46.20'],
    ['ActVc always', 'ActVc', WF.task, 0, 'Not requested: approval needed in 1 step(s)'],
  ])('%s', async (_n, regname, id, code, message) => {
    const a = workflowApp();
    expect(await status(a, regname, id)).toEqual({ status: code, hasapprovals: '0', cancancel: '0', message });
  });
});

describe('transitions', () => {
  it('0 -> 2 (send) -> 4 (approve, one step) -> 0 (cancel while draft)', async () => {
    const a = workflowApp();
    const sent = await send(a, 'IVVc', PF.draftInvoice);
    expect(sent.errstr).toBe('');
    const act = sent.res.newdata!;
    expect(activity(a, act)).toMatchObject({
      ActType: 'APPROVAL',
      ActState: 'TODO',
      MainPersons: 'JD',
      SourceRegister: 'IVVc',
      SourceRecordId: PF.draftInvoice,
      CUCode: 'C1',
      Comment: `Approve IVVc ${PF.draftInvoice} (step 1 of 1), Sum4 46.20`,
    });
    expect(await status(a, 'IVVc', PF.draftInvoice)).toEqual({
      status: 2,
      hasapprovals: '1',
      cancancel: '1',
      message: 'Not started: waiting for step 1 of 1 (approvers JD)',
    });
    expect((await approve(a, act, 'JD')).errstr).toBe('');
    expect(activity(a, act)).toMatchObject({ ActState: 'DONE', ActResult: 'APPROVED', EndDate: '2025-03-10' });
    expect(await status(a, 'IVVc', PF.draftInvoice)).toEqual({
      status: 4,
      hasapprovals: '1',
      cancancel: '1',
      message: 'Approved: step 1 by JD on 2025-03-10',
    });
    expect((await cancel(a, 'IVVc', PF.draftInvoice)).errstr).toBe('');
    expect((await status(a, 'IVVc', PF.draftInvoice)).status).toBe(0);
  });

  it('0 -> 2 -> 3 (step 1 of 2) -> 4 (step 2, by a member of the group)', async () => {
    const a = workflowApp();
    await send(a, 'IVVc', WF.bigInvoice, 'JD');
    // the requester JD is the only approver of step 1: refused, nothing created
    expect((await send(a, 'IVVc', WF.bigInvoice, 'JD')).errstr).toBe(
      'step 1 of the IVVc approval rule has no approver other than the requester JD; IVVc 10000103 cannot be sent for approval',
    );
    const sent = await send(a, 'IVVc', WF.bigInvoice, 'REP');
    const [s1, s2] = [sent.res.newdata!, String(Number(sent.res.newdata) + 1)];
    expect(activity(a, s2)).toMatchObject({ MainPersons: 'ADMIN', CCPersons: 'REP' });
    expect((await approve(a, s1, 'JD')).errstr).toBe('');
    expect(await status(a, 'IVVc', WF.bigInvoice)).toEqual({
      status: 3,
      hasapprovals: '1',
      cancancel: '1',
      message: 'Pending: approved step 1 by JD; waiting for step 2 of 2 (approvers ADMIN)',
    });
    expect((await approve(a, s2, 'ADMIN')).errstr).toBe('');
    expect((await status(a, 'IVVc', WF.bigInvoice)).message).toBe(
      'Approved: step 1 by JD on 2025-03-10, step 2 by ADMIN on 2025-03-10',
    );
  });

  it('3 -> 5 (reject step 2) -> 2 (send again: a new round) ', async () => {
    const a = workflowApp();
    const first = (await send(a, 'IVVc', WF.bigInvoice)).res.newdata!;
    const second = String(Number(first) + 1);
    await approve(a, first, 'JD');
    expect((await reject(a, second, 'ADMIN')).errstr).toBe('');
    expect(activity(a, second)).toMatchObject({ ActState: 'DONE', ActResult: 'REJECTED' });
    expect(await status(a, 'IVVc', WF.bigInvoice)).toEqual({
      status: 5,
      hasapprovals: '1',
      cancancel: '1',
      message: 'Rejected: step 2 of 2 by ADMIN on 2025-03-10',
    });
    const again = await send(a, 'IVVc', WF.bigInvoice);
    expect(again.errstr).toBe('');
    expect(Number(again.res.newdata)).toBe(Number(second) + 1);
    expect((await status(a, 'IVVc', WF.bigInvoice)).status).toBe(2);
    // the activities of the first round decide nothing any more
    expect((await approve(a, second, 'ADMIN')).errstr).toBe(`ActVc ${second} is already rejected; nothing to decide`);
  });

  it('2 -> 5 (reject step 1): the later step is cancelled; 5 -> 0 (cancel)', async () => {
    const a = workflowApp();
    const first = (await send(a, 'IVVc', WF.bigInvoice)).res.newdata!;
    const second = String(Number(first) + 1);
    expect((await reject(a, first, 'JD')).errstr).toBe('');
    expect(activity(a, second)).toMatchObject({ ActState: 'DONE', ActResult: 'CANCELLED' });
    expect((await status(a, 'IVVc', WF.bigInvoice)).status).toBe(5);
    expect((await cancel(a, 'IVVc', WF.bigInvoice)).errstr).toBe('');
    expect((await status(a, 'IVVc', WF.bigInvoice)).status).toBe(0);
  });

  it('2 -> 0 (cancel): the open activities close as CANCELLED and decide nothing', async () => {
    const a = workflowApp();
    const act = (await send(a, 'ORVc', PF.draftOrder)).res.newdata!;
    expect(activity(a, act).MainPersons).toBe('JD');
    expect((await cancel(a, 'ORVc', PF.draftOrder)).errstr).toBe('');
    expect(activity(a, act)).toMatchObject({ ActState: 'DONE', ActResult: 'CANCELLED' });
    expect((await status(a, 'ORVc', PF.draftOrder)).status).toBe(0);
    expect((await approve(a, act, 'JD')).errstr).toBe(`ActVc ${act} is already cancelled; nothing to decide`);
  });

  it('3 -> 0 (cancel while pending); 4 refuses another send', async () => {
    const a = workflowApp();
    const first = (await send(a, 'IVVc', WF.bigInvoice)).res.newdata!;
    await approve(a, first, 'JD');
    expect((await status(a, 'IVVc', WF.bigInvoice)).status).toBe(3);
    expect((await cancel(a, 'IVVc', WF.bigInvoice)).errstr).toBe('');
    expect(activity(a, String(Number(first) + 1))).toMatchObject({ ActState: 'DONE', ActResult: 'CANCELLED' });
    expect(activity(a, first).ActResult).toBe('APPROVED');
    expect((await status(a, 'IVVc', WF.bigInvoice)).status).toBe(0);
    const one = (await send(a, 'IVVc', PF.draftInvoice)).res.newdata!;
    await approve(a, one, 'JD');
    expect((await send(a, 'IVVc', PF.draftInvoice)).errstr).toBe(`IVVc ${PF.draftInvoice} is already approved`);
  });

  it('an activity whose record was deleted decides nothing', async () => {
    const a = workflowApp();
    const act = (await send(a, 'IVVc', PF.draftInvoice)).res.newdata!;
    await portal(a, { action: 'delete', register: 'IVVc', id: PF.draftInvoice });
    expect((await approve(a, act, 'JD')).errstr).toBe(
      `the approval request of ActVc ${act} (IVVc ${PF.draftInvoice}) no longer exists`,
    );
  });

  it('4 on a confirmed record cannot be cancelled (cancancel 0)', async () => {
    const a = workflowApp();
    const act = (await send(a, 'IVVc', PF.confirmedInvoice)).res.newdata!;
    await approve(a, act, 'JD');
    const s = await status(a, 'IVVc', PF.confirmedInvoice);
    expect([s.status, s.cancancel]).toEqual([4, '0']);
    expect((await cancel(a, 'IVVc', PF.confirmedInvoice)).errstr).toBe(
      `IVVc ${PF.confirmedInvoice} is approved and confirmed (OKFlag 1); its approval cannot be cancelled`,
    );
  });

  it('EPOrderDocVc and ActVc follow their rules; an approval activity is not sent itself', async () => {
    const a = workflowApp();
    const doc = (await send(a, 'EPOrderDocVc', PF.orderDoc)).res.newdata!;
    expect(activity(a, doc).MainPersons).toBe('REP');
    const task = (await send(a, 'ActVc', WF.task)).res.newdata!;
    expect(activity(a, task)).toMatchObject({ MainPersons: 'ADMIN', SourceRegister: 'ActVc', SourceRecordId: WF.task });
    expect((await send(a, 'ActVc', task)).errstr).toBe(`ActVc ${task} is itself an approval activity`);
  });

  it('a record deleted and replaced under the same SerNr starts without approval', async () => {
    const a = workflowApp();
    await send(a, 'IVVc', PF.draftInvoice);
    expect((await status(a, 'IVVc', PF.draftInvoice)).status).toBe(2);
    expect(errstrOf((await portal(a, { action: 'delete', register: 'IVVc', id: PF.draftInvoice })).text)).toBe('');
    a.store.insert('IVVc', 1, { fields: { SerNr: PF.draftInvoice, CustCode: 'C1', Sum4: '46.20' }, rows: [] });
    expect((await status(a, 'IVVc', PF.draftInvoice)).status).toBe(0);
  });
});

describe('refusals change nothing', () => {
  it.each<[string, (a: App, act: string) => Promise<{ errstr: string }>, string | RegExp]>([
    ['send when not required', (a) => send(a, 'QTVc', PF.quotation), /^QTVc 10000301 needs no approval \(status 1/],
    [
      'send when already sent',
      (a) => send(a, 'IVVc', WF.bigInvoice),
      'IVVc 10000103 is already sent for approval (status 2 Not started)',
    ],
    [
      'approve by a user who is no approver',
      (a, act) => approve(a, act, 'ADMIN'),
      /^user ADMIN is not an approver of ActVc \d+; approvers: JD$/,
    ],
    [
      'approve step 2 before step 1',
      (a, act) => approve(a, String(Number(act) + 1), 'ADMIN'),
      /^step 1 of IVVc 10000103 \(ActVc \d+\) is not approved yet; ActVc \d+ is step 2$/,
    ],
    [
      'approve by an unknown user',
      (a, act) => approve(a, act, 'NOBODY'),
      'usercode "NOBODY" is not a user of company 1',
    ],
    ['approve by a closed user', (a, act) => approve(a, act, 'OLD'), 'user OLD is closed'],
    [
      'approve without usercode',
      (a, act) => op(a, 'approveactivity', { id: act }),
      'missing required parameter "usercode"',
    ],
    ['reject without id', (a) => op(a, 'rejectactivity', { usercode: 'JD' }), 'missing required parameter "id"'],
    [
      'approve an activity that is no approval',
      (a) => approve(a, WF.task, 'JD'),
      `ActVc ${WF.task} is not an approval activity`,
    ],
    ['approve a missing activity', (a) => approve(a, '99999999', 'JD'), 'ActVc 99999999 does not exist in company 1'],
    [
      'cancel when nothing was sent',
      (a) => cancel(a, 'IVVc', PF.draftInvoice),
      `there is no approval request of IVVc ${PF.draftInvoice} to cancel (status 0 Not requested)`,
    ],
    [
      'status of a missing record',
      (a) => op(a, 'sendforapproval', { regname: 'IVVc', id: '1' }),
      'IVVc 1 does not exist in company 1',
    ],
    [
      'send of a register outside the table',
      (a) => send(a, 'CUVc', 'C1'),
      'regname "CUVc" is not allowed for sendforapproval; allowed: IVVc, VIVc, ORVc, QTVc, ActVc, EPOrderDocVc, OPVc',
    ],
    [
      'cancel of a register outside the table',
      (a) => cancel(a, 'INVc', 'I1'),
      /^regname "INVc" is not allowed for sendforapproval; allowed: IVVc/,
    ],
  ])('%s', async (_n, run, text) => {
    const a = workflowApp();
    const act = (await send(a, 'IVVc', WF.bigInvoice)).res.newdata!;
    const before = a.store.sequence;
    const statusBefore = await status(a, 'IVVc', WF.bigInvoice);
    expect((await run(a, act)).errstr).toMatch(text);
    expect(a.store.sequence).toBe(before);
    expect(await status(a, 'IVVc', WF.bigInvoice)).toEqual(statusBefore);
  });

  it('checkapprovalstatus names a disallowed register and lists the allowed ones', async () => {
    const a = workflowApp();
    const res = await portal(a, sub('checkapprovalstatus', { regname: 'CUVc', id: 'C1' }));
    expect(errstrOf(res.text)).toBe(
      'regname "CUVc" is not allowed for checkapprovalstatus; allowed: ActVc, IVVc, VIVc, ORVc, QTVc, EPOrderDocVc, OPVc',
    );
    expect((await validateXml(res.text, 'portal-approval')).failure).toBe(true);
  });
});
