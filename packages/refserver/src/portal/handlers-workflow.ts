import type { App } from '../app-types.js';
import type { RegisterInput } from '../schema/register-schema.js';
import { employeeHandlers } from './employee/employee-handlers.js';
import { employeeRegisters } from './employee/employee-registers.js';
import type { PortalHandler, PortalState } from './handler.js';
import { reportHandlers } from './reports/report-handlers.js';
import { activeeditfields } from './triggers/active-edit-fields.js';
import { windowactions } from './triggers/windowactions.js';
import { activityHandlers } from './workflow/activity-handlers.js';
import { approvalHandlers } from './workflow/approval-handlers.js';
import { overviewHandlers } from './workflow/overview-handlers.js';
import { SIGNING_PATH, signingHandlers } from './workflow/signing-handlers.js';
import { signingPageRoute } from './workflow/signing-page.js';
import { seedWorkflowDemo } from './workflow/workflow-seed.js';
import { ensureWorkflowTables } from './workflow/workflow-tables.js';

/**
 * Part B of the portal (approval workflow, signing, activities and tasks, field triggers, active edit
 * fields, reports, employee portal): the second portal engineer's entry point. Everything listed here is
 * mounted by the portal module (index.ts) next to part A's `recordHandlers` (handlers-records.ts).
 *
 * How to add an operation: write a `PortalHandler` (handler.ts documents the interface and what the
 * dispatcher checks before `handle` runs) in `workflow/`, `triggers/`, `reports/` or `employee/`, and
 * list it in `workflowHandlers`. Examples:
 *
 * ```ts
 * // action=action&register=checkapprovalstatus&regname=IVVc&id=...
 * { kind: 'sub-action', name: 'checkapprovalstatus', required: ['id'],
 *   registers: { operation: 'checkapprovalstatus', param: 'regname' }, handle(ctx) { ... } }
 * // action=windowactions (a JSON operation: failures answer JSON)
 * { kind: 'action', name: 'windowactions', json: true, methods: ['POST'], readsBody: true, handle(ctx) { ... } }
 * ```
 *
 * Helpers: `okXml`/`recordElementXml` (xml.ts), `PortalError`, `RECORD_IS_LOCKED`, `ACCESS_DENIED`
 * (handler.ts), `requireUser`/`userHasRight`/`RIGHTS`/`reportRight` (access.ts), `loadRecord`/
 * `assertUnlocked` (records/record-ref.ts), `checkOperationRegister` (operation-registers.ts, for a register
 * named in a body such as windowactions' `vcname`).
 */
export const workflowHandlers: readonly PortalHandler[] = [
  ...approvalHandlers,
  ...signingHandlers,
  ...activityHandlers,
  ...overviewHandlers,
  windowactions,
  activeeditfields,
  ...reportHandlers,
  ...employeeHandlers,
];

/** Registers part B needs beyond those of registers.ts (EPContractVc, EPTS2Vc, EPEmpVc, ...). */
export const workflowRegisters: readonly RegisterInput[] = [...employeeRegisters];

/** Part B's demo data; runs inside the seeding transaction after part A's (`AppModule.seed`). */
export function seedWorkflow(app: App, size: number): void {
  seedWorkflowDemo(app, size);
}

/** Part B's setup: extra tables, routes (the local signing stand-in, ...). Runs after part A's setup. */
export function setupWorkflow(app: App, _state: PortalState): void {
  ensureWorkflowTables(app.store.db);
  app.mount(SIGNING_PATH, signingPageRoute(), { prefix: true });
}
