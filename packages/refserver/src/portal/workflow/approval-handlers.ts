import { requireUser } from '../access.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { loadRecord } from '../records/record-ref.js';
import { elementXml, okXml, resXml } from '../xml.js';
import { approvalView, cancelApproval, decideApproval, sendForApproval } from './approval-state.js';
import { actingUser, wfOf } from './wf-context.js';

/**
 * `checkapprovalstatus&regname&id`: the documented status shape (portal-action-api.md §2 "Approval status",
 * README "XML conventions" 3): `<data><res errstr="" regname="IVVc"/><DummyVc>hasapprovals, approvalstatus,
 * message, cancancel</DummyVc></data>`.
 */
const checkapprovalstatus: PortalHandler = {
  kind: 'sub-action',
  name: 'checkapprovalstatus',
  registers: { operation: 'checkapprovalstatus', param: 'regname' },
  required: ['id'],
  handle(ctx) {
    const ref = loadRecord(ctx, ctx.register!, ctx.params.require('id'));
    const v = approvalView(wfOf(ctx), ref.register, ref.rec, ref.id);
    const dummy =
      `<DummyVc>${elementXml('hasapprovals', String(v.hasapprovals))}` +
      `${elementXml('approvalstatus', String(v.status))}${elementXml('message', v.message)}` +
      `${elementXml('cancancel', String(v.cancancel))}</DummyVc>`;
    return { xml: `<data>${resXml({ regname: ref.register })}${dummy}</data>\n` };
  },
};

/**
 * `sendforapproval&regname&id[&usercode]`: the operation result; `newdata` carries the SerNr of the first
 * step's approval activity (ours: the body is not shown, rule 11). `usercode` (or the session user) is the
 * requester, who never approves their own request.
 */
const sendforapproval: PortalHandler = {
  kind: 'sub-action',
  name: 'sendforapproval',
  registers: { operation: 'sendforapproval', param: 'regname' },
  required: ['id'],
  handle(ctx) {
    const wf = wfOf(ctx);
    const requester = actingUser(ctx);
    const activities = ctx.app.store.write(() => {
      const ref = loadRecord(ctx, ctx.register!, ctx.params.require('id'));
      return sendForApproval(wf, ref.register, ref.rec, ref.id, requester);
    });
    return { xml: okXml({ newdata: activities[0] ?? '' }) };
  },
};

function decision(name: string, kind: 'approve' | 'reject'): PortalHandler {
  return {
    kind: 'sub-action',
    name,
    required: ['id', 'usercode'],
    handle(ctx: PortalContext) {
      const user = requireUser(ctx);
      const wf = wfOf(ctx);
      ctx.app.store.write(() => decideApproval(wf, ctx.params.require('id'), user.Code!, kind));
      return { xml: okXml() };
    },
  };
}

/**
 * `cancelapproval&regname&id`. The "Registers per operation" table has no cancelapproval row; the
 * sendforapproval row applies (what can be sent can be cancelled).
 */
const cancelapproval: PortalHandler = {
  kind: 'sub-action',
  name: 'cancelapproval',
  registers: { operation: 'sendforapproval', param: 'regname' },
  required: ['id'],
  handle(ctx) {
    const wf = wfOf(ctx);
    ctx.app.store.write(() => {
      const ref = loadRecord(ctx, ctx.register!, ctx.params.require('id'));
      cancelApproval(wf, ref.register, ref.rec, ref.id);
    });
    return { xml: okXml() };
  },
};

/** The approval workflow sub-actions. */
export const approvalHandlers: readonly PortalHandler[] = [
  checkapprovalstatus,
  sendforapproval,
  decision('approveactivity', 'approve'),
  decision('rejectactivity', 'reject'),
  cancelapproval,
];
