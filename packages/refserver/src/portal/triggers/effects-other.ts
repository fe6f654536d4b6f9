import { isCalendarDate } from '@erpcert/contract';
import { isDecimal } from '../../values/decimal.js';
import { closingFields } from '../workflow/activities.js';
import { costTime, endDateFor, isTime } from '../workflow/activity-times.js';
import { expandPersons } from '../workflow/persons.js';
import { activityTypes, textTemplate } from '../workflow/workflow-config.js';
import { business, changed, type Effect, find, rowOf, sums, type TriggerRun, warn } from './trigger-run.js';
import { type Checked, checkEstonianIdCode, checkIban, checkRegNr, checkVatNr } from './validators.js';

/**
 * Effects of contacts, activities, payments, items and the payroll registers of the field-trigger catalogue
 * (portal-action-api.md §2). Validation failures are warnings (§7).
 */

function validated(t: TriggerRun, check: (v: string) => Checked): void {
  const v = changed(t);
  if (v.trim() === '') return;
  const r = check(v);
  if (r.ok) t.d.fields[t.field] = r.value;
  else warn(t, r.warning);
}

const contact: Effect = (t) => {
  const code = changed(t);
  const cu = code === '' ? undefined : find(t, 'CUVc', code);
  if (code !== '' && !cu) return warn(t, `CUCode "${code}" is not a contact`);
  t.d.fields.CUName = cu?.Name ?? '';
};

const actType: Effect = (t) => {
  const code = changed(t);
  if (code !== '' && !activityTypes(t.ctx.app.store, t.wf.company).some((x) => x.code === code))
    warn(t, `ActType "${code}" is not an activity type (getactivitytypes)`);
};

/** TransDate/EndDate/StartTime/EndTime: EndDate not before TransDate, CostTime in hours. */
const actTimes: Effect = (t) => {
  const f = t.d.fields;
  for (const k of ['StartTime', 'EndTime'] as const)
    if ((f[k] ?? '') !== '' && !isTime(f[k]!)) warn(t, `${k} "${f[k]}" is not a time HH:MM`);
  for (const k of ['TransDate', 'EndDate'] as const)
    if ((f[k] ?? '') !== '' && !isCalendarDate(f[k]!)) warn(t, `${k} "${f[k]}" is not a date YYYY-MM-DD`);
  if (t.field === 'EndDate') {
    if (isCalendarDate(f.EndDate ?? '') && isCalendarDate(f.TransDate ?? '') && f.EndDate! < f.TransDate!)
      warn(t, `EndDate ${f.EndDate} is before TransDate ${f.TransDate}`);
  } else f.EndDate = endDateFor(f.TransDate ?? '', f.EndDate ?? '');
  const cost = costTime(f.TransDate ?? '', f.StartTime ?? '', f.EndDate ?? '', f.EndTime ?? '');
  if (cost !== undefined) f.CostTime = cost;
};

/** ActResult "closes the activity, sets EndTime and CostTime". An empty result closes nothing. */
const actResult: Effect = (t) => {
  const result = changed(t);
  if (result === '') return;
  Object.assign(t.d.fields, closingFields(t.wf, t.d.fields, result));
};

const persons: Effect = (t) => {
  const { codes, unknown } = expandPersons(t.ctx.app.store, t.wf.company, changed(t));
  for (const u of unknown) warn(t, `${t.field}: "${u}" is neither a user nor a user group`);
  t.d.fields[t.field] = [...codes, ...unknown].join(',');
};

const textTemplateRow: Effect = (t) => {
  const code = changed(t);
  if (code === '') return;
  const text = textTemplate(t.ctx.app.store, t.wf.company, code);
  if (text === undefined) return warn(t, `TextCode "${code}" is not a text template`);
  rowOf(t).Text = text;
};

/** OPVc VISerNr / IPVc InvoiceNr: loads the invoice (business row trigger), then CurPayVal. */
const paymentInvoice: Effect = (t) => {
  const nr = changed(t);
  const register = t.register === 'OPVc' ? 'VIVc' : 'IVVc';
  if (nr !== '' && !find(t, register, nr)) warn(t, `${t.field} "${nr}" is not a ${register} invoice`);
  else business(t);
  sums(t);
};

const netWeight: Effect = (t) => {
  const vol = t.d.fields.Volume ?? '';
  if (!isDecimal(vol) || Number(vol) === 0) return warn(t, 'Volume is 0 or empty: Density cannot be back-calculated');
  business(t);
};

const employee: Effect = (t) => {
  const code = changed(t);
  if (code !== '' && !find(t, 'EmplVc', code) && !find(t, 'EPEmpVc', code))
    warn(t, `EmpCodeRow "${code}" is not an employee (EmplVc or EPEmpVc)`);
};

const idCode: Effect = (t) => {
  const v = changed(t);
  if (v.trim() === '') return;
  const r = checkEstonianIdCode(v);
  if (r.ok) t.d.fields.BirthDate = r.value;
  else warn(t, r.warning);
};

/** AbsenceVc/PlanAbsenceVc ContrSerNr: the employee of the employment contract (ContractVc). */
const contract: Effect = (t) => {
  const nr = changed(t);
  if (nr === '') return;
  const c = find(t, 'ContractVc', nr);
  if (!c) return warn(t, `ContrSerNr "${nr}" is not an employment contract (ContractVc)`);
  t.d.fields.EmplCode = c.EmplCode ?? '';
};

const DAY = 86_400_000;
const utc = (d: string) => Date.parse(`${d}T00:00:00Z`);

/** Calendar days and working days (Monday to Friday) from start to end, both included. */
export function dayCounts(start: string, end: string): { calendar: number; work: number } {
  let work = 0;
  for (let t = utc(start); t <= utc(end); t += DAY) {
    const wd = new Date(t).getUTCDay();
    if (wd !== 0 && wd !== 6) work++;
  }
  return { calendar: Math.round((utc(end) - utc(start)) / DAY) + 1, work };
}

function period(t: TriggerRun, startField: string, endField: string): { calendar: number; work: number } | undefined {
  const s = t.d.fields[startField] ?? '';
  const e = t.d.fields[endField] ?? '';
  if (!isCalendarDate(s) || !isCalendarDate(e)) return undefined;
  if (e < s) {
    warn(t, `${endField} ${e} is before ${startField} ${s}`);
    return undefined;
  }
  return dayCounts(s, e);
}

const absenceDays: Effect = (t) => {
  const p = period(t, 'StartDate', 'EndDate');
  if (!p) return;
  t.d.fields.CalendarDays = String(p.calendar);
  t.d.fields.WorkDays = String(p.work);
};

const planDates: Effect = (t) => {
  period(t, 'StartDate1', 'EndDate1');
};

/** EPOffWorkVc/EPOffWorkPlanVc EmpCode: the employee's contract valid today (EPContractVc), latest start. */
const latContract: Effect = (t) => {
  const code = changed(t);
  if (code === '') return;
  if (!find(t, 'EPEmpVc', code)) warn(t, `EmpCode "${code}" is not an employee (EPEmpVc)`);
  const nr = t.ctx.app.store.db
    .prepare(
      `SELECT SerNr FROM "reg_EPContractVc" WHERE _company = ? AND EmpCode = ? AND StartDate <= ? AND (EndDate = '' OR EndDate >= ?) ORDER BY StartDate DESC, SerNr DESC LIMIT 1`,
    )
    .pluck()
    .get(t.wf.company, code, t.wf.today, t.wf.today) as number | undefined;
  if (nr === undefined) return warn(t, `employee "${code}" has no contract valid on ${t.wf.today} (EPContractVc)`);
  t.d.fields.ContractNr = String(nr);
};

const offWorkDays: Effect = (t) => {
  const p = period(t, 'StartDate', 'EndDate');
  if (p) t.d.fields.CalendarDays = String(p.calendar);
};

/** The effects of this file, by name. */
export const otherEffects = {
  iban: (t) => validated(t, checkIban),
  vatNr: (t) => validated(t, (v) => checkVatNr(v, t.d.fields.CountryCode ?? '')),
  regNr: (t) => validated(t, (v) => checkRegNr(v, t.d.fields.CountryCode ?? '')),
  contact,
  actType,
  actTimes,
  actResult,
  persons,
  textTemplate: textTemplateRow,
  paymentInvoice,
  paymentSum: sums,
  dimensions: business,
  density: business,
  netWeight,
  employee,
  idCode,
  contract,
  absenceDays,
  planDates,
  latContract,
  offWorkDays,
} satisfies Record<string, Effect>;
