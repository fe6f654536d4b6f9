import { closeXmlValidator, validateXml } from '@erpcert/contract';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../app-types.js';
import { errstrOf, parsePortal, portal } from '../testing/portal-client.js';
import { EMP } from '../workflow/testing/fixture-extras.js';
import {
  closeSharedWorkflowApp,
  closeWorkflowApps,
  readOnlyWorkflowApp,
  workflowApp,
} from '../workflow/testing/workflow-fixture.js';
import { easterSunday, publicHolidays } from './holidays.js';
import { isoWeek } from './time-plan.js';

afterEach(closeWorkflowApps);
afterAll(closeSharedWorkflowApp);
afterAll(() => closeXmlValidator());

async function get(a: App, register: string, extra: Record<string, string>) {
  const res = await portal(a, { action: 'action', register, ...extra });
  const v = await validateXml(res.text, 'open');
  expect(v.errors).toEqual([]);
  return { errstr: errstrOf(res.text), data: parsePortal(res.text).data };
}
const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

describe('getemployeeinfo', () => {
  it('est (default): EmplVc and its contracts', async () => {
    const r = await get(readOnlyWorkflowApp(), 'getemployeeinfo', { empcode: EMP.est });
    expect(r.errstr).toBe('');
    expect(r.data.EmplVc).toMatchObject({
      Code: 'E1',
      Firstname: 'Mari',
      Surname: 'Maasikas',
      IDCode: '37605030299',
      UserCode: 'JD',
    });
    expect(r.data.ContractVc).toMatchObject({ SerNr: EMP.estContract, VacDaysNorm: '28' });
    expect(r.data.ContractVc.rows.row).toMatchObject({ rownumber: '0', PosCode: 'DEV', WorkLoad: '1' });
  });

  it('lat: EPEmpVc and EPContractVc', async () => {
    const r = await get(readOnlyWorkflowApp(), 'getemployeeinfo', { empcode: EMP.lat, portalcc: 'lat' });
    expect(r.data.EPEmpVc).toMatchObject({ Code: 'L001', Firstname: 'Janis' });
    expect(r.data.EPContractVc).toMatchObject({ SerNr: '10000801', VacDaysNorm: '20' });
  });

  it.each([
    [{}, 'missing required parameter "empcode"'],
    [{ empcode: 'E9' }, 'empcode "E9" is not an employee of company 1 (EmplVc)'],
    [{ empcode: EMP.est, portalcc: 'lat' }, 'empcode "E1" is not an employee of company 1 (EPEmpVc)'],
    [{ empcode: EMP.est, portalcc: 'fin' }, 'parameter "portalcc" must be one of est, lat, got "fin"'],
  ])('refuses %j', async (extra, message) => {
    expect((await get(readOnlyWorkflowApp(), 'getemployeeinfo', extra)).errstr).toBe(message);
  });
});

describe('getvacationbalance', () => {
  const balance = async (a: App, extra: Record<string, string>) => {
    const r = await get(a, 'getvacationbalance', extra);
    expect(r.errstr).toBe('');
    return { ...r.data.VacationBalance, periods: list(r.data.absence) };
  };

  it('est: contract norm, used vacation (rows of the year), plans from today on', async () => {
    const b = await balance(readOnlyWorkflowApp(), { empcode: EMP.est });
    // 28 days; used 5 (10000911) + 3 (the 2025 row of 10000913); SICK and the unconfirmed 10000914 do not count;
    // planned 2025-06-02..13 = 12
    expect(b).toMatchObject({
      empcode: 'E1',
      year: '2025',
      entitled: '28',
      used: '8',
      planned: '12',
      balance: '20',
      available: '8',
    });
    expect(b.periods.map((p: Record<string, string>) => [p.regname, p.id, p.days, p.planned])).toEqual([
      ['AbsenceVc', '10000911', '5', '0'],
      ['AbsenceVc', '10000913', '3', '0'],
      ['PlanAbsenceVc', '10000921', '12', '1'],
    ]);
  });

  it('est, another year: the rows of that year; past plans are not planned', async () => {
    const b = await balance(readOnlyWorkflowApp(), { empcode: EMP.est, year: '2024' });
    expect(b).toMatchObject({ entitled: '28', used: '2', planned: '0', balance: '26', available: '26' });
  });

  it('a contract starting mid-year gives a pro-rata norm', async () => {
    const a = workflowApp();
    a.store.insert('EmplVc', 1, { fields: { Code: 'E2', Firstname: 'Uus' }, rows: [] });
    a.store.insert('ContractVc', 1, {
      fields: { SerNr: '10000902', EmplCode: 'E2', StartDate: '2025-07-01', VacDaysNorm: '28' },
      rows: [],
    });
    // 2025-07-01..12-31 is 184 of 365 days: 28 x 184 / 365 = 14.115...
    expect((await balance(a, { empcode: 'E2' })).entitled).toBe('14.12');
  });

  it('lat: EPContractVc, EPOffWorkVc and EPOffWorkPlanVc', async () => {
    expect(await balance(readOnlyWorkflowApp(), { empcode: EMP.lat, portalcc: 'lat' })).toMatchObject({
      entitled: '20',
      used: '5',
      planned: '5',
      balance: '15',
      available: '10',
    });
  });

  it('refuses a bad year', async () => {
    expect((await get(readOnlyWorkflowApp(), 'getvacationbalance', { empcode: EMP.est, year: '25' })).errstr).toBe(
      'parameter "year" must be a whole number from 1900 to 2999, got 25',
    );
  });
});

describe('getemptimeplan', () => {
  const plan = async (a: App, extra: Record<string, string>) => {
    const r = await get(a, 'getemptimeplan', extra);
    expect(r.errstr).toBe('');
    return {
      head: r.data.TimePlan,
      days: list(r.data.day).map(
        (d: Record<string, string>) => `${d.date} ${d.type}${d.code ? `:${d.code}` : ''} ${d.hours}`,
      ),
    };
  };

  it('weekends, a sick leave and working days of the contract', async () => {
    const p = await plan(readOnlyWorkflowApp(), { empcode: EMP.est, sd: '2025-03-01', ed: '2025-03-10' });
    expect(p.days).toEqual([
      '2025-03-01 weekend 0',
      '2025-03-02 weekend 0',
      '2025-03-03 absence:SICK 0',
      '2025-03-04 absence:SICK 0',
      '2025-03-05 work 8',
      '2025-03-06 work 8',
      '2025-03-07 work 8',
      '2025-03-08 weekend 0',
      '2025-03-09 weekend 0',
      '2025-03-10 work 8',
    ]);
    expect(p.head).toEqual({ empcode: 'E1', sd: '2025-03-01', ed: '2025-03-10', hours: '32', workdays: '4' });
  });

  it('public holidays, planned vacation, days before the contract, unconfirmed absences', async () => {
    const a = readOnlyWorkflowApp();
    expect((await plan(a, { empcode: EMP.est, sd: '2025-02-24', ed: '2025-02-24' })).days).toEqual([
      '2025-02-24 holiday 0',
    ]);
    expect((await plan(a, { empcode: EMP.est, sd: '2025-06-02', ed: '2025-06-02' })).days).toEqual([
      '2025-06-02 planned:VAC 0',
    ]);
    expect((await plan(a, { empcode: EMP.est, sd: '2023-12-31', ed: '2024-01-02' })).days).toEqual([
      '2023-12-31 nocontract 0',
      '2024-01-01 holiday 0',
      '2024-01-02 work 8',
    ]);
    expect((await plan(a, { empcode: EMP.est, sd: '2025-04-01', ed: '2025-04-01' })).days).toEqual([
      '2025-04-01 work 8',
    ]);
  });

  it('the country decides the holidays: Easter Monday is one in lat, not in est', async () => {
    const a = readOnlyWorkflowApp();
    expect((await plan(a, { empcode: EMP.est, sd: '2025-04-18', ed: '2025-04-21' })).days).toEqual([
      '2025-04-18 holiday 0',
      '2025-04-19 weekend 0',
      '2025-04-20 weekend 0',
      '2025-04-21 work 8',
    ]);
    expect((await plan(a, { empcode: EMP.lat, sd: '2025-04-21', ed: '2025-04-21', portalcc: 'lat' })).days).toEqual([
      '2025-04-21 holiday 0',
    ]);
  });

  it.each([
    [{ empcode: EMP.est, ed: '2025-03-01' }, 'missing required parameter "sd"'],
    [
      { empcode: EMP.est, sd: '2025-03-01', ed: '2025-3-2' },
      'parameter "ed" must be a date YYYY-MM-DD, got "2025-3-2"',
    ],
    [{ empcode: EMP.est, sd: '2025-03-05', ed: '2025-03-01' }, 'ed 2025-03-01 is before sd 2025-03-05'],
    [{ empcode: EMP.est, sd: '2024-01-01', ed: '2025-01-01' }, 'sd to ed spans 367 days; at most 366 per request'],
    [{ empcode: 'E9', sd: '2025-03-01', ed: '2025-03-01' }, 'empcode "E9" is not an employee of company 1 (EmplVc)'],
  ])('refuses %j', async (extra, message) => {
    expect((await get(readOnlyWorkflowApp(), 'getemptimeplan', extra)).errstr).toBe(message);
  });
});

describe('getemptimeplannewformat (rule 13: parameters not shown; ours as getemptimeplan)', () => {
  it('groups the same days by ISO week', async () => {
    const r = await get(readOnlyWorkflowApp(), 'getemptimeplannewformat', {
      empcode: EMP.est,
      sd: '2025-03-01',
      ed: '2025-03-10',
    });
    expect(r.data.TimePlan).toEqual({ empcode: 'E1', sd: '2025-03-01', ed: '2025-03-10', hours: '32', workdays: '4' });
    expect(
      list(r.data.week).map((w: Record<string, unknown>) => [
        w.week,
        w.from,
        w.to,
        w.hours,
        list(w.day as unknown[]).length,
      ]),
    ).toEqual([
      ['9', '2025-03-01', '2025-03-02', '0', 2],
      ['10', '2025-03-03', '2025-03-09', '24', 7],
      ['11', '2025-03-10', '2025-03-10', '8', 1],
    ]);
  });

  it('needs the parameters of getemptimeplan', async () => {
    expect((await get(readOnlyWorkflowApp(), 'getemptimeplannewformat', { empcode: EMP.est })).errstr).toBe(
      'missing required parameter "sd"',
    );
  });

  it.each([
    ['2025-03-01', 2025, 9],
    ['2024-12-30', 2025, 1],
    ['2021-01-03', 2020, 53],
  ])('ISO week of %s is %i-%i', (date, year, week) => {
    expect(isoWeek(date)).toEqual({ year, week });
  });
});

describe('holidays', () => {
  it.each([
    [2024, '2024-03-31'],
    [2025, '2025-04-20'],
    [2026, '2026-04-05'],
  ])('Easter Sunday %i is %s', (year, date) => {
    expect(easterSunday(year)).toBe(date);
  });

  it('Estonian holidays of 2025', () => {
    expect(publicHolidays('est', 2025)).toEqual([
      '2025-01-01',
      '2025-02-24',
      '2025-04-18',
      '2025-04-20',
      '2025-05-01',
      '2025-06-08',
      '2025-06-23',
      '2025-06-24',
      '2025-08-20',
      '2025-12-24',
      '2025-12-25',
      '2025-12-26',
    ]);
  });
});
