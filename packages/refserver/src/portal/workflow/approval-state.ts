import type { StoredRecord } from '../../store/record-table.js';
import { PortalError } from '../handler.js';
import { ACT_STATE, ACT_TYPE, closeActivity, contactOf, insertActivity, loadActivity } from './activities.js';
import { type ApprovalRule, approvalRequirement } from './approval-rules.js';
import { expandPersons } from './persons.js';
import { splitCodes, type Wf } from './wf-context.js';

/**
 * The approval state machine (README "Portal action API", "Approval workflow"). portal-action-api.md §3
 * names the codes and says the transitions are "not shown"; the reference server's design:
 *
 * - 0 Not requested / 1 Not required are derived from the rules (approval-rules.ts) while no request runs;
 * - `sendforapproval` (from 0 or 5) creates one approval activity (ActVc, ActType APPROVAL) per rule step -> 2;
 * - `approveactivity` on the current step -> 3 while later steps wait, 4 after the last one;
 * - `rejectactivity` on the current step -> 5 (the remaining steps are cancelled);
 * - `cancelapproval` (from 2, 3, 5, or 4 while the record is not confirmed) -> back to 0 or 1.
 *
 * Every reported code is one of these six.
 */
export const APPROVAL_STATUS = {
  notRequested: 0,
  notRequired: 1,
  notStarted: 2,
  pending: 3,
  approved: 4,
  rejected: 5,
} as const;

/** The names of the codes, as portal-action-api.md §3 "Approval status codes" writes them. */
export const APPROVAL_STATUS_NAMES = [
  'Not requested',
  'Not required',
  'Not started',
  'Pending',
  'Approved',
  'Rejected',
] as const;

const statusText = (s: number) => `status ${s} ${APPROVAL_STATUS_NAMES[s]}`;

interface RequestRow {
  readonly round: number;
  readonly status: number;
  readonly requested_by: string;
  readonly amount: string;
}

/** One step of a request: its approval activity and decision. */
export interface ApprovalStep {
  readonly activity: string;
  readonly register: string;
  readonly recordId: string;
  readonly round: number;
  readonly step: number;
  readonly steps: number;
  readonly state: 'open' | 'approved' | 'rejected' | 'cancelled';
  readonly decidedBy: string;
  readonly decidedOn: string;
}

/** What checkapprovalstatus reports (portal-action-api.md §2 "Approval status"). */
export interface ApprovalView {
  readonly status: number;
  readonly hasapprovals: 0 | 1;
  readonly message: string;
  readonly cancancel: 0 | 1;
}

function currentRequest(wf: Wf, register: string, rec: StoredRecord, id: string): RequestRow | undefined {
  return wf.store.db
    .prepare(
      'SELECT round, status, requested_by, amount FROM wf_approvals ' +
        'WHERE company = ? AND register = ? AND record_id = ? AND record_uuid = ?',
    )
    .get(wf.company, register, id, rec.fields.UUID ?? '') as RequestRow | undefined;
}

type StepRow = {
  activity: string;
  register: string;
  record_id: string;
  round: number;
  step: number;
  steps: number;
  state: ApprovalStep['state'];
  decided_by: string;
  decided_on: string;
};
const toStep = (r: StepRow): ApprovalStep => ({
  activity: r.activity,
  register: r.register,
  recordId: r.record_id,
  round: r.round,
  step: r.step,
  steps: r.steps,
  state: r.state,
  decidedBy: r.decided_by,
  decidedOn: r.decided_on,
});

function stepsOf(wf: Wf, register: string, id: string, uuid: string, round: number): ApprovalStep[] {
  const rows = wf.store.db
    .prepare(
      'SELECT * FROM wf_approval_steps WHERE company = ? AND register = ? AND record_id = ? AND record_uuid = ? ' +
        'AND round = ? ORDER BY step',
    )
    .all(wf.company, register, id, uuid, round) as StepRow[];
  return rows.map(toStep);
}

/** The approval step an activity decides, or undefined when it is no approval activity. */
export function approvalStepOf(wf: Wf, activity: string): ApprovalStep | undefined {
  const row = wf.store.db
    .prepare('SELECT * FROM wf_approval_steps WHERE company = ? AND activity = ?')
    .get(wf.company, activity) as StepRow | undefined;
  return row ? toStep(row) : undefined;
}

function approversOf(wf: Wf, step: ApprovalStep): string {
  return splitCodes(wf.store.get('ActVc', wf.company, [step.activity])?.fields.MainPersons).join(', ');
}

function setStatus(wf: Wf, register: string, id: string, status: number): void {
  wf.store.db
    .prepare('UPDATE wf_approvals SET status = ? WHERE company = ? AND register = ? AND record_id = ?')
    .run(status, wf.company, register, id);
}

function setStep(wf: Wf, activity: string, state: ApprovalStep['state'], by: string): void {
  wf.store.db
    .prepare(
      'UPDATE wf_approval_steps SET state = ?, decided_by = ?, decided_on = ? WHERE company = ? AND activity = ?',
    )
    .run(state, by, by === '' ? '' : wf.today, wf.company, activity);
}

/** Why cancelapproval is refused, or undefined when it is allowed (cancancel 1). */
function cancelRefusal(status: number, rec: StoredRecord, label: string): string | undefined {
  if (status === APPROVAL_STATUS.notRequested || status === APPROVAL_STATUS.notRequired)
    return `there is no approval request of ${label} to cancel (${statusText(status)})`;
  if (status === APPROVAL_STATUS.approved && rec.fields.OKFlag === '1')
    return `${label} is approved and confirmed (OKFlag 1); its approval cannot be cancelled`;
  return undefined;
}

function message(wf: Wf, status: number, steps: ApprovalStep[], reason: string, needed: number): string {
  const name = APPROVAL_STATUS_NAMES[status];
  const open = steps.find((s) => s.state === 'open');
  const waiting = open ? `waiting for step ${open.step} of ${open.steps} (approvers ${approversOf(wf, open)})` : '';
  switch (status) {
    case APPROVAL_STATUS.notRequested:
      return `${name}: approval needed in ${needed} step(s)${reason ? `; ${reason}` : ''}`;
    case APPROVAL_STATUS.notRequired:
      return `${name}: ${reason}`;
    case APPROVAL_STATUS.notStarted:
      return `${name}: ${waiting}`;
    case APPROVAL_STATUS.pending: {
      const done = steps.filter((s) => s.state === 'approved').map((s) => `step ${s.step} by ${s.decidedBy}`);
      return `${name}: approved ${done.join(', ')}; ${waiting}`;
    }
    case APPROVAL_STATUS.approved:
      return `${name}: ${steps.map((s) => `step ${s.step} by ${s.decidedBy} on ${s.decidedOn}`).join(', ')}`;
    default: {
      const r = steps.find((s) => s.state === 'rejected');
      return `${name}: step ${r?.step ?? '?'} of ${r?.steps ?? '?'} by ${r?.decidedBy ?? '?'} on ${r?.decidedOn ?? '?'}`;
    }
  }
}

/** The approval status of a record, as checkapprovalstatus reports it. */
export function approvalView(wf: Wf, register: string, rec: StoredRecord, id: string): ApprovalView {
  const req = currentRequest(wf, register, rec, id);
  const label = `${register} ${id}`;
  if (!req) {
    const need = approvalRequirement(wf.store, wf.company, register, rec);
    const status = need.steps.length > 0 ? APPROVAL_STATUS.notRequested : APPROVAL_STATUS.notRequired;
    const reason = status === APPROVAL_STATUS.notRequested ? need.amountText : need.reason;
    return { status, hasapprovals: 0, message: message(wf, status, [], reason, need.steps.length), cancancel: 0 };
  }
  const steps = stepsOf(wf, register, id, rec.fields.UUID ?? '', req.round);
  return {
    status: req.status,
    hasapprovals: 1,
    message: message(wf, req.status, steps, '', steps.length),
    cancancel: cancelRefusal(req.status, rec, label) === undefined ? 1 : 0,
  };
}

function approversFor(wf: Wf, rule: ApprovalRule, requester: string | undefined, label: string): string[] {
  const { codes } = expandPersons(wf.store, wf.company, rule.approvers);
  const eligible = codes.filter((c) => c !== requester);
  if (eligible.length === 0)
    throw new PortalError(
      `step ${rule.step} of the ${rule.register} approval rule has no approver` +
        `${requester ? ` other than the requester ${requester}` : ''}; ${label} cannot be sent for approval`,
    );
  return eligible;
}

/**
 * sendforapproval: from 0 (or 5, a new round after a rejection) creates the approval activities and sets 2.
 * Returns the activity SerNrs by step. Runs inside the caller's transaction.
 */
export function sendForApproval(
  wf: Wf,
  register: string,
  rec: StoredRecord,
  id: string,
  requester: string | undefined,
): string[] {
  const label = `${register} ${id}`;
  if (register === 'ActVc' && rec.fields.ActType === ACT_TYPE.approval && approvalStepOf(wf, id))
    throw new PortalError(`${label} is itself an approval activity`);
  const view = approvalView(wf, register, rec, id);
  const need = approvalRequirement(wf.store, wf.company, register, rec);
  if (view.status === APPROVAL_STATUS.notRequired)
    throw new PortalError(`${label} needs no approval (${statusText(view.status)}): ${need.reason}`);
  if (view.status === APPROVAL_STATUS.approved) throw new PortalError(`${label} is already approved`);
  if (view.status !== APPROVAL_STATUS.notRequested && view.status !== APPROVAL_STATUS.rejected)
    throw new PortalError(`${label} is already sent for approval (${statusText(view.status)})`);
  if (need.steps.length === 0) throw new PortalError(`${label} needs no approval: ${need.reason}`);
  const approvers = need.steps.map((rule) => approversFor(wf, rule, requester, label));
  const uuid = rec.fields.UUID ?? '';
  const last = wf.store.db
    .prepare(
      'SELECT MAX(round) FROM wf_approval_steps WHERE company = ? AND register = ? AND record_id = ? AND record_uuid = ?',
    )
    .pluck()
    .get(wf.company, register, id, uuid) as number | null;
  const round = (last ?? 0) + 1;
  wf.store.db
    .prepare(
      'INSERT OR REPLACE INTO wf_approvals (company, register, record_id, record_uuid, round, status, requested_by, ' +
        'requested_on, amount) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(wf.company, register, id, uuid, round, APPROVAL_STATUS.notStarted, requester ?? '', wf.today, need.amount);
  const contact = contactOf(wf, register, rec);
  const total = need.steps.length;
  return need.steps.map((rule, i) => {
    const act = insertActivity(wf, {
      ActType: ACT_TYPE.approval,
      ActState: ACT_STATE.todo,
      TransDate: wf.today,
      StartTime: wf.time,
      Comment: `Approve ${label} (step ${i + 1} of ${total})${need.amountText ? `, ${need.amountText}` : ''}`,
      MainPersons: approvers[i]!.join(','),
      CCPersons: requester ?? '',
      CUCode: contact.code,
      CUName: contact.name,
      SourceRegister: register,
      SourceRecordId: id,
    });
    const serNr = act.fields.SerNr!;
    wf.store.db
      .prepare(
        'INSERT INTO wf_approval_steps (company, activity, register, record_id, record_uuid, round, step, steps, ' +
          "state, decided_by, decided_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', '', '')",
      )
      .run(wf.company, serNr, register, id, uuid, round, rule.step, total);
    return serNr;
  });
}

/** approveactivity / rejectactivity on an approval activity by user `usercode` (inside a transaction). */
export function decideApproval(wf: Wf, activity: string, usercode: string, decision: 'approve' | 'reject'): void {
  const act = loadActivity(wf, activity);
  const step = approvalStepOf(wf, activity);
  if (!step) throw new PortalError(`ActVc ${activity} is not an approval activity`);
  if (step.state !== 'open') throw new PortalError(`ActVc ${activity} is already ${step.state}; nothing to decide`);
  const label = `${step.register} ${step.recordId}`;
  const rec = wf.store.get(step.register, wf.company, [step.recordId]);
  const req = rec ? currentRequest(wf, step.register, rec, step.recordId) : undefined;
  if (!rec || !req || req.round !== step.round)
    throw new PortalError(`the approval request of ActVc ${activity} (${label}) no longer exists`);
  const approvers = splitCodes(act.fields.MainPersons);
  if (!approvers.includes(usercode))
    throw new PortalError(
      `user ${usercode} is not an approver of ActVc ${activity}; approvers: ${approvers.join(', ')}`,
    );
  const steps = stepsOf(wf, step.register, step.recordId, rec.fields.UUID ?? '', step.round);
  const before = steps.find((s) => s.step < step.step && s.state !== 'approved');
  if (before)
    throw new PortalError(
      `step ${before.step} of ${label} (ActVc ${before.activity}) is not approved yet; ActVc ${activity} is step ${step.step}`,
    );
  if (decision === 'approve') {
    setStep(wf, activity, 'approved', usercode);
    closeActivity(wf, act, 'APPROVED');
    const last = steps.every((s) => s.activity === activity || s.state === 'approved');
    setStatus(wf, step.register, step.recordId, last ? APPROVAL_STATUS.approved : APPROVAL_STATUS.pending);
    return;
  }
  setStep(wf, activity, 'rejected', usercode);
  closeActivity(wf, act, 'REJECTED');
  for (const s of steps)
    if (s.activity !== activity && s.state === 'open') {
      setStep(wf, s.activity, 'cancelled', '');
      closeActivity(wf, loadActivity(wf, s.activity), 'CANCELLED');
    }
  setStatus(wf, step.register, step.recordId, APPROVAL_STATUS.rejected);
}

/** cancelapproval: ends the request (open steps cancelled); the status goes back to 0 or 1. */
export function cancelApproval(wf: Wf, register: string, rec: StoredRecord, id: string): void {
  const label = `${register} ${id}`;
  const req = currentRequest(wf, register, rec, id);
  const refusal = cancelRefusal(req?.status ?? approvalView(wf, register, rec, id).status, rec, label);
  if (refusal || !req) throw new PortalError(refusal ?? `there is no approval request of ${label} to cancel`);
  for (const s of stepsOf(wf, register, id, rec.fields.UUID ?? '', req.round))
    if (s.state === 'open') {
      setStep(wf, s.activity, 'cancelled', '');
      closeActivity(wf, loadActivity(wf, s.activity), 'CANCELLED');
    }
  wf.store.db
    .prepare('DELETE FROM wf_approvals WHERE company = ? AND register = ? AND record_id = ?')
    .run(wf.company, register, id);
}

/** Why a record may not be signed yet (approval required and not approved), or undefined. */
export function approvalBlocksSigning(wf: Wf, register: string, rec: StoredRecord, id: string): string | undefined {
  const view = approvalView(wf, register, rec, id);
  if (view.status === APPROVAL_STATUS.notRequired || view.status === APPROVAL_STATUS.approved) return undefined;
  return `${register} ${id} must be approved before signing (approval ${statusText(view.status)})`;
}

/** Open approval steps a user may decide now (getnotifications, getdashboardkpi). */
export function openStepsFor(wf: Wf, usercode: string): ApprovalStep[] {
  const rows = wf.store.db
    .prepare("SELECT * FROM wf_approval_steps WHERE company = ? AND state = 'open' ORDER BY activity")
    .all(wf.company) as StepRow[];
  return rows.map(toStep).filter((s) => {
    const act = wf.store.get('ActVc', wf.company, [s.activity]);
    if (!act || !splitCodes(act.fields.MainPersons).includes(usercode)) return false;
    const rec = wf.store.get(s.register, wf.company, [s.recordId]);
    if (!rec) return false;
    const steps = stepsOf(wf, s.register, s.recordId, rec.fields.UUID ?? '', s.round);
    return steps.every((o) => o.step >= s.step || o.state === 'approved');
  });
}
