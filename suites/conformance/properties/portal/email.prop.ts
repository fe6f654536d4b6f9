// sendemail serves IVVc, ORVc and QTVc (portal-action-api.md §2 "Registers per operation"; §4 "Email document";
// operation rule 5: it needs an e-mail address on the customer, mail settings and a document template). The
// customer is the suite's own, with an address of the reserved domain `.invalid` (RFC 2606) that no mail can
// reach. Each register is judged only where its preconditions are shown met: its template by a generated
// document of the same record (§4 "Generate document"), the mail settings by a register that was served.
import { describe } from 'vitest';
import {
  createJson,
  decisiveWhen,
  deleteRecord,
  expectRule,
  type RuleContext,
  ruleTest,
  uniqueCode,
} from '../../src/harness/index.js';
import { attempt, createDocument, describeOutcome, failureText, type Outcome } from '../../src/harness/portal.js';

const EMAIL_REGISTERS = ['IVVc', 'ORVc', 'QTVc'] as const;
type EmailRegister = (typeof EMAIL_REGISTERS)[number];

async function deleteQuietly(ctx: RuleContext, register: string, id: string): Promise<void> {
  // a refused delete leaves the record in the ledger: the run's cleanup tries again and reports it
  await attempt(deleteRecord(ctx, register, id));
}

interface Sent {
  readonly register: EmailRegister;
  readonly id: string;
  /** action=document of the record succeeded (asked after a refused sendemail only): a template is available. */
  readonly template: boolean;
  readonly outcome: Outcome<unknown>;
}

describe('sendemail', () => {
  ruleTest(
    ['PORTAL.EMAIL.REGISTERS'],
    'sendemail serves IVVc, ORVc and QTVc: each of the suite’s own documents to a customer with an address is sent',
    async (ctx) => {
      const [contact] = await createJson(
        ctx,
        'CUVc',
        [
          {
            Code: uniqueCode(ctx, 'E'),
            Name: `${ctx.target.runTag} mail`,
            CUType: '1',
            eMail: `${ctx.target.runTag.toLowerCase()}@erpcert.invalid`,
          },
        ],
        { format: 'json' },
      );
      const customer = contact!.key;
      const docs: { register: EmailRegister; id: string }[] = [];
      try {
        for (const register of EMAIL_REGISTERS)
          docs.push({
            register,
            id: await createDocument(ctx, register, [{ stp: '1' }], 'sendemail', { CustCode: customer }),
          });
        const sent: Sent[] = [];
        for (const d of docs) {
          const outcome = await attempt(
            ctx.client.portal.sendemail({
              regname: d.register,
              id: d.id,
              ...(ctx.target.usercode !== undefined ? { usercode: ctx.target.usercode } : {}),
            } as never),
          );
          // whether a template is available matters only to a refusal (rule 5): asked then only
          const template = outcome.ok
            ? true
            : (await attempt(ctx.client.portal.document({ register: d.register, id: d.id } as never))).ok;
          sent.push({ ...d, template, outcome });
        }
        const served = sent.filter((s) => s.outcome.ok);
        // no register served: the mail settings (or the address) are not shown in place on the target (rule 5), so
        // a refusal of every register cannot be told from settings missing: no FAIL, and no PASS either
        if (served.length === 0) {
          ctx.observe(
            'PORTAL.EMAIL.REGISTERS',
            1,
            decisiveWhen(
              'PORTAL.EMAIL.REGISTERS',
              false,
              `a register served sendemail, showing operation rule 5's mail settings in place (every one answered ${failureText(sent[0]!.outcome)})`,
            ),
          );
          return;
        }
        for (const s of sent) {
          if (!s.template && !s.outcome.ok) continue; // no template shown for this register: rule 5, no verdict
          expectRule(
            s.outcome.ok,
            'PORTAL.EMAIL.REGISTERS',
            () =>
              `sendemail regname=${s.register}&id=${s.id}: ${describeOutcome(s.outcome)}, while ${served.map((x) => x.register).join(', ')} of the same customer was sent and a document of ${s.register} ${s.id} generates`,
          );
        }
      } finally {
        for (const d of docs) await deleteQuietly(ctx, d.register, d.id);
        await deleteQuietly(ctx, 'CUVc', customer);
      }
    },
    { writes: true },
  );
});
