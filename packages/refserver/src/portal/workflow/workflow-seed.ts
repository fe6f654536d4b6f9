import type { App } from '../../app-types.js';
import { Prng } from '../../seed/prng.js';
import { DEMO_COMPANIES } from '../../seed/seed-store.js';
import { SeedWriter, seedDate } from '../../seed/seed-writer.js';
import { grantRight, reportRight } from '../access.js';
import { REPORTS } from '../reports/report-catalogue.js';
import { setSetting } from '../settings.js';
import { drawerSetting } from '../triggers/effects-sales.js';
import { addApprovalRule } from './approval-rules.js';
import { DEMO_MACHINE, seedTriggerExamples } from './trigger-examples-seed.js';
import { configureWorkflow } from './workflow-config.js';
import { ensureWorkflowTables } from './workflow-tables.js';

/** The demo approval rules of every company (README "Approval workflow"): register, step, from amount, approvers. */
export const DEMO_APPROVAL_RULES: readonly (readonly [string, number, string, string])[] = [
  ['IVVc', 1, '1000.00', 'SALES'],
  ['IVVc', 2, '10000.00', '@ADMIN'],
  ['ORVc', 1, '5000.00', 'SALES'],
  ['VIVc', 1, '', 'ACCOUNTING'],
  ['OPVc', 1, '5000.00', '@ADMIN'],
  ['EPOrderDocVc', 1, '', '@ADMIN'],
];

/** Report-level access of the demo groups: ADMIN every report, REPORTS all but the stock report. */
export const DEMO_REPORT_ACCESS: Readonly<Record<string, readonly string[]>> = {
  ADMIN: REPORTS.map((r) => r.repname),
  REPORTS: ['SalesJournalRn', 'OpenReceivablesRn'],
};

const LAT_EMPLOYEES = [
  ['L001', 'Janis', 'Berzins'],
  ['L002', 'Liga', 'Ozola'],
  ['L003', 'Peteris', 'Kalnins'],
] as const;

/**
 * Part B's demo data (AppModule.seed, after part A's, inside the seeding transaction), in every demo company:
 * the workflow configuration (activity types, text templates, recipe KIT1, BI links), approval rules,
 * report-level access, the drawer of machine POS1 (and, with size > 0, demo records that use the machine, the
 * recipe and a text template: trigger-examples-seed.ts), and the `lat` payroll master data (EPEmpVc L001..L003 with
 * an EPContractVc each); with size > 0 also one absence, one planned absence and one timesheet (EPTS2Vc) per
 * lat employee. Deterministic for a size.
 */
export function seedWorkflowDemo(app: App, size: number): void {
  const store = app.store;
  ensureWorkflowTables(store.db);
  for (const c of DEMO_COMPANIES) {
    configureWorkflow(store, c.code);
    for (const [register, step, minAmount, approvers] of DEMO_APPROVAL_RULES)
      addApprovalRule(store, c.code, { register, step, minAmount, approvers });
    for (const [group, reports] of Object.entries(DEMO_REPORT_ACCESS))
      for (const rep of reports) grantRight(store, c.code, group, reportRight(rep));
    setSetting(store, c.code, drawerSetting(DEMO_MACHINE.name), DEMO_MACHINE.drawer);
    if (size > 0) seedTriggerExamples(store, c.code);
    const w = new SeedWriter(store, c.code, new Prng(0x3b7f + c.code));
    LAT_EMPLOYEES.forEach(([code, first, last], i) => {
      w.add('EPEmpVc', {
        Code: code,
        Firstname: first,
        Surname: last,
        IDCode: `0${i + 1}0190-1234${i}`,
        Mail: `${code.toLowerCase()}@demo.example`,
        TaxGroup: 'A',
      });
      w.add('EPContractVc', {
        SerNr: String(10000001 + i),
        EmpCode: code,
        StartDate: '2024-01-01',
        VacDaysNorm: '20',
        Position: 'DEV',
        WorkLoad: '1',
        Status: '1',
        OKFlag: '1',
      });
      if (size === 0) return;
      const start = 40 + i * 60;
      w.add('EPOffWorkVc', {
        SerNr: String(10000001 + i),
        EmpCode: code,
        ContractNr: String(10000001 + i),
        Group: 'VAC',
        StartDate: seedDate(start),
        EndDate: seedDate(start + 4),
        CalendarDays: '5',
        OKFlag: '1',
      });
      w.add('EPOffWorkPlanVc', {
        SerNr: String(10000001 + i),
        EmpCode: code,
        ContractNr: String(10000001 + i),
        Group: 'VAC',
        StartDate: seedDate(start + 365),
        EndDate: seedDate(start + 374),
        OKFlag: '1',
      });
      w.add(
        'EPTS2Vc',
        { SerNr: String(10000001 + i), EmpCode: code, Year: '2024', Month: '1', HoursTotal: '16', OKFlag: '0' },
        [
          { Date: '2024-01-02', Hours: '8', Comment: '' },
          { Date: '2024-01-03', Hours: '8', Comment: '' },
        ],
      );
    });
  }
}
