import { validateXml } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import { call } from '../../testing/test-client.js';
import { errstrOf, portal } from '../testing/portal-client.js';
import { PF, portalTestApps } from '../testing/portal-fixture.js';

const app = portalTestApps();

const cookieOf = (h: unknown) => String(h).split(';')[0]!;

describe('action=delete', () => {
  it('deletes a draft: gone from /api/1/, listed by deletes_after, the sequence moved', async () => {
    const a = app();
    const before = a.store.sequence;
    const res = await portal(a, { action: 'delete', register: 'IVVc', id: PF.draftInvoice });
    expect(errstrOf(res.text)).toBe('');
    expect((await validateXml(res.text, 'portal-result')).valid).toBe(true);
    expect((await call(a, 'GET', `/api/1/IVVc/${PF.draftInvoice}`)).status).toBe(404);
    expect(a.store.sequence).toBe(before + 1);
    const deletes = await call(a, 'GET', `/api/1/IVVc?deletes_after=${before}`);
    expect(deletes.status).toBe(200);
    expect(deletes.text).toContain(`<SerNr>${PF.draftInvoice}</SerNr>`);
  });

  it.each([
    ['a confirmed record', 'IVVc', PF.confirmedInvoice, 'Record is locked'],
    ['a missing record', 'IVVc', '99999999', 'IVVc 99999999 does not exist in company 1'],
    ['a contact that an invoice names', 'CUVc', 'C1', /contact C1 is used by IVVc 10000101/],
  ])('refuses %s and changes nothing', async (_n, register, id, text) => {
    const a = app();
    const before = a.store.sequence;
    const res = await portal(a, { action: 'delete', register, id });
    expect(errstrOf(res.text)).toMatch(text);
    expect(a.store.sequence).toBe(before);
  });

  it('deletes an unused contact', async () => {
    const a = app();
    expect(errstrOf((await portal(a, { action: 'delete', register: 'CUVc', id: 'C3' })).text)).toBe('');
    expect(a.store.get('CUVc', 1, ['C3'])).toBeUndefined();
  });

  it('refuses a record open in another session (edit lock), and lets the lock holder delete it', async () => {
    const a = app();
    const lock = await call(a, 'POST', `/erpcert/lock?register=IVVc&id=${PF.draftInvoice}`);
    expect(lock.status).toBe(200);
    const holder = cookieOf(lock.headers['Set-Cookie']);
    const other = await call(a, 'POST', `/erpcert/lock?register=IVVc&id=${PF.draftInvoice}`);
    expect(other.status).toBe(409);
    const refused = await portal(a, { action: 'delete', register: 'IVVc', id: PF.draftInvoice });
    expect(errstrOf(refused.text)).toBe('Record is locked');
    expect(a.store.get('IVVc', 1, [PF.draftInvoice])).toBeDefined();
    const mine = await portal(
      a,
      { action: 'delete', register: 'IVVc', id: PF.draftInvoice },
      { auth: false, headers: { cookie: holder } },
    );
    expect(errstrOf(mine.text)).toBe('');
    expect(a.store.get('IVVc', 1, [PF.draftInvoice])).toBeUndefined();
  });

  it('lets everyone delete once the lock is released', async () => {
    const a = app();
    const lock = await call(a, 'POST', `/erpcert/lock?register=ORVc&id=${PF.draftOrder}`);
    const holder = cookieOf(lock.headers['Set-Cookie']);
    const release = await call(a, 'DELETE', `/erpcert/lock?register=ORVc&id=${PF.draftOrder}`, {
      auth: false,
      headers: { cookie: holder },
    });
    expect(JSON.parse(release.text).released).toBe(true);
    expect(errstrOf((await portal(a, { action: 'delete', register: 'ORVc', id: PF.draftOrder })).text)).toBe('');
  });

  it('deletes in the company of compno only', async () => {
    const a = app();
    const res = await portal(a, { action: 'delete', register: 'IVVc', id: PF.draftInvoice, compno: '2' });
    expect(errstrOf(res.text)).toBe(`IVVc ${PF.draftInvoice} does not exist in company 2`);
  });
});
