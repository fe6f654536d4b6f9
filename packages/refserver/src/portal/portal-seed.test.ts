import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../app-types.js';
import { testApp } from '../testing/test-client.js';
import { userHasRight } from './access.js';
import { errstrOf, parsePortal, portal, resOf } from './testing/portal-client.js';

const apps: App[] = [];
afterEach(() => {
  for (const a of apps.splice(0)) a.close();
});
function seeded(size: number) {
  const a = testApp({ seed: size });
  apps.push(a);
  return a;
}
const count = (a: App, register: string, company = 1) =>
  Number(a.store.db.prepare(`SELECT COUNT(*) FROM "reg_${register}" WHERE _company = ?`).pluck().get(company));

describe('portal demo data', () => {
  it('adds users with their rights, and records scaled by the size', () => {
    const a = seeded(100);
    expect(userHasRight(a.store, 1, 'REP', 'Aruanne')).toBe(true);
    expect(userHasRight(a.store, 1, 'JD', 'Aruanne')).toBe(false);
    expect(userHasRight(a.store, 1, 'ACC', 'unok')).toBe(true);
    expect(userHasRight(a.store, 2, 'ADMIN', 'unok')).toBe(true);
    expect(count(a, 'ActVc')).toBe(10);
    expect(count(a, 'ActVc', 2)).toBe(6);
    expect(count(a, 'EPOrderDocVc')).toBe(2);
    expect(count(a, 'PlanAbsenceVc')).toBe(1);
    const empty = seeded(0);
    expect(count(empty, 'ActVc')).toBe(0);
    expect(userHasRight(empty.store, 1, 'REP', 'portal')).toBe(true);
  });

  it('is the same for the same size', () => {
    const rows = (a: App) => a.store.db.prepare('SELECT * FROM "reg_ActVc" ORDER BY _company, SerNr').all();
    expect(rows(seeded(30))).toEqual(rows(seeded(30)));
  });

  it('lets the demo send an invoice in company 1 but not in company 2 (no mail settings there)', async () => {
    const a = seeded(30);
    const ok = await portal(a, { action: 'action', register: 'sendemail', regname: 'IVVc', id: '10000001' });
    expect(errstrOf(ok.text)).toBe('');
    const two = await portal(a, {
      action: 'action',
      register: 'sendemail',
      regname: 'IVVc',
      id: '10000001',
      compno: '2',
    });
    expect(errstrOf(two.text)).toMatch(/no mail settings \(mail.from, mail.server\) in company 2/);
    const list = await portal(a, { action: 'action', register: 'getattachlist', regname: 'IVVc', id: '10000001' });
    expect(parsePortal(list.text).data.attachment.filename).toBe('delivery-note.txt');
    expect(resOf((await portal(a, { action: 'action', register: 'hasusernewapi', usercode: 'REP' })).text).hasapi).toBe(
      '1',
    );
  });
});
