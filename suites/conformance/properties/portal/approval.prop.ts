// Approval codes (issue 5 "Approval codes": approvalstatus 0-5 in the documented shape, hasapprovals and
// cancancel 0/1; transitions not shown, so never a FAIL on them). portal-action-api.md §2 "Approval status",
// §3 "Approval status codes", §4 "Approval status" to "Cancel approval".
import type { PortalApproval } from '@erpcert/client';
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  createdByThisRun,
  deleteRecord,
  expectRule,
  fieldValue,
  type RuleContext,
  ruleProperty,
  show,
} from '../../src/harness/index.js';
import {
  assertPortalXml,
  attempt,
  bodyText,
  createDocument,
  createPurchaseInvoice,
  describeOutcome,
  expectSuccess,
  firstPageIds,
} from '../../src/harness/portal.js';

/** checkapprovalstatus registers (§2) with a portal list to find records in; OPVc is read through /api/1/. */
const CHECK_REGISTERS = ['ActVc', 'IVVc', 'VIVc', 'ORVc', 'QTVc', 'EPOrderDocVc', 'OPVc'] as const;
type CheckRegister = (typeof CHECK_REGISTERS)[number];

let found: Promise<{ register: CheckRegister; ids: string[] }[]> | undefined;

/** Up to 20 record ids per checkapprovalstatus register that the target holds. */
async function recordsToCheck(ctx: RuleContext) {
  found ??= (async () => {
    const out: { register: CheckRegister; ids: string[] }[] = [];
    for (const register of CHECK_REGISTERS) {
      let ids: string[] = [];
      if (register === 'OPVc') {
        const o = await attempt(
          ctx.client.rest.list('OPVc', { fields: 'SerNr', limit: 20 } as never, { format: 'json' }),
        );
        ids = o.ok ? o.value.records.map((r) => fieldValue(r, 'SerNr')) : [];
      } else ids = (await firstPageIds(ctx))[register];
      ids = ids.filter((id) => id !== '');
      if (ids.length > 0) out.push({ register, ids });
    }
    return out;
  })();
  const list = await found;
  if (list.length === 0) ctx.skip(`the target has no record in ${CHECK_REGISTERS.join(', ')} to check`);
  return list;
}

/** The documented shape of an approval status (§2): regname, and DummyVc with its four fields. */
function checkApproval(register: string, id: string, a: PortalApproval): void {
  const where = `checkapprovalstatus regname=${register}&id=${id}`;
  expectRule(
    a.regname === register,
    'PORTAL.APPROVAL.STATUS_SHAPE',
    () => `${where}: <res regname> is ${show(a.regname)}`,
  );
  const s = a.status;
  expectRule(
    s !== undefined,
    'PORTAL.APPROVAL.STATUS_SHAPE',
    () => `${where}: no <DummyVc> in ${show(a.raw.text, 300)}`,
  );
  expectRule(
    /^[0-5]$/.test(s.approvalstatus ?? ''),
    'PORTAL.APPROVAL.STATUS_CODES',
    () => `${where}: approvalstatus is ${show(s.approvalstatus)}, not a code 0 to 5`,
  );
  for (const flag of ['hasapprovals', 'cancancel'] as const)
    expectRule(
      s[flag] === '0' || s[flag] === '1',
      'PORTAL.APPROVAL.STATUS_SHAPE',
      () => `${where}: ${flag} is ${show(s[flag])}, not 0 or 1`,
    );
  expectRule(s.message !== undefined, 'PORTAL.APPROVAL.STATUS_SHAPE', () => `${where}: DummyVc has no <message>`);
}

async function check(ctx: RuleContext, register: string, id: string) {
  const o = await attempt(ctx.client.portal.checkapprovalstatus({ regname: register, id }));
  const a = expectSuccess(o, 'PORTAL.APPROVAL.CHECK_REGISTERS', `checkapprovalstatus regname=${register}&id=${id}`);
  ctx.observe('PORTAL.APPROVAL.CHECKAPPROVALSTATUS');
  // the code is judged before the XSD, which types approvalstatus as the codes 0 to 5 (specs/xsd/common.xsd
  // ApprovalStatusCode): a code outside them breaks STATUS_CODES, not the shape of the answer
  const code = a.status?.approvalstatus;
  if (code !== undefined)
    expectRule(
      /^[0-5]$/.test(code),
      'PORTAL.APPROVAL.STATUS_CODES',
      () => `checkapprovalstatus regname=${register}&id=${id}: approvalstatus is ${show(code)}, not a code 0 to 5`,
    );
  await assertPortalXml(ctx, a.raw.text, 'portal-approval', 'PORTAL.APPROVAL.STATUS_SHAPE');
  checkApproval(register, id, a);
  return a;
}

/** An approval step whose effect on the code is not shown (§3): only its answer's shape is checked. */
type Step = 'sendforapproval' | 'cancelapproval' | 'approveactivity' | 'rejectactivity';
const STEP_RULE: Readonly<Record<Step, string>> = {
  sendforapproval: 'PORTAL.APPROVAL.SENDFORAPPROVAL',
  cancelapproval: 'PORTAL.APPROVAL.CANCELAPPROVAL',
  approveactivity: 'PORTAL.APPROVAL.APPROVEACTIVITY',
  rejectactivity: 'PORTAL.APPROVAL.REJECTACTIVITY',
};

describe('approval status', () => {
  ruleProperty(
    [
      'PORTAL.APPROVAL.CHECKAPPROVALSTATUS',
      'PORTAL.APPROVAL.CHECK_REGISTERS',
      'PORTAL.APPROVAL.STATUS_SHAPE',
      'PORTAL.APPROVAL.STATUS_CODES',
    ],
    'checkapprovalstatus of any record answers regname and DummyVc: approvalstatus 0-5, hasapprovals and cancancel 0/1',
    async (ctx) => [
      fc
        .constantFrom(...(await recordsToCheck(ctx)))
        .chain(({ register, ids }) => fc.record({ register: fc.constant(register), id: fc.constantFrom(...ids) })),
    ],
    async (ctx, { register, id }) => {
      try {
        await check(ctx, register, id);
      } catch (err) {
        // a record this run made can be deleted by another test file between its discovery and this check
        if (createdByThisRun(ctx, register, id)) return;
        throw err;
      }
    },
    {
      numRuns: 10,
      // a record of every register that has one, in every run
      examples: async (ctx) =>
        (await recordsToCheck(ctx)).map(
          ({ register, ids }) => [{ register, id: ids[0]! }] as [{ register: typeof register; id: string }],
        ),
    },
  );

  ruleProperty(
    [
      'PORTAL.APPROVAL.SENDFORAPPROVAL',
      'PORTAL.APPROVAL.CANCELAPPROVAL',
      'PORTAL.APPROVAL.APPROVEACTIVITY',
      'PORTAL.APPROVAL.REJECTACTIVITY',
      'PORTAL.APPROVAL.SEND_REGISTERS',
      'PORTAL.APPROVAL.STATUS_SHAPE',
      'PORTAL.APPROVAL.STATUS_CODES',
      'PORTAL.DISPATCH.OPERATION_RESULT',
    ],
    'after any sequence of approval steps on a fresh document, each step answers an operation result and the status keeps its shape and codes',
    [
      fc.constantFrom('IVVc' as const, 'ORVc' as const, 'QTVc' as const, 'VIVc' as const),
      fc.array(fc.constantFrom<Step>('sendforapproval', 'cancelapproval', 'approveactivity', 'rejectactivity'), {
        minLength: 1,
        maxLength: 4,
      }),
    ],
    async (ctx, register, steps) => {
      let id: string;
      if (register === 'VIVc') {
        const made = await createPurchaseInvoice(ctx, ['10.00'], 'approval');
        if (typeof made === 'string') return; // no purchase invoice to send: this case judges nothing
        id = made.serNr;
      } else id = await createDocument(ctx, register, [{ stp: '1' }], 'approval');
      let status = await check(ctx, register, id);
      for (const step of steps) {
        const params =
          step === 'approveactivity' || step === 'rejectactivity'
            ? { id, ...(ctx.target.usercode !== undefined ? { usercode: ctx.target.usercode } : {}) }
            : { regname: register, id };
        const o = await attempt(ctx.client.portal.call(`action_${step}`, params as never));
        const body = bodyText(o);
        // success or a failure text: both are an operation result; what the step does to the code is not shown
        expectRule(
          o.ok || o.error.kind === 'erp',
          STEP_RULE[step],
          () => `${step} ${show(params)} answered neither an operation result nor an error: ${describeOutcome(o)}`,
        );
        if (body !== '') await assertPortalXml(ctx, body, 'portal-result', STEP_RULE[step], step);
        // the register took the step; a failure text is allowed ("Transitions of the approval status ...: not
        // shown") but shows no register served
        if (step === 'sendforapproval' && o.ok) ctx.observe('PORTAL.APPROVAL.SEND_REGISTERS');
        // the status the server answered just before says whether the approval can be cancelled (cancancel, §2
        // "Approval status"): a cancel refused where it said 1 is a refusal of a request the server itself allowed
        // likewise a send refused where the status said approvalstatus 0, "Not requested" (§3; not "Not required"):
        // the register's approval is there to be requested
        if (step === 'sendforapproval' && status.status?.approvalstatus === '0')
          expectRule(
            o.ok,
            'PORTAL.APPROVAL.SEND_REGISTERS',
            () =>
              `sendforapproval ${show(params)} was refused (${show(body, 200)}) right after checkapprovalstatus answered approvalstatus 0 (Not requested)`,
            { decisive: true },
          );
        if (step === 'cancelapproval' && status.status?.cancancel === '1')
          expectRule(
            o.ok,
            'PORTAL.APPROVAL.CANCELAPPROVAL',
            () =>
              `cancelapproval ${show(params)} was refused (${show(body, 200)}) right after checkapprovalstatus answered cancancel 1`,
            { decisive: true },
          );
        status = await check(ctx, register, id);
      }
      await attempt(deleteRecord(ctx, register, id));
    },
    {
      numRuns: 5,
      writes: true,
      // each step in every run, on each register: SENDFORAPPROVAL, CANCELAPPROVAL, APPROVEACTIVITY, REJECTACTIVITY
      examples: [
        ['IVVc', ['sendforapproval', 'approveactivity']],
        ['ORVc', ['sendforapproval', 'cancelapproval']],
        ['QTVc', ['sendforapproval', 'rejectactivity']],
        // a purchase invoice, a member of SEND_REGISTERS the suite can make through /api/1/, then its cancel: a
        // small document's approval may not be required (nothing to cancel, cancancel 0), so this is where a
        // cancel the status allows (cancancel 1) is most likely to be met
        ['VIVc', ['sendforapproval', 'cancelapproval']],
      ],
    },
  );
});
