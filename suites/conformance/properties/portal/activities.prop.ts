// Activities and callbacks (portal-action-api.md §4 "Link to source record", "Add comment", "Set task
// description", "Register callback"; §6 "Events"). The answers beyond "operation result" are not shown (operation
// rule 11), nor the request body shape of addcomment and settaskdescription (rule 12): the text is sent as the
// plain body. Every activity made here is the suite's own, made from its own draft invoice, ledgered and deleted.
import { randomUUID } from 'node:crypto';
import { ErpError } from '@erpcert/client';
import { describe } from 'vitest';
import {
  deleteRecord,
  expectRule,
  ledgerGone,
  ledgerPermanent,
  type RuleContext,
  ruleTest,
  show,
} from '../../src/harness/index.js';
import {
  activitySnapshot,
  assertPortalXml,
  attempt,
  createDocument,
  describeOutcome,
  expectSuccess,
  newActivity,
} from '../../src/harness/portal.js';

/** Deletes what the test made, keeping the first failure of the test itself. */
async function deleteQuietly(ctx: RuleContext, register: string, id: string | undefined): Promise<void> {
  if (id === undefined) return;
  // a refused delete leaves the record in the ledger: the run's cleanup tries again and reports it
  await attempt(deleteRecord(ctx, register, id));
}

describe('activities', () => {
  ruleTest(
    [
      'PORTAL.ACTIVITY.LINKTOSOURCERECORD',
      'PORTAL.ACTIVITY.ADDCOMMENT',
      'PORTAL.ACTIVITY.SETTASKDESCRIPTION',
      'PORTAL.DELETE.REGISTERS',
      'PORTAL.ATTACH.REGISTERS',
    ],
    'linktosourcerecord creates an activity for the suite’s own invoice; addcomment and settaskdescription on it answer an operation result; doupload and the portal delete serve it',
    async (ctx) => {
      const invoice = await createDocument(ctx, 'IVVc', [{ stp: '1' }], 'activity source');
      let activity: string | undefined;
      try {
        const before = await activitySnapshot(ctx);
        const what = `linktosourcerecord sourceRegName=IVVc&sourceRecordId=${invoice}`;
        const o = await attempt(
          ctx.client.portal.linktosourcerecord({ sourceRegName: 'IVVc', sourceRecordId: invoice } as never),
        );
        const linked = expectSuccess(o, 'PORTAL.ACTIVITY.LINKTOSOURCERECORD', what);
        const made = await newActivity(ctx, before, linked.raw);
        activity = made.id;
        expectRule(
          made.created,
          'PORTAL.ACTIVITY.LINKTOSOURCERECORD',
          () => `${what} answered a success, but the ActVc list shows no new activity (${show(linked.raw.text, 200)})`,
        );
        if (activity === undefined)
          ctx.skip('the target made an activity, but neither its answer nor the ActVc list shows which one');
        const text = `${ctx.target.runTag} comment`;
        const c = await attempt(ctx.client.portal.addcomment({ id: activity } as never, text));
        const comment = expectSuccess(c, 'PORTAL.ACTIVITY.ADDCOMMENT', `addcomment id=${activity}`);
        await assertPortalXml(ctx, comment.raw.text, 'portal-result', 'PORTAL.ACTIVITY.ADDCOMMENT');
        const d = await attempt(
          ctx.client.portal.settaskdescription({ id: activity } as never, `${ctx.target.runTag} task`),
        );
        const described = expectSuccess(d, 'PORTAL.ACTIVITY.SETTASKDESCRIPTION', `settaskdescription id=${activity}`);
        await assertPortalXml(ctx, described.raw.text, 'portal-result', 'PORTAL.ACTIVITY.SETTASKDESCRIPTION');
        // the ActVc member of ATTACH.REGISTERS (§2 "Registers per operation": doupload), full profile only: a file
        // uploaded to the activity and deleted again (two requests)
        if (ctx.profile !== 'gate') {
          const up = await attempt(
            ctx.client.portal.doupload(
              { regname: 'ActVc', id: activity },
              { filename: 'erpcert-activity.txt', content: Buffer.from(`${ctx.target.runTag} attachment\n`) },
            ),
          );
          const uploaded = expectSuccess(up, 'PORTAL.ATTACH.REGISTERS', `doupload regname=ActVc&id=${activity}`);
          ctx.observe('PORTAL.ATTACH.REGISTERS');
          if (uploaded.uuid)
            await attempt(ctx.client.portal.deleteattachment({ regname: 'ActVc', id: activity, file: uploaded.uuid }));
        }
        // the ActVc member of DELETE.REGISTERS (§2 "Registers per operation": delete), judged on the clean-up
        // delete of the activity, which /api/1/ cannot make (no extra request)
        const gone = await attempt(ctx.client.portal.delete({ register: 'ActVc', id: activity } as never));
        expectSuccess(gone, 'PORTAL.DELETE.REGISTERS', `delete register=ActVc&id=${activity}`);
        ledgerGone(ctx, 'ActVc', activity);
        ctx.observe('PORTAL.DELETE.REGISTERS');
        activity = undefined;
      } finally {
        await deleteQuietly(ctx, 'ActVc', activity);
        await deleteQuietly(ctx, 'IVVc', invoice);
      }
    },
    { writes: true },
  );
});

/** Why a registration stays (the residue line of the report). */
const REGISTRATION_STAYS = 'the documented API cannot remove a callback registration (registerapi has no counterpart)';

describe('events', () => {
  // §6: registerapi "registers an external callback address"; the payload and when it is sent are not shown,
  // so the registration is judged by its answer only: an operation result without an error. The address is
  // the discard port of the target's own loopback, so no notification goes anywhere. The documented API has no
  // way to remove a registration: the test runs against the embedded server or with --allow-permanent-writes,
  // and a registration it may have made on a target that stays is residue in the report (permanent-writes.ts).
  ruleTest(
    ['PORTAL.EVENTS.REGISTERAPI', 'PORTAL.EVENTS.REGISTERAPI_REQUEST'],
    'registerapi with UUID, url, port and path registers the callback: an operation result with an empty errstr',
    async (ctx) => {
      const params = { UUID: randomUUID(), url: '127.0.0.1', port: '9', path: `/erpcert/${ctx.target.runTag}` };
      const what = `registerapi ${new URLSearchParams(params).toString()}`;
      const o = await attempt(ctx.client.portal.registerapi(params as never));
      // anything but a refusal may have registered it: the report lists it rather than miss one
      if (!(!o.ok && o.error instanceof ErpError))
        ledgerPermanent(
          ctx,
          'registerapi',
          params.UUID,
          `callback registration to ${params.url}:${params.port}${params.path}: ${REGISTRATION_STAYS}`,
        );
      // an answer that is not an operation result at all breaks the request rule; a refusal, the registration
      expectRule(
        o.ok || o.error instanceof ErpError,
        'PORTAL.EVENTS.REGISTERAPI_REQUEST',
        () => `${what}: not an operation result: ${describeOutcome(o)}`,
      );
      const r = expectSuccess(o, 'PORTAL.EVENTS.REGISTERAPI', what);
      await assertPortalXml(ctx, r.raw.text, 'portal-result', 'PORTAL.EVENTS.REGISTERAPI_REQUEST');
    },
    { writes: { permanent: 'a callback registration (registerapi)' } },
  );
});
