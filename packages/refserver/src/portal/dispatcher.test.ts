import { validateXml } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import { call } from '../testing/test-client.js';
import { createPortalRoute } from './dispatcher.js';
import { EditLocks } from './edit-locks.js';
import { PortalError, type PortalHandler, type PortalState } from './handler.js';
import { resolvePortalOptions } from './portal-options.js';
import { errstrOf, portal, resOf } from './testing/portal-client.js';
import { portalTestApps } from './testing/portal-fixture.js';

const app = portalTestApps();

describe('portal dispatcher: login and auth', () => {
  it('answers login with the login result on both paths, and opens an HSESSION session', async () => {
    const a = app();
    for (const path of ['/WebErpAPI.hal', '/WebExcellentAPI.hal']) {
      const res = await portal(a, { action: 'login' }, { path });
      expect(res.status).toBe(200);
      expect(String(res.headers['Content-Type'])).toMatch(/^application\/xml/);
      expect((await validateXml(res.text, 'portal-login')).valid).toBe(true);
      const r = resOf(res.text);
      expect(r).toMatchObject({ errstr: '', apiversion: '1.0.1', version: '1.0', dec_separator: '.' });
      expect(r.dateformat).toBe('YYYY-MM-DD');
      expect(String(res.headers['Set-Cookie'])).toMatch(/^HSESSION=[^;]+;/);
    }
  });

  it('accepts the HSESSION cookie alone, and deactivate ends that session', async () => {
    const a = app();
    const first = await portal(a, { action: 'login' });
    const cookie = String(first.headers['Set-Cookie']).split(';')[0]!;
    const again = await portal(a, { action: 'login' }, { auth: false, headers: { cookie } });
    expect(again.status).toBe(200);
    const off = await portal(a, { action: 'deactivate' }, { auth: false, headers: { cookie } });
    expect(errstrOf(off.text)).toBe('');
    expect((await validateXml(off.text, 'portal-result')).valid).toBe(true);
    const after = await portal(a, { action: 'login' }, { auth: false, headers: { cookie } });
    expect(after.status).toBe(401);
  });

  it.each([
    ['no credentials', {}, /authentication required/],
    ['a bearer token', { authorization: 'Bearer abc' }, /bearer tokens are not accepted/],
    ['a wrong password', { authorization: `Basic ${Buffer.from('erpcert:nope').toString('base64')}` }, /wrong user/],
  ])('refuses %s with 401 and an errstr', async (_name, headers, text) => {
    const a = app();
    const res = await portal(a, { action: 'login' }, { auth: false, headers });
    expect(res.status).toBe(401);
    expect(res.headers['WWW-Authenticate']).toBe('Basic realm="erpcert"');
    expect(errstrOf(res.text)).toMatch(text);
    expect((await validateXml(res.text, 'portal-login')).valid).toBe(true);
  });
});

describe('portal dispatcher: request errors name what is wrong', () => {
  it.each([
    ['no action and no register', {}, /missing required parameter "action"/],
    ['an unknown action', { action: 'explode' }, /unknown action "explode"; actions: login, deactivate/],
    ['action=action without register', { action: 'action' }, /missing required parameter "register"/],
    [
      'an unknown sub-action',
      { action: 'action', register: 'nosuch' },
      /unknown sub-action register=nosuch; sub-actions: .*getallusers/,
    ],
    [
      'a register no list serves',
      { register: 'TRVc' },
      /register "TRVc" is not allowed for list queries; allowed: INVc, CUVc, ActVc, Kanban/,
    ],
    [
      'delete of a register the table does not list',
      { action: 'delete', register: 'INVc', id: 'I1' },
      /register "INVc" is not allowed for delete; allowed: IVVc, VIVc, ORVc, QTVc, ActVc, CUVc, EPOrderDocVc/,
    ],
    ['delete without register', { action: 'delete', id: '1' }, /missing required parameter "register"/],
    ['delete without id', { action: 'delete', register: 'IVVc' }, /missing required parameter "id"/],
    ['an unknown company', { action: 'login', compno: '9' }, /company 9 does not exist/],
    ['a malformed compno', { action: 'login', compno: 'x' }, /compno must be a company number/],
    ['a bad portalcc', { action: 'login', portalcc: 'fin' }, /parameter "portalcc" must be one of est, lat/],
    [
      'a parameter given twice',
      'action=delete&register=IVVc&register=ORVc&id=1',
      /parameter "register" is given 2 times/,
    ],
  ])('%s', async (_name, query, text) => {
    const a = app();
    const res = await portal(a, query as Record<string, string>);
    expect(res.status).toBe(200);
    expect(errstrOf(res.text)).toMatch(text);
    expect((await validateXml(res.text, 'portal-result')).valid).toBe(true);
  });

  it('refuses methods other than GET and POST with 405, after authentication', async () => {
    const a = app();
    expect((await portal(a, { action: 'login' }, { method: 'PUT', auth: false })).status).toBe(401);
    expect((await portal(a, 'action=a&action=b', { auth: false })).status).toBe(401);
    const res = await portal(a, { action: 'login' }, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.Allow).toBe('GET, HEAD, POST');
    expect(errstrOf(res.text)).toMatch(/method PUT is not allowed/);
  });

  it('takes parameters from a form-encoded POST body too', async () => {
    const a = app();
    const res = await portal(a, '', { form: { action: 'login' } });
    expect(resOf(res.text).apiversion).toBe('1.0.1');
  });
});

describe('portal dispatcher: handler failures', () => {
  const state = (): PortalState => ({
    options: resolvePortalOptions(),
    locks: new EditLocks(60, () => 0),
    subActions: new Set(),
  });
  const boom: PortalHandler = {
    kind: 'action',
    name: 'boom',
    handle() {
      throw new TypeError('secret internals');
    },
  };
  const jsonOp: PortalHandler = {
    kind: 'action',
    name: 'jsonop',
    json: true,
    required: ['needed'],
    handle: () => ({ json: { success: true } }),
  };
  const refuse: PortalHandler = {
    kind: 'action',
    name: 'refuse',
    handle() {
      throw new PortalError('nope, because');
    },
  };

  it('answers "Internal error" for an unexpected exception and logs it, without the stack in the body', async () => {
    const a = app(); // the fixture's data is not needed here, only its closing after the test
    a.mount('/t.hal', createPortalRoute([boom, jsonOp, refuse], state()));
    const res = await call(a, 'GET', '/t.hal?action=boom');
    expect(res.status).toBe(200);
    expect(errstrOf(res.text)).toBe('Internal error');
    expect(res.text).not.toMatch(/secret internals/);
    expect(a.logs.join('\n')).toMatch(/portal internal error on GET \/t\.hal: TypeError: secret internals/);
  });

  it('answers a PortalError as errstr, and a JSON operation in JSON', async () => {
    const a = app(); // the fixture's data is not needed here, only its closing after the test
    a.mount('/t.hal', createPortalRoute([boom, jsonOp, refuse], state()));
    expect(errstrOf((await call(a, 'GET', '/t.hal?action=refuse')).text)).toBe('nope, because');
    const res = await call(a, 'GET', '/t.hal?action=jsonop');
    expect(String(res.headers['Content-Type'])).toMatch(/^application\/json/);
    expect(JSON.parse(res.text)).toEqual({
      success: false,
      res: false,
      messages: [{ description: 'missing required parameter "needed"' }],
    });
    const unauth = await call(a, 'GET', '/t.hal?action=jsonop', { auth: false });
    expect(unauth.status).toBe(401);
    expect(JSON.parse(unauth.text).success).toBe(false);
  });

  it('refuses two handlers of the same kind and name', () => {
    expect(() => createPortalRoute([boom, boom], state())).toThrow(/two handlers for action "boom"/);
  });
});
