import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../app-types.js';
import { testApp } from '../../testing/test-client.js';
import { errstrOf, parsePortal, portal, resOf } from '../testing/portal-client.js';
import { rulesFor } from './approval-rules.js';

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
const sub = (register: string, extra: Record<string, string> = {}) => ({ action: 'action', register, ...extra });

describe('part B demo data', () => {
  it('configures approval rules, activity types, report access and the lat payroll in every company', async () => {
    const a = seeded(30);
    for (const company of [1, 2]) {
      expect(rulesFor(a.store, company, 'VIVc').map((r) => r.approvers)).toEqual(['ACCOUNTING']);
      expect(count(a, 'EPEmpVc', company)).toBe(3);
      expect(count(a, 'EPOffWorkVc', company)).toBe(3);
    }
    const types = parsePortal((await portal(a, sub('getactivitytypes'))).text).data.ActType;
    expect(types.map((t: Record<string, string>) => t.code)).toEqual(['APPROVAL', 'CALL', 'MEET', 'SIGN', 'TASK']);
    const report = (usercode: string, reportwindow: string, repname: string) =>
      portal(a, { action: 'report', usercode }, { method: 'POST', json: { reportwindow, repname } }).then((r) =>
        JSON.parse(r.text),
      );
    expect((await report('ADMIN', 'StockLevelsVClass', 'StockLevelsRn')).success).toBe(true);
    expect((await report('REP', 'SalesJournalVClass', 'SalesJournalRn')).success).toBe(true);
    expect((await report('REP', 'StockLevelsVClass', 'StockLevelsRn')).messages).toEqual([
      { description: 'Access denied' },
    ]);
    const balance = parsePortal(
      (await portal(a, sub('getvacationbalance', { empcode: 'L001', portalcc: 'lat' }))).text,
    ).data;
    expect(balance.VacationBalance.entitled).toBe('20');
  });

  it('lets a demo purchase invoice go through approval by the ACCOUNTING group', async () => {
    const a = seeded(30);
    const sent = await portal(a, sub('sendforapproval', { regname: 'VIVc', id: '10000001', usercode: 'ADMIN' }));
    expect(errstrOf(sent.text)).toBe('');
    const act = resOf(sent.text).newdata!;
    expect(a.store.get('ActVc', 1, [act])!.fields.MainPersons).toBe('ACC');
    expect(errstrOf((await portal(a, sub('approveactivity', { id: act, usercode: 'ACC' }))).text)).toBe('');
    const status = parsePortal((await portal(a, sub('checkapprovalstatus', { regname: 'VIVc', id: '10000001' }))).text);
    expect(status.data.DummyVc.approvalstatus).toBe('4');
  });

  it('gives the master configuration at size 0 and the same data for the same size', () => {
    const empty = seeded(0);
    expect(count(empty, 'EPEmpVc')).toBe(3);
    expect(count(empty, 'EPOffWorkVc')).toBe(0);
    expect(rulesFor(empty.store, 1, 'IVVc')).toHaveLength(2);
    const rows = (a: App) => a.store.db.prepare('SELECT * FROM "reg_EPOffWorkPlanVc" ORDER BY _company, SerNr').all();
    expect(rows(seeded(10))).toEqual(rows(seeded(10)));
  });
});
