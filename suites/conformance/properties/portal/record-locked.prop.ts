// "Record is locked (returned in errstr by delete on a locked record)" (portal-action-api.md §7 "Errors"). What
// locks a record is not documented, and no documented operation makes a lock: a target that offers a way to
// hold one (the reference server's `POST /erpcert/lock`, its stand-in for a user who has the record open in
// another session; packages/refserver/README.md "What locks a record") is judged, any other SKIPs with the reason.
import { createClient, ErpError } from '@erpcert/client';
import { describe } from 'vitest';
import {
  clientConfigFor,
  deleteRecord,
  expectRule,
  type RuleContext,
  ruleTest,
  show,
  workerSession,
} from '../../src/harness/index.js';
import { attempt, createDocument, describeOutcome, readBySerNr } from '../../src/harness/portal.js';

/** The documented text (§7). */
const LOCKED = 'Record is locked';
const LOCK_PATH = '/erpcert/lock';

describe('record locks', () => {
  ruleTest(
    'PORTAL.ERRORS.RECORD_LOCKED',
    'delete of the suite’s own invoice while another session holds it open answers errstr "Record is locked" and keeps it',
    async (ctx: RuleContext) => {
      const id = await createDocument(ctx, 'IVVc', [{ stp: '1' }], 'locked');
      // the other session: a client of its own, whose HSESSION is not the worker's
      const other = createClient({ ...clientConfigFor(ctx.target, workerSession().recorder), useSession: true });
      const query: [string, string][] = [
        ['register', 'IVVc'],
        ['id', id],
        ...(ctx.target.compcode !== undefined ? ([['compno', String(ctx.target.compcode)]] as [string, string][]) : []),
      ];
      let locked = false;
      try {
        const lock = await other.request({ api: 'portal', operation: 'lock', method: 'POST', path: LOCK_PATH, query });
        locked = lock.status === 200 && /"locked"\s*:\s*true/.test(lock.text);
        if (!locked)
          ctx.skip(
            `the target offers no way to hold a record open in another session (POST ${LOCK_PATH} answered HTTP ${lock.status}); the docs name none`,
          );
        const o = await attempt(ctx.client.portal.delete({ register: 'IVVc', id } as never));
        const still = await readBySerNr(ctx, 'IVVc', id);
        expectRule(
          still !== undefined,
          'PORTAL.ERRORS.RECORD_LOCKED',
          () => `delete of IVVc ${id}, locked by another session, deleted it (${describeOutcome(o)})`,
        );
        expectRule(
          !o.ok && o.error instanceof ErpError && o.error.source === 'errstr' && o.error.description.startsWith(LOCKED),
          'PORTAL.ERRORS.RECORD_LOCKED',
          () =>
            `delete of IVVc ${id}, locked by another session, answered ${describeOutcome(o)}, not errstr ${show(LOCKED)}`,
        );
      } finally {
        if (locked)
          await other.request({ api: 'portal', operation: 'unlock', method: 'DELETE', path: LOCK_PATH, query });
        other.close();
        await attempt(deleteRecord(ctx, 'IVVc', id));
      }
    },
    { writes: true },
  );
});
