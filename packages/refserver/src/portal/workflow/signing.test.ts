import { closeXmlValidator, validateXml } from '@erpcert/contract';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../app-types.js';
import { call } from '../../testing/test-client.js';
import { errstrOf, portal, resOf } from '../testing/portal-client.js';
import { PF } from '../testing/portal-fixture.js';
import { closeWorkflowApps, WF, workflowApp } from './testing/workflow-fixture.js';

afterEach(closeWorkflowApps);
afterAll(() => closeXmlValidator());

async function op(a: App, register: string, extra: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await portal(a, { action: 'action', register, ...extra }, { headers });
  const v = await validateXml(res.text, 'portal-result');
  expect(v.errors).toEqual([]);
  return { errstr: errstrOf(res.text), res: resOf(res.text) };
}

const create = (a: App, regname: string, id: string, who: Record<string, string> = { usercode: 'JD' }) =>
  op(a, 'createsigningactivity', { regname, id, ...who });
const signingLink = async (a: App, id: string, extra: Record<string, string> = {}) => {
  const r = await op(a, 'startsigning', { id, ...extra });
  expect(r.errstr).toBe('');
  return new URL(r.res.url!).pathname;
};
/** The stand-in page, without ERP credentials (it is the external provider). */
const page = (a: App, path: string, method = 'GET', json = false) =>
  call(a, method, path, { auth: false, headers: json ? { accept: 'application/json' } : {} });
const act = (a: App, id: string) => a.store.get('ActVc', 1, [id])!.fields;
const session = (a: App, id: string) => a.store.get('ErpSignSessVc', 1, [id])!;

describe('signing round trip through the stand-in page', () => {
  it('created -> started -> signed, mirrored into the activity and the session', async () => {
    const a = workflowApp();
    const activity = (await create(a, 'EPContractVc', WF.latContract)).res.newdata!;
    expect(act(a, activity)).toMatchObject({
      ActType: 'SIGN',
      ActState: 'TODO',
      MainPersons: 'JD',
      SourceRegister: 'EPContractVc',
      SourceRecordId: WF.latContract,
    });
    const sess = (await op(a, 'createsigningsess', { id: activity, usercode: 'ADMIN' })).res.newdata!;
    expect(session(a, sess).fields).toMatchObject({ Status: '0', RegName: 'EPContractVc', UserCode: 'ADMIN' });
    expect(session(a, sess).rows).toEqual([
      { stp: '1', Signer: 'JD', SignerName: 'Jaan Tamm', eMail: 'jd@example.com', SignStatus: '0' },
    ]);
    const path = await signingLink(a, activity, { usercode: 'JD' });
    expect(path).toMatch(/^\/erpcert\/signing\/[0-9a-f]{32}$/);
    expect(act(a, activity).ActState).toBe('INPROGRESS');
    expect(session(a, sess).fields.Status).toBe('1');
    const html = await page(a, path);
    expect(html.status).toBe(200);
    expect(html.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(html.text).toContain(`<td>EPContractVc ${WF.latContract}</td>`);
    expect(html.text).toContain(`action="${path}/complete"`);
    const done = await page(a, `${path}/complete`, 'POST', true);
    expect(JSON.parse(done.text)).toEqual({ result: 'signed', status: 2, statusName: 'signed' });
    expect(act(a, activity)).toMatchObject({ ActState: 'DONE', ActResult: 'SIGNED' });
    expect(session(a, sess).fields.Status).toBe('2');
    expect(session(a, sess).rows[0]!.SignStatus).toBe('1');
    expect((await page(a, `${path}/complete`, 'POST')).status).toBe(410);
    expect(JSON.parse((await page(a, path, 'GET', true)).text)).toMatchObject({ link: 'used', status: 2 });
    expect((await op(a, 'startsigning', { id: activity, usercode: 'JD' })).errstr).toBe(
      `signing activity ActVc ${activity} is signed`,
    );
  });

  it('declined on the page -> started again with a new link (the old one is revoked) -> signed', async () => {
    const a = workflowApp();
    const activity = (await create(a, 'EPContractVc', WF.latContract)).res.newdata!;
    const first = await signingLink(a, activity);
    expect(JSON.parse((await page(a, `${first}/cancel`, 'POST', true)).text)).toMatchObject({
      result: 'declined',
      status: 3,
    });
    expect(act(a, activity)).toMatchObject({ ActState: 'INPROGRESS', ActResult: 'DECLINED' });
    expect((await op(a, 'signactivity', { id: activity, usercode: 'JD' })).errstr).toBe(
      `signing activity ActVc ${activity} was declined; start signing again first`,
    );
    const second = await signingLink(a, activity);
    expect(second).not.toBe(first);
    expect((await page(a, `${first}/complete`, 'POST')).status).toBe(410);
    expect((await page(a, `${second}/complete`, 'POST')).status).toBe(200);
    expect(act(a, activity).ActResult).toBe('SIGNED');
  });

  it('two signers: signactivity for one, the page for the other; the session id works for startsigning', async () => {
    const a = workflowApp();
    const activity = (await create(a, 'EPContractVc', WF.latContract, { signers: 'JD,@ADMIN' })).res.newdata!;
    expect(act(a, activity).MainPersons).toBe('JD,ADMIN');
    const sess = (await op(a, 'createsigningsess', { id: activity })).res.newdata!;
    expect((await op(a, 'signactivity', { id: activity, usercode: 'JD' })).errstr).toBe('');
    expect(session(a, sess).rows.map((r) => r.SignStatus)).toEqual(['1', '0']);
    expect(act(a, activity).ActState).toBe('INPROGRESS');
    expect((await op(a, 'signactivity', { id: activity, usercode: 'JD' })).errstr).toBe(
      `user JD has already signed ActVc ${activity}`,
    );
    // without usercode (no session user in the fixture) the first signer still waiting is asked
    const path = await signingLink(a, sess, { regname: 'ErpSignSessVc' });
    expect(JSON.parse((await page(a, path, 'GET', true)).text)).toMatchObject({ signer: 'ADMIN', status: 1 });
    await page(a, `${path}/complete`, 'POST');
    expect(session(a, sess).fields.Status).toBe('2');
    expect(act(a, activity).ActState).toBe('DONE');
  });

  it('the link is built on the Host the client used', async () => {
    const a = workflowApp();
    const activity = (await create(a, 'EPContractVc', WF.latContract)).res.newdata!;
    const r = await op(a, 'startsigning', { id: activity }, { host: 'erp.example:8443' });
    expect(r.res.url).toMatch(/^http:\/\/erp\.example:8443\/erpcert\/signing\/[0-9a-f]{32}$/);
  });

  it.each([
    ['the activity', (activity: string) => ({ regname: 'ActVc', id: activity })],
    ['the record', () => ({ regname: 'EPContractVc', id: WF.latContract })],
  ])('cancelsigning by %s: the link stops working, the activity closes', async (_n, target) => {
    const a = workflowApp();
    const activity = (await create(a, 'EPContractVc', WF.latContract)).res.newdata!;
    const path = await signingLink(a, activity);
    expect((await op(a, 'cancelsigning', target(activity))).errstr).toBe('');
    expect(act(a, activity)).toMatchObject({ ActState: 'DONE', ActResult: 'CANCELLED' });
    expect((await page(a, `${path}/complete`, 'POST')).status).toBe(410);
    // a new signing may start once the old one is final
    expect((await create(a, 'EPContractVc', WF.latContract)).errstr).toBe('');
  });
});

describe('signing needs an approved record where approval is required', () => {
  it('ORVc (always approved first): refused until the approval is done', async () => {
    const a = workflowApp();
    expect((await create(a, 'ORVc', PF.draftOrder)).errstr).toBe(
      `ORVc ${PF.draftOrder} must be approved before signing (approval status 0 Not requested)`,
    );
    const approval = (await op(a, 'sendforapproval', { regname: 'ORVc', id: PF.draftOrder })).res.newdata!;
    expect((await create(a, 'ORVc', PF.draftOrder)).errstr).toMatch(/approval status 2 Not started/);
    await op(a, 'approveactivity', { id: approval, usercode: 'JD' });
    expect((await create(a, 'ORVc', PF.draftOrder)).errstr).toBe('');
  });
});

describe('signing refusals', () => {
  it.each<[string, (a: App, activity: string) => Promise<{ errstr: string }>, string | RegExp]>([
    [
      'a register outside the table',
      (a) => create(a, 'QTVc', PF.quotation),
      'regname "QTVc" is not allowed for createsigningactivity; allowed: ORVc, IVVc, EPOrderDocVc, EPContractVc, EPTS2Vc',
    ],
    [
      'a second open signing of the record',
      (a) => create(a, 'EPContractVc', WF.latContract),
      /^EPContractVc 10000801 already has signing activity ActVc \d+ \(status 0 created\)$/,
    ],
    [
      'no signer at all',
      (a) => create(a, 'EPContractVc', WF.latContract, {}),
      'no signer: send usercode (or signers, a list of user codes)',
    ],
    [
      'an unknown signer',
      (a) => create(a, 'EPContractVc', WF.latContract, { signers: 'JD,NOBODY' }),
      'signers: NOBODY is neither a user nor a user group',
    ],
    [
      'a user who is no signer',
      (a, id) => op(a, 'startsigning', { id, usercode: 'ADMIN' }),
      /^user ADMIN is not a signer of ActVc \d+$/,
    ],
    [
      'an id that is no signing',
      (a) => op(a, 'startsigning', { id: WF.task }),
      `id ${WF.task} is no signing activity or session of company 1`,
    ],
    [
      'a regname that names no signing',
      (a, id) => op(a, 'signactivity', { id, regname: 'IVVc' }),
      'regname "IVVc" names no signing; use ActVc (activity) or ErpSignSessVc (session)',
    ],
    [
      'a second session',
      async (a, id) => {
        await op(a, 'createsigningsess', { id });
        return op(a, 'createsigningsess', { id });
      },
      /already has session ErpSignSessVc \d+$/,
    ],
    [
      'cancelsigning without regname',
      (a, id) => op(a, 'cancelsigning', { id }),
      'missing required parameter "regname"',
    ],
    [
      'cancelsigning of another register',
      (a) => op(a, 'cancelsigning', { regname: 'CUVc', id: 'C1' }),
      'regname "CUVc" is not allowed for cancelsigning; allowed: ActVc, ErpSignSessVc, ORVc, IVVc, EPOrderDocVc, EPContractVc, EPTS2Vc',
    ],
    [
      'cancelsigning of a record without one',
      (a) => op(a, 'cancelsigning', { regname: 'IVVc', id: PF.draftInvoice }),
      `IVVc ${PF.draftInvoice} has no open signing to cancel`,
    ],
  ])('%s', async (_n, run, text) => {
    const a = workflowApp();
    const activity = (await create(a, 'EPContractVc', WF.latContract)).res.newdata!;
    const before = a.store.sequence;
    expect((await run(a, activity)).errstr).toMatch(text);
    if (!_n.startsWith('a second session')) expect(a.store.sequence).toBe(before);
  });

  it('cancelsigning from created and from declined; a signed or cancelled signing cannot be cancelled', async () => {
    const a = workflowApp();
    const created = (await create(a, 'EPContractVc', WF.latContract)).res.newdata!;
    expect((await op(a, 'cancelsigning', { regname: 'ActVc', id: created })).errstr).toBe('');
    expect((await op(a, 'cancelsigning', { regname: 'ActVc', id: created })).errstr).toBe(
      `signing activity ActVc ${created} is cancelled`,
    );
    const declined = (await create(a, 'EPContractVc', WF.latContract)).res.newdata!;
    await page(a, `${await signingLink(a, declined)}/cancel`, 'POST');
    expect((await op(a, 'cancelsigning', { regname: 'ActVc', id: declined })).errstr).toBe('');
    const signed = (await create(a, 'EPContractVc', WF.latContract)).res.newdata!;
    await op(a, 'signactivity', { id: signed, usercode: 'JD' });
    expect(act(a, signed).ActResult).toBe('SIGNED');
    expect((await op(a, 'cancelsigning', { regname: 'ActVc', id: signed })).errstr).toBe(
      `signing activity ActVc ${signed} is signed`,
    );
    expect((await op(a, 'cancelsigning', { regname: 'EPContractVc', id: WF.latContract })).errstr).toBe(
      `EPContractVc ${WF.latContract} has no open signing to cancel`,
    );
  });

  it('the page refuses unknown links, wrong methods and unknown steps', async () => {
    const a = workflowApp();
    const activity = (await create(a, 'EPContractVc', WF.latContract)).res.newdata!;
    const path = await signingLink(a, activity);
    expect((await page(a, '/erpcert/signing/0000')).status).toBe(404);
    expect((await page(a, `${path}/sign`, 'POST')).status).toBe(404);
    expect((await page(a, `${path}/complete`)).status).toBe(405);
    expect((await page(a, path, 'POST')).status).toBe(405);
    await op(a, 'cancelsigning', { regname: 'ActVc', id: activity });
    expect(JSON.parse((await page(a, path, 'GET', true)).text)).toMatchObject({ link: 'revoked', status: 4 });
  });
});

describe('deleting a signing activity', () => {
  it('forgets its signing: the SerNr given out again makes a new signing, not an internal error', async () => {
    const a = workflowApp();
    const first = (await create(a, 'EPContractVc', WF.latContract)).res.newdata!;
    expect((await op(a, 'cancelsigning', { id: first, regname: 'ActVc' })).errstr).toBe('');
    expect(errstrOf((await portal(a, { action: 'delete', register: 'ActVc', id: first })).text)).toBe('');
    const again = await create(a, 'EPContractVc', WF.latContract);
    expect(again.errstr).toBe('');
    expect(again.res.newdata).toBe(first);
    expect(act(a, first)).toMatchObject({ ActType: 'SIGN', SourceRegister: 'EPContractVc' });
  });
});
