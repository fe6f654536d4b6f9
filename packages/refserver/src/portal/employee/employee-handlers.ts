import { formatQuantity } from '../../business/decimal.js';
import type { StoredRecord } from '../../store/record-table.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { attrs, elementXml, okXml } from '../xml.js';
import { absencesOf, contractOn, contractsOf, employeeOf, overlapDays, plansOf, VACATION } from './employee-data.js';
import { publicHolidays } from './holidays.js';

/** A record as `<Register>` with its fields and `<rows><row rownumber>` (the REST shape, no attributes). */
function recordXml(ctx: PortalContext, register: string, rec: StoredRecord): string {
  const schema = ctx.app.store.schema(register)!;
  let out = `<${register}>`;
  for (const f of schema.fields) out += elementXml(f, rec.fields[f] ?? '');
  if (schema.rowFields.length > 0) {
    out += '<rows>';
    rec.rows.forEach((r, i) => {
      out += `<row${attrs({ rownumber: i })}>`;
      for (const f of schema.rowFields) out += elementXml(f, r[f] ?? '');
      out += '</row>';
    });
    out += '</rows>';
  }
  return `${out}</${register}>`;
}

/**
 * `getemployeeinfo&empcode` (required): the employee and their employment contracts (body not shown, rule 11):
 * `<res errstr=""/>`, `<EmplVc>` (or `<EPEmpVc>` with portalcc=lat), then one `<ContractVc>` (`<EPContractVc>`)
 * per contract, fields as elements, rows as `<rows><row>`.
 */
const getemployeeinfo: PortalHandler = {
  kind: 'sub-action',
  name: 'getemployeeinfo',
  required: ['empcode'],
  handle(ctx) {
    const emp = employeeOf(ctx, ctx.params.require('empcode'));
    const contracts = contractsOf(ctx, emp).map((c) => recordXml(ctx, c.register, c.rec));
    return { xml: okXml({}, recordXml(ctx, emp.register, emp.rec) + contracts.join('')) };
  },
};

const qty = (n: number) => formatQuantity(n, 2);

/**
 * `getvacationbalance&empcode[&portalcc][&year]` (year ours; default the current year): vacation days
 * (type VAC) of the year. `entitled` = VacDaysNorm of each contract, pro rata the days it covers in the year;
 * `used` = confirmed absences; `planned` = confirmed planned absences from today on; `balance` = entitled -
 * used; `available` = balance - planned. Body (not shown, rule 11): `<VacationBalance>` with those elements,
 * then `<absence regname id start end days planned="0|1"/>` per counted period.
 */
const getvacationbalance: PortalHandler = {
  kind: 'sub-action',
  name: 'getvacationbalance',
  required: ['empcode'],
  handle(ctx) {
    const emp = employeeOf(ctx, ctx.params.require('empcode'));
    const year = ctx.params.int('year', { min: 1900, max: 2999, dflt: Number(ctx.today.slice(0, 4)) });
    const [from, to] = [`${year}-01-01`, `${year}-12-31`];
    const daysInYear = overlapDays(from, to, from, to);
    const entitled = contractsOf(ctx, emp).reduce(
      (a, c) => a + (c.vacDaysNorm * overlapDays(c.start, c.end, from, to)) / daysInYear,
      0,
    );
    const vac = (list: ReturnType<typeof absencesOf>) => list.filter((x) => x.type === VACATION);
    const usedList = vac(absencesOf(ctx, emp)).map((a) => ({ a, days: a.daysIn(year), planned: 0 }));
    const planFrom = [ctx.today, from].sort()[1]!; // the later of two dates (strings: not Math.max)
    const planList = vac(plansOf(ctx, emp)).map((a) => ({ a, days: a.daysIn(year, planFrom), planned: 1 }));
    const used = usedList.reduce((s, x) => s + x.days, 0);
    const planned = planList.reduce((s, x) => s + x.days, 0);
    const balance =
      `<VacationBalance>${elementXml('empcode', emp.code)}${elementXml('year', String(year))}` +
      `${elementXml('entitled', qty(entitled))}${elementXml('used', qty(used))}${elementXml('planned', qty(planned))}` +
      `${elementXml('balance', qty(entitled - used))}${elementXml('available', qty(entitled - used - planned))}</VacationBalance>`;
    const periods = [...usedList, ...planList]
      .filter((x) => x.days > 0)
      .map(
        ({ a, days, planned: p }) =>
          `<absence${attrs({ regname: a.register, id: a.id, start: a.start, end: a.end, days: qty(days), planned: p })}/>`,
      )
      .join('');
    return { xml: okXml({}, balance + periods) };
  },
};

const DAY = 86_400_000;
/** At most this many days per getemptimeplan request. */
export const MAX_PLAN_DAYS = 366;

/**
 * `getemptimeplan&empcode&sd&ed` (all required, YYYY-MM-DD; at most 366 days): the work schedule, one `<day>`
 * per date: `date`, `weekday` (1 Monday .. 7 Sunday), `type` (nocontract, weekend, holiday, absence, planned,
 * work), `code` (absence type), `hours` (8 x the contract's work load on a working day, else 0). The first
 * matching type wins, in that order. `<TimePlan empcode sd ed hours workdays/>` sums it up.
 */
const getemptimeplan: PortalHandler = {
  kind: 'sub-action',
  name: 'getemptimeplan',
  required: ['empcode', 'sd', 'ed'],
  handle(ctx) {
    const emp = employeeOf(ctx, ctx.params.require('empcode'));
    const sd = ctx.params.date('sd')!;
    const ed = ctx.params.date('ed')!;
    if (ed < sd) throw new PortalError(`ed ${ed} is before sd ${sd}`);
    const span = Math.round((Date.parse(ed) - Date.parse(sd)) / DAY) + 1;
    if (span > MAX_PLAN_DAYS)
      throw new PortalError(`sd to ed spans ${span} days; at most ${MAX_PLAN_DAYS} per request`);
    const contracts = contractsOf(ctx, emp);
    const absences = absencesOf(ctx, emp);
    const plans = plansOf(ctx, emp);
    const holidays = new Set<string>();
    for (let y = Number(sd.slice(0, 4)); y <= Number(ed.slice(0, 4)); y++)
      for (const h of publicHolidays(emp.country, y)) holidays.add(h);
    const within = (d: string) => (x: { start: string; end: string }) => x.start <= d && d <= (x.end || x.start);
    let total = 0;
    let workdays = 0;
    let days = '';
    for (let t = Date.parse(`${sd}T00:00:00Z`); t <= Date.parse(`${ed}T00:00:00Z`); t += DAY) {
      const date = new Date(t).toISOString().slice(0, 10);
      const weekday = ((new Date(t).getUTCDay() + 6) % 7) + 1;
      const contract = contractOn(contracts, date);
      const absence = absences.find(within(date));
      const plan = plans.find(within(date));
      let type = 'work';
      let code = '';
      if (!contract) type = 'nocontract';
      else if (weekday >= 6) type = 'weekend';
      else if (holidays.has(date)) type = 'holiday';
      else if (absence) [type, code] = ['absence', absence.type];
      else if (plan) [type, code] = ['planned', plan.type];
      const hours = type === 'work' ? 8 * contract!.workLoad(date) : 0;
      total += hours;
      if (type === 'work') workdays++;
      days += `<day${attrs({ date, weekday, type, code, hours: qty(hours) })}/>`;
    }
    const head = `<TimePlan${attrs({ empcode: emp.code, sd, ed, hours: qty(total), workdays })}/>`;
    return { xml: okXml({}, head + days) };
  },
};

/** The employee-portal sub-actions. */
export const employeeHandlers: readonly PortalHandler[] = [getemployeeinfo, getvacationbalance, getemptimeplan];
