import { formatQuantity } from '../../values/decimal.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { attrs, okXml } from '../xml.js';
import { absencesOf, contractOn, contractsOf, employeeOf, plansOf } from './employee-data.js';
import { publicHolidays } from './holidays.js';

/** One day of an employee's work schedule. */
export interface PlanDay {
  readonly date: string;
  /** 1 Monday .. 7 Sunday. */
  readonly weekday: number;
  readonly type: 'nocontract' | 'weekend' | 'holiday' | 'absence' | 'planned' | 'work';
  /** The absence type of an absence or planned day. */
  readonly code: string;
  readonly hours: number;
}

const DAY = 86_400_000;
/** At most this many days per request. */
export const MAX_PLAN_DAYS = 366;
const qty = (n: number) => formatQuantity(n, 2);

/**
 * The schedule of `empcode` from `sd` to `ed` (all required, YYYY-MM-DD, at most 366 days): per day the first
 * matching type of nocontract, weekend, holiday (public holidays of est or lat), absence, planned, work; a
 * working day has 8 hours x the contract's work load.
 */
export function timePlan(ctx: PortalContext): { empcode: string; sd: string; ed: string; days: PlanDay[] } {
  const emp = employeeOf(ctx, ctx.params.require('empcode'));
  const sd = ctx.params.date('sd') ?? ctx.params.require('sd');
  const ed = ctx.params.date('ed') ?? ctx.params.require('ed');
  if (ed < sd) throw new PortalError(`ed ${ed} is before sd ${sd}`);
  const span = Math.round((Date.parse(ed) - Date.parse(sd)) / DAY) + 1;
  if (span > MAX_PLAN_DAYS) throw new PortalError(`sd to ed spans ${span} days; at most ${MAX_PLAN_DAYS} per request`);
  const contracts = contractsOf(ctx, emp);
  const absences = absencesOf(ctx, emp);
  const plans = plansOf(ctx, emp);
  const holidays = new Set<string>();
  for (let y = Number(sd.slice(0, 4)); y <= Number(ed.slice(0, 4)); y++)
    for (const h of publicHolidays(emp.country, y)) holidays.add(h);
  const within = (d: string) => (x: { start: string; end: string }) => x.start <= d && d <= (x.end || x.start);
  const days: PlanDay[] = [];
  for (let t = Date.parse(`${sd}T00:00:00Z`); t <= Date.parse(`${ed}T00:00:00Z`); t += DAY) {
    const date = new Date(t).toISOString().slice(0, 10);
    const weekday = ((new Date(t).getUTCDay() + 6) % 7) + 1;
    const contract = contractOn(contracts, date);
    const absence = absences.find(within(date));
    const plan = plans.find(within(date));
    let type: PlanDay['type'] = 'work';
    let code = '';
    if (!contract) type = 'nocontract';
    else if (weekday >= 6) type = 'weekend';
    else if (holidays.has(date)) type = 'holiday';
    else if (absence) [type, code] = ['absence', absence.type];
    else if (plan) [type, code] = ['planned', plan.type];
    days.push({ date, weekday, type, code, hours: type === 'work' ? 8 * contract!.workLoad(date) : 0 });
  }
  return { empcode: emp.code, sd, ed, days };
}

const sum = (days: readonly PlanDay[]) => ({
  hours: qty(days.reduce((a, d) => a + d.hours, 0)),
  workdays: days.filter((d) => d.type === 'work').length,
});
const dayXml = (d: PlanDay) =>
  `<day${attrs({ date: d.date, weekday: d.weekday, type: d.type, code: d.code, hours: qty(d.hours) })}/>`;

/** The ISO 8601 week (year, number) of a date. */
export function isoWeek(date: string): { year: number; week: number } {
  const t = new Date(`${date}T00:00:00Z`);
  const thursday = new Date(t.getTime() + (4 - (((t.getUTCDay() + 6) % 7) + 1)) * DAY);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY / 7) + 1;
  return { year, week };
}

/**
 * `getemptimeplan&empcode&sd&ed`: `<TimePlan empcode sd ed hours workdays/>` and one
 * `<day date weekday type code hours/>` per date (body not shown, rule 11; README "Employee portal").
 */
const getemptimeplan: PortalHandler = {
  kind: 'sub-action',
  name: 'getemptimeplan',
  required: ['empcode', 'sd', 'ed'],
  handle(ctx) {
    const p = timePlan(ctx);
    const head = `<TimePlan${attrs({ empcode: p.empcode, sd: p.sd, ed: p.ed, ...sum(p.days) })}/>`;
    return { xml: okXml({}, head + p.days.map(dayXml).join('')) };
  },
};

/**
 * `getemptimeplannewformat` (named by rule 13 only; its parameters and body are not shown): ours takes the
 * parameters of getemptimeplan and groups the same days by ISO week:
 * `<TimePlan .../><week year week from to hours workdays><day .../>...</week>...`.
 */
const getemptimeplannewformat: PortalHandler = {
  kind: 'sub-action',
  name: 'getemptimeplannewformat',
  required: ['empcode', 'sd', 'ed'],
  handle(ctx) {
    const p = timePlan(ctx);
    const weeks: PlanDay[][] = [];
    for (const d of p.days) {
      const last = weeks.at(-1);
      if (last && d.weekday !== 1) last.push(d);
      else weeks.push([d]);
    }
    const body = weeks
      .map((w) => {
        const { year, week } = isoWeek(w[0]!.date);
        return `<week${attrs({ year, week, from: w[0]!.date, to: w.at(-1)!.date, ...sum(w) })}>${w.map(dayXml).join('')}</week>`;
      })
      .join('');
    return { xml: okXml({}, `<TimePlan${attrs({ empcode: p.empcode, sd: p.sd, ed: p.ed, ...sum(p.days) })}/>${body}`) };
  },
};

/** The time-plan sub-actions. */
export const timePlanHandlers: readonly PortalHandler[] = [getemptimeplan, getemptimeplannewformat];
