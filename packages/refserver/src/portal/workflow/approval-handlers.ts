import { findUser, requireUser } from '../access.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { REGISTERS_PER_OPERATION } from '../operation-registers.js';
import { loadRecord } from '../records/record-ref.js';
import { attrs, elementXml, okXml, resXml } from '../xml.js';
import { approvalRequirement, rulesFor } from './approval-rules.js';
import { approvalView, cancelApproval, decideApproval, sendForApproval } from './approval-state.js';
import { expandPersons } from './persons.js';
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

/**
 * `getapprovalpersons[&regname[&id]]` (named by rule 13 only; parameters and body not shown; ours): the
 * approvers of the approval rules as `<person regname step minamount usercode name/>`, one per approver and
 * step, groups expanded: of every register, of `regname`, or of the steps the record `regname`/`id` needs.
 */
const getapprovalpersons: PortalHandler = {
  kind: 'sub-action',
  name: 'getapprovalpersons',
  registers: { operation: 'sendforapproval', param: 'regname', optional: true },
  handle(ctx) {
    const store = ctx.app.store;
    const registers = ctx.register
      ? [ctx.register]
      : REGISTERS_PER_OPERATION.sendforapproval.registers.map((r) => r.name);
    const id = ctx.params.get('id');
    let inner = '';
    for (const register of registers) {
      const rules =
        id && ctx.register
          ? (() => {
              const ref = loadRecord(ctx, register, id);
              return approvalRequirement(store, ctx.company, ref.register, ref.rec).steps;
            })()
          : rulesFor(store, ctx.company, register);
      for (const rule of rules)
        for (const code of expandPersons(store, ctx.company, rule.approvers).codes)
          inner += `<person${attrs({ regname: register, step: rule.step, minamount: rule.minAmount, usercode: code, name: findUser(store, ctx.company, code)?.Name ?? '' })}/>`;
    }
    return { xml: okXml({}, inner) };
  },
};

/** The approval workflow sub-actions. */
export const approvalHandlers: readonly PortalHandler[] = [
  checkapprovalstatus,
  sendforapproval,
  decision('approveactivity', 'approve'),
  decision('rejectactivity', 'reject'),
  cancelapproval,
  getapprovalpersons,
];
