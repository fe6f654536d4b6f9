import { isCalendarDate } from '@erpcert/contract';
import type { StoredRecord } from '../../store/record-table.js';
import { parseDecimal } from '../../values/decimal.js';
import type { PortalContext } from '../handler.js';
import { PortalError } from '../handler.js';

/**
 * An employee's data in the payroll registers of a country (README "Employee portal"): `est` (also without
 * portalcc) reads EmplVc, ContractVc, AbsenceVc, PlanAbsenceVc (the record REST registers); `lat` reads
 * EPEmpVc, EPContractVc, EPOffWorkVc, EPOffWorkPlanVc. Only confirmed absences and plans (OKFlag 1) count.
 */
export type Country = 'est' | 'lat';

/** The absence type that is vacation (AbsenceVc AbsTypeCode, EPOffWorkVc Group), as in the demo data. */
export const VACATION = 'VAC';

export interface Employee {
  readonly country: Country;
  readonly register: 'EmplVc' | 'EPEmpVc';
  readonly code: string;
  readonly rec: StoredRecord;
}

export interface Contract {
  readonly register: 'ContractVc' | 'EPContractVc';
  readonly rec: StoredRecord;
  readonly start: string;
  /** Empty: open-ended. */
  readonly end: string;
  readonly vacDaysNorm: number;
  /** The work load on a day (1 = full time): ContractVc rows per period, EPContractVc WorkLoad; 1 when blank. */
  workLoad(date: string): number;
}

/** An absence or planned absence: its register and id, type, first and last day. */
export interface Absence {
  readonly register: string;
  readonly id: string;
  readonly type: string;
  readonly start: string;
  readonly end: string;
  /** Days in a year: AbsenceVc rows of that Year when it has rows, else calendar days of the period. */
  daysIn(year: number, from?: string): number;
}

const DAY = 86_400_000;
const utc = (d: string) => Date.parse(`${d}T00:00:00Z`);

/** Calendar days of [start, end] within [from, to], both included (0 when apart or a date is missing). */
export function overlapDays(start: string, end: string, from: string, to: string): number {
  if (!isCalendarDate(start)) return 0;
  const s = start > from ? start : from;
  const e = end !== '' && end < to ? end : to;
  return e < s ? 0 : Math.round((utc(e) - utc(s)) / DAY) + 1;
}

/** The country of the request: portalcc lat, else est. */
export const countryOf = (ctx: PortalContext): Country => (ctx.portalcc === 'lat' ? 'lat' : 'est');

/** The employee `empcode` of the request's country, or a failure naming the register. */
export function employeeOf(ctx: PortalContext, empcode: string): Employee {
  const country = countryOf(ctx);
  const register = country === 'lat' ? 'EPEmpVc' : 'EmplVc';
  const rec = ctx.app.store.get(register, ctx.company, [empcode]);
  if (!rec) throw new PortalError(`empcode "${empcode}" is not an employee of company ${ctx.company} (${register})`);
  return { country, register, code: rec.fields.Code ?? empcode, rec };
}

function records(
  ctx: PortalContext,
  register: string,
  field: string,
  value: string,
  confirmed: boolean,
): StoredRecord[] {
  const serNrs = ctx.app.store.db
    .prepare(
      `SELECT SerNr FROM "reg_${register}" WHERE _company = ? AND "${field}" = ?${confirmed ? " AND OKFlag = '1'" : ''} ORDER BY SerNr`,
    )
    .pluck()
    .all(ctx.company, value) as number[];
  return serNrs.map((s) => ctx.app.store.get(register, ctx.company, [String(s)])!);
}

const load = (v: string | undefined) => {
  const n = parseDecimal(v);
  return Number.isFinite(n) && v !== '' && v !== undefined ? n : 1;
};

/** The employee's contracts. */
export function contractsOf(ctx: PortalContext, emp: Employee): Contract[] {
  if (emp.country === 'lat')
    return records(ctx, 'EPContractVc', 'EmpCode', emp.code, false).map((rec) => ({
      register: 'EPContractVc',
      rec,
      start: rec.fields.StartDate ?? '',
      end: rec.fields.EndDate ?? '',
      vacDaysNorm: parseDecimal(rec.fields.VacDaysNorm) || 0,
      workLoad: () => load(rec.fields.WorkLoad),
    }));
  return records(ctx, 'ContractVc', 'EmplCode', emp.code, false).map((rec) => ({
    register: 'ContractVc',
    rec,
    start: rec.fields.StartDate ?? '',
    end: rec.fields.EndDate ?? '',
    vacDaysNorm: parseDecimal(rec.fields.VacDaysNorm) || 0,
    workLoad: (date) => {
      const row = rec.rows.find((r) => (r.SDate ?? '') <= date && ((r.EDate ?? '') === '' || date <= r.EDate!));
      return load(row?.WorkLoad);
    },
  }));
}

/** The contract valid on a day, or undefined. */
export function contractOn(contracts: readonly Contract[], date: string): Contract | undefined {
  return contracts.find((c) => c.start !== '' && c.start <= date && (c.end === '' || date <= c.end));
}

const period = (
  register: string,
  rec: StoredRecord,
  type: string,
  start: string,
  end: string,
  rows = false,
): Absence => ({
  register,
  id: rec.fields.SerNr ?? '',
  type,
  start,
  end,
  daysIn(year, from = `${year}-01-01`) {
    const yearRows = rows ? rec.rows.filter((r) => r.Year === String(year)) : [];
    if (yearRows.length > 0 && from <= `${year}-01-01`)
      return yearRows.reduce((a, r) => a + (parseDecimal(r.Days) || 0), 0);
    return overlapDays(start, end, from, `${year}-12-31`);
  },
});

/** The employee's confirmed absences. */
export function absencesOf(ctx: PortalContext, emp: Employee): Absence[] {
  if (emp.country === 'lat')
    return records(ctx, 'EPOffWorkVc', 'EmpCode', emp.code, true).map((r) =>
      period('EPOffWorkVc', r, r.fields.Group ?? '', r.fields.StartDate ?? '', r.fields.EndDate ?? ''),
    );
  return records(ctx, 'AbsenceVc', 'EmplCode', emp.code, true).map((r) =>
    period('AbsenceVc', r, r.fields.AbsTypeCode ?? '', r.fields.StartDate ?? '', r.fields.EndDate ?? '', true),
  );
}

/** The employee's confirmed planned absences. */
export function plansOf(ctx: PortalContext, emp: Employee): Absence[] {
  if (emp.country === 'lat')
    return records(ctx, 'EPOffWorkPlanVc', 'EmpCode', emp.code, true).map((r) =>
      period('EPOffWorkPlanVc', r, r.fields.Group ?? '', r.fields.StartDate ?? '', r.fields.EndDate ?? ''),
    );
  return records(ctx, 'PlanAbsenceVc', 'EmplCode', emp.code, true).map((r) =>
    period('PlanAbsenceVc', r, r.fields.AbsTypeCode ?? '', r.fields.StartDate1 ?? '', r.fields.EndDate1 ?? ''),
  );
}
