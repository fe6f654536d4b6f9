import { validateXml } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import { asList, errstrOf, parsePortal, portal, resOf } from '../testing/portal-client.js';
import { portalTestApps } from '../testing/portal-fixture.js';

const app = portalTestApps();

describe('hasusernewapi', () => {
  it.each([
    ['JD', '1'],
    ['ACC', '1'],
    ['OLD', '0'],
  ])('answers %s with hasapi %s', async (usercode, hasapi) => {
    const res = await portal(app(), { action: 'action', register: 'hasusernewapi', usercode });
    expect((await validateXml(res.text, 'portal-hasusernewapi')).valid).toBe(true);
    expect(resOf(res.text)).toEqual({ errstr: '', hasapi });
  });

  it('refuses an unknown or missing usercode', async () => {
    const a = app();
    const unknown = await portal(a, { action: 'action', register: 'hasusernewapi', usercode: 'X' });
    expect(errstrOf(unknown.text)).toBe('usercode "X" is not a user of company 1');
    const missing = await portal(a, { action: 'action', register: 'hasusernewapi' });
    expect(errstrOf(missing.text)).toBe('missing required parameter "usercode"');
  });
});

// `erpcert` is the login user of the test app: a person of UserVc with every right (issue 10, api-user.ts)
describe('user lists', () => {
  it.each([
    ['getportalusers', ['ACC', 'ADMIN', 'JD', 'REP', 'erpcert']],
    ['getadminusers', ['ADMIN', 'erpcert']],
    ['getallusers', ['ACC', 'ADMIN', 'JD', 'OLD', 'REP', 'erpcert']],
  ])('%s lists %j', async (register, codes) => {
    const res = await portal(app(), { action: 'action', register });
    expect((await validateXml(res.text, 'open')).valid).toBe(true);
    expect(errstrOf(res.text)).toBe('');
    const users = asList(parsePortal(res.text).data.UserVc);
    expect(users.map((u) => u.Code)).toEqual(codes);
  });

  it('answers the users of compno: company 2 has none but the login user', async () => {
    const res = await portal(app(), { action: 'action', register: 'getallusers', compno: '2' });
    expect(asList(parsePortal(res.text).data.UserVc).map((u) => u.Code)).toEqual(['erpcert']);
  });
});

describe('login and deactivate', () => {
  it('checks usercode when given', async () => {
    const a = app();
    expect(resOf((await portal(a, { action: 'login', usercode: 'JD' })).text).errstr).toBe('');
    expect(errstrOf((await portal(a, { action: 'login', usercode: 'NOPE' })).text)).toBe(
      'usercode "NOPE" is not a user of company 1',
    );
    expect(errstrOf((await portal(a, { action: 'deactivate', usercode: 'NOPE' })).text)).toBe(
      'usercode "NOPE" is not a user of company 1',
    );
  });

  it('reports attachments as supported', async () => {
    const res = await portal(app(), { action: 'login' });
    expect(parsePortal(res.text).data.res.supported).toMatchObject({ invoices: '1', attachments: '1' });
  });
});
