// Digital signing (portal-action-api.md §2 "Registers per operation": createsigningactivity; §4 "Create signing
// activity", "Create signing session", "Start signing", "Cancel signing", "Sign approved record"). The answers
// beyond "operation result" and "a URL" are not shown (operation rule 11), nor signactivity's parameters
// (rule 13), nor the signing states (§3): a refused signactivity is no FAIL, only an answer that is not an
// operation result. Every record signed here is the suite's own draft, ledgered and deleted with its activity.
// The signing session stays: the portal delete does not serve ErpSignSessVc, so the test runs against the
// embedded server or with --allow-permanent-writes, and lists the session as residue (permanent-writes.ts).
import { ErpError } from '@erpcert/client';
import { describe } from 'vitest';
import {
  deleteRecord,
  expectRule,
  ledgerPermanent,
  type RuleContext,
  ruleTest,
  show,
} from '../../src/harness/index.js';
import {
  activitySnapshot,
  attempt,
  createDocument,
  describeOutcome,
  expectSuccess,
  newActivity,
  type Outcome,
} from '../../src/harness/portal.js';

/** The createsigningactivity registers the suite can make a record of (§2); EP* documents it cannot create. */
const SIGN_REGISTERS = ['ORVc', 'IVVc'] as const;
type SignRegister = (typeof SIGN_REGISTERS)[number];

/** An answer that names a URL (http or https) anywhere in its body. */
const URL_IN_BODY = /https?:\/\/[^\s"'<>]+/;

async function deleteQuietly(ctx: RuleContext, register: string, id: string | undefined): Promise<void> {
  if (id === undefined) return;
  // a refused delete leaves the record in the ledger: the run's cleanup tries again and reports it
  await attempt(deleteRecord(ctx, register, id));
}

/**
 * Which rule a refused createsigningactivity breaks: the register list (§2 "Registers per operation":
 * createsigningactivity | ORVc, IVVc, ...), whether another register was served or none was. A refusal is an
 * operation result (§2 "Operation result": `<res errstr="<text>"/>`, "Empty errstr means success"), so the
 * endpoint row's rule (CREATESIGNINGACTIVITY, "answers an operation result") holds; what the target does not do
 * is serve the suite's own draft of a register the docs list, as for every operation with a register list (the
 * suite's reading since issue 18: copyrecord, posttext, delete).
 */
function judgeCreated(
  ctx: RuleContext,
  created: readonly { register: SignRegister; id: string; outcome: Outcome<unknown> }[],
): void {
  const served = created.filter((c) => c.outcome.ok);
  if (served.length > 0) ctx.observe('PORTAL.SIGN.CREATESIGNINGACTIVITY', served.length);
  for (const c of created) {
    const what = `createsigningactivity regname=${c.register}&id=${c.id}`;
    const others =
      served.length > 0
        ? `, while ${served.map((s) => s.register).join(', ')} of the suite's own drafts was served`
        : ', and no register of the suite’s own drafts was served';
    // an answer that is no operation result at all (not a refusal) breaks the endpoint row's rule
    expectRule(
      c.outcome.ok || c.outcome.error instanceof ErpError,
      'PORTAL.SIGN.CREATESIGNINGACTIVITY',
      () => `${what}: not an operation result: ${describeOutcome(c.outcome)}`,
    );
    expectRule(
      c.outcome.ok,
      'PORTAL.SIGN.REGISTERS',
      () => `${what}: the docs list ${c.register} for createsigningactivity; ${describeOutcome(c.outcome)}${others}`,
    );
  }
}

/** Why a signing session stays (the residue line of the report). */
const SESSION_STAYS =
  'the documented API cannot remove a signing session (the portal delete does not serve ErpSignSessVc)';

describe('digital signing', () => {
  ruleTest(
    [
      'PORTAL.SIGN.REGISTERS',
      'PORTAL.SIGN.CREATESIGNINGACTIVITY',
      'PORTAL.SIGN.CREATESIGNINGSESS',
      'PORTAL.SIGN.STARTSIGNING',
      'PORTAL.SIGN.CANCELSIGNING',
      'PORTAL.SIGN.SIGNACTIVITY',
    ],
    'createsigningactivity for the suite’s own ORVc and IVVc; a session, the signing URL, cancel and sign answer as documented',
    async (ctx) => {
      const usercode = ctx.target.usercode;
      // a signing activity needs a signer; the parameters name none, so the signer is the acting user, which
      // only --usercode names for certain (the login need not be a user of the ERP)
      if (usercode === undefined)
        ctx.skip('no --usercode configured: a signing activity needs a signer, the acting user (§5 "usercode")');
      const records: { register: SignRegister; id: string }[] = [];
      const activities: string[] = [];
      try {
        for (const register of SIGN_REGISTERS)
          records.push({ register, id: await createDocument(ctx, register, [{ stp: '1' }], 'signing') });
        const created: { register: SignRegister; id: string; outcome: Outcome<unknown> }[] = [];
        let first: { register: SignRegister; id: string; activity: string | undefined } | undefined;
        for (const r of records) {
          const before = await activitySnapshot(ctx);
          const outcome = await attempt(
            ctx.client.portal.createsigningactivity({
              regname: r.register,
              id: r.id,
              usercode,
            } as never),
          );
          created.push({ ...r, outcome });
          if (!outcome.ok) continue;
          const made = await newActivity(ctx, before, outcome.value.raw);
          if (made.id !== undefined) activities.push(made.id);
          first ??= { ...r, activity: made.id };
        }
        judgeCreated(ctx, created);
        if (first?.activity === undefined)
          return ctx.skip('the signing activity made is not shown by the answer nor by the ActVc list');
        const user = { usercode };
        const activity = first.activity;

        const sess = await attempt(ctx.client.portal.createsigningsess({ id: activity, ...user } as never));
        // anything but a refusal may have made a session, and deleting the activity does not remove it
        if (!(!sess.ok && sess.error instanceof ErpError))
          ledgerPermanent(
            ctx,
            'ErpSignSessVc',
            `ActVc:${activity}`,
            `signing session of activity ${activity}: ${SESSION_STAYS}`,
          );
        expectSuccess(sess, 'PORTAL.SIGN.CREATESIGNINGSESS', `createsigningsess id=${activity}`);

        const start = await attempt(ctx.client.portal.startsigning({ id: activity, ...user } as never));
        const started = expectSuccess(start, 'PORTAL.SIGN.STARTSIGNING', `startsigning id=${activity}`);
        expectRule(
          URL_IN_BODY.test(started.raw.text),
          'PORTAL.SIGN.STARTSIGNING',
          () => `startsigning id=${activity} answered no URL: ${show(started.raw.text, 240)}`,
        );

        const cancel = await attempt(
          ctx.client.portal.cancelsigning({ id: first.id, regname: first.register } as never),
        );
        expectSuccess(cancel, 'PORTAL.SIGN.CANCELSIGNING', `cancelsigning id=${first.id}&regname=${first.register}`);

        // its parameters are not shown (rule 13): the activity's id is the natural guess, and any refusal holds
        const sign = await attempt(ctx.client.portal.signactivity({ id: activity, ...user } as never));
        expectRule(
          sign.ok || sign.error instanceof ErpError,
          'PORTAL.SIGN.SIGNACTIVITY',
          () => `signactivity id=${activity}: not an operation result: ${describeOutcome(sign)}`,
        );
      } finally {
        for (const a of activities) await deleteQuietly(ctx, 'ActVc', a);
        for (const r of records) await deleteQuietly(ctx, r.register, r.id);
      }
    },
    { writes: { permanent: 'a signing session (ErpSignSessVc, createsigningsess)' } },
  );
});
