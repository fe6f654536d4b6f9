import type { App } from '../../../app-types.js';
import type { RecordStore } from '../../../store/record-store.js';
import { testApp } from '../../../testing/test-client.js';
import { grantRight, reportRight } from '../../access.js';
import { loadPortalFixture } from '../../testing/portal-fixture.js';
import { addApprovalRule } from '../approval-rules.js';
import { configureWorkflow } from '../workflow-config.js';
import { ensureWorkflowTables } from '../workflow-tables.js';
import { loadFixtureExtras } from './fixture-extras.js';

/**
 * Part B's hand-written test data on top of `loadPortalFixture` (users ADMIN (group ADMIN), JD (SALES), REP
 * (REPORTS), ACC (ACCOUNTING), OLD (SALES, closed); invoices 10000101 draft and 10000102 confirmed, Sum4
 * 46.20 each; order 10000201 Sum4 46.20; quotation 10000301; purchase invoice 10000401 PayVal 122.00;
 * EPOrderDocVc 10000601), so that expected values come from here:
 *
 * - approval rules: IVVc step 1 from 40.00 by JD, step 2 from 100.00 by group ADMIN; ORVc step 1 always by
 *   group SALES (JD; OLD is closed); VIVc step 1 from 1000.00 by ACC; ActVc step 1 always by ADMIN;
 *   EPOrderDocVc step 1 always by the group REPORTS (REP); QTVc and OPVc none;
 * - `WF.bigInvoice` 10000103, a draft invoice of C1 with Sum4 500.00 (needs both IVVc steps);
 * - a task activity `WF.task` 10000701 for JD; the workflow configuration of workflow-config.ts;
 * - `WF.latContract` 10000801, an EPContractVc (no approval rule: signing needs no approval);
 * - report-level access: group ADMIN to every report of the catalogue, group REPORTS to SalesJournalRn only;
 * - the trigger and employee data of fixture-extras.ts.
 */
export const WF = {
  bigInvoice: '10000103',
  task: '10000701',
  latContract: '10000801',
} as const;

/** Loads the portal fixture plus part B's data (see WF). */
export function loadWorkflowFixture(store: RecordStore, company = 1): void {
  loadPortalFixture(store, company);
  ensureWorkflowTables(store.db);
  store.write(() => {
    configureWorkflow(store, company);
    for (const [register, step, minAmount, approvers] of [
      ['IVVc', 1, '40.00', 'JD'],
      ['IVVc', 2, '100.00', '@ADMIN'],
      ['ORVc', 1, '', 'SALES'],
      ['VIVc', 1, '1000.00', 'ACC'],
      ['ActVc', 1, '', 'ADMIN'],
      ['EPOrderDocVc', 1, '', 'REPORTS'],
    ] as const)
      addApprovalRule(store, company, { register, step, minAmount, approvers });
    store.insert('IVVc', company, {
      fields: {
        SerNr: WF.bigInvoice,
        InvDate: '2025-03-05',
        CustCode: 'C1',
        Addr0: 'Alpha Ltd',
        PayDeal: '30',
        OKFlag: '0',
        Sum0: '409.84',
        Sum1: '409.84',
        Sum3: '90.16',
        Sum4: '500.00',
      },
      rows: [{ stp: '1', ArtCode: 'I1', Quant: '1', Price: '409.84', Sum: '409.84', VATCode: '1' }],
    });
    store.insert('ActVc', company, {
      fields: {
        SerNr: WF.task,
        ActType: 'TASK',
        ActState: 'TODO',
        TransDate: '2025-03-10',
        StartTime: '09:00',
        Comment: 'Call Alpha about the order',
        MainPersons: 'JD',
        CUCode: 'C1',
        CUName: 'Alpha Ltd',
      },
      rows: [],
    });
    store.insert('EPContractVc', company, {
      fields: { SerNr: WF.latContract, EmpCode: 'L001', StartDate: '2024-01-01', VacDaysNorm: '20', OKFlag: '1' },
      rows: [],
    });
    for (const rep of ['SalesJournalRn', 'OpenReceivablesRn', 'StockLevelsRn'])
      grantRight(store, company, 'ADMIN', reportRight(rep));
    grantRight(store, company, 'REPORTS', reportRight('SalesJournalRn'));
    loadFixtureExtras(store, company);
  });
}

const apps: App[] = [];

/** A test app with the workflow fixture (closed by `closeWorkflowApps`). */
export function workflowApp(): App & { logs: string[] } {
  const a = testApp();
  loadWorkflowFixture(a.store);
  apps.push(a);
  return a;
}

let shared: (App & { logs: string[] }) | undefined;

/**
 * One app with the fixture for the tests of a file that only read (field triggers, reports, employee data):
 * made once, closed by `closeSharedWorkflowApp` (call in afterAll). Saves a database per test on a busy machine.
 */
export function readOnlyWorkflowApp(): App & { logs: string[] } {
  if (!shared) {
    shared = testApp();
    loadWorkflowFixture(shared.store);
  }
  return shared;
}

/** Closes the app of `readOnlyWorkflowApp`. */
export function closeSharedWorkflowApp(): void {
  shared?.close();
  shared = undefined;
}

/** Closes the apps `workflowApp` made (call in afterEach). */
export function closeWorkflowApps(): void {
  for (const a of apps.splice(0)) a.close();
}
