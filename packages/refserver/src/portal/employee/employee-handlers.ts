import type { StoredRecord } from '../../store/record-table.js';
import { formatQuantity } from '../../values/decimal.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { attrs, elementXml, okXml } from '../xml.js';
import { absencesOf, contractsOf, employeeOf, overlapDays, plansOf, VACATION } from './employee-data.js';
import { timePlanHandlers } from './time-plan.js';

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

/** The employee-portal sub-actions (time-plan.ts has getemptimeplan and getemptimeplannewformat). */
export const employeeHandlers: readonly PortalHandler[] = [getemployeeinfo, getvacationbalance, ...timePlanHandlers];
