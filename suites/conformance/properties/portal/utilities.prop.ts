// Read-only sub-actions whose answers are named but not shown (portal-action-api.md §4 "Endpoints", operation
// rule 11): each answers without an error for parameters the target holds. hasusernewapi has a documented shape.
import type { PortalOperationId } from '@erpcert/client';
import fc from 'fast-check';
import { describe } from 'vitest';
import { expectRule, fieldValue, type RuleContext, ruleProperty, ruleTest, show } from '../../src/harness/index.js';
import {
  assertPortalXml,
  attempt,
  blameRefusedRegister,
  describeOutcome,
  expectSuccess,
  textOf,
} from '../../src/harness/portal.js';

/** Values the parameters are filled from: a usercode, an activity, an employee, an invoice. */
interface Known {
  readonly usercode?: string;
  readonly activity?: string;
  readonly employee?: string;
  readonly invoice?: string;
}

let known: Promise<Known> | undefined;

async function knownValues(ctx: RuleContext): Promise<Known> {
  known ??= (async () => {
    const act = await attempt(ctx.client.portal.list('ActVc', { page: 1, perpage: 1, usercode: null }));
    const inv = await attempt(ctx.client.portal.list('IVVc', { page: 1, perpage: 1 }));
    const empl = await attempt(
      ctx.client.rest.list('EmplVc', { fields: 'Code', limit: 1 } as never, { format: 'json' }),
    );
    const pick = (v: string | undefined) => (v ? v : undefined);
    const out: Record<string, string | undefined> = {
      usercode: ctx.target.usercode,
      activity: act.ok ? pick(textOf(act.value.records[0] ?? {}, 'SerNr')) : undefined,
      invoice: inv.ok ? pick(textOf(inv.value.records[0] ?? {}, 'SerNr')) : undefined,
      employee: empl.ok ? pick(fieldValue(empl.value.records[0] ?? {}, 'Code')) : undefined,
    };
    return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as Known;
  })();
  return known;
}

/** A sub-action, its rule, and the parameters it needs from what the target holds. */
interface Case {
  readonly rule: string;
  readonly operation: PortalOperationId;
  readonly needs: readonly (keyof Known)[];
  readonly params: (k: Required<Known>) => Record<string, string>;
}

const CASES: readonly Case[] = [
  { rule: 'PORTAL.USERS.GETPORTALUSERS', operation: 'action_getportalusers', needs: [], params: () => ({}) },
  { rule: 'PORTAL.USERS.GETADMINUSERS', operation: 'action_getadminusers', needs: [], params: () => ({}) },
  { rule: 'PORTAL.USERS.GETALLUSERS', operation: 'action_getallusers', needs: [], params: () => ({}) },
  { rule: 'PORTAL.UTIL.GETDASHBOARDKPI', operation: 'action_getdashboardkpi', needs: [], params: () => ({}) },
  { rule: 'PORTAL.ACTIVITY.GETACTIVITYTYPES', operation: 'action_getactivitytypes', needs: [], params: () => ({}) },
  {
    rule: 'PORTAL.UTIL.GETNOTIFICATIONS',
    operation: 'action_getnotifications',
    needs: ['usercode'],
    params: (k) => ({ usercode: k.usercode }),
  },
  {
    rule: 'PORTAL.UTIL.GETBILINKS',
    operation: 'action_getbilinks',
    needs: ['usercode'],
    params: (k) => ({ usercode: k.usercode }),
  },
  {
    rule: 'PORTAL.UTIL.GETRECORDLINKS',
    operation: 'action_getrecordlinks',
    needs: ['invoice'],
    params: (k) => ({ regname: 'IVVc', id: k.invoice }),
  },
  {
    rule: 'PORTAL.UTIL.BUILDRECIDSTR',
    operation: 'action_buildrecidstr',
    needs: ['invoice'],
    params: (k) => ({ code: k.invoice, vcname: 'IVVc' }),
  },
  {
    rule: 'PORTAL.ACTIVITY.GETACTIVITYDATA',
    operation: 'action_getactivitydata',
    needs: ['activity'],
    params: (k) => ({ id: k.activity }),
  },
  {
    rule: 'PORTAL.ACTIVITY.GETCOMMENTS',
    operation: 'action_getcomments',
    needs: ['activity'],
    params: (k) => ({ id: k.activity }),
  },
  {
    rule: 'PORTAL.EMPLOYEE.GETEMPLOYEEINFO',
    operation: 'action_getemployeeinfo',
    needs: ['employee'],
    params: (k) => ({ empcode: k.employee }),
  },
  {
    rule: 'PORTAL.EMPLOYEE.GETVACATIONBALANCE',
    operation: 'action_getvacationbalance',
    needs: ['employee'],
    params: (k) => ({ empcode: k.employee }),
  },
  {
    rule: 'PORTAL.EMPLOYEE.GETEMPTIMEPLAN',
    operation: 'action_getemptimeplan',
    needs: ['employee'],
    params: (k) => ({ empcode: k.employee, sd: '2025-01-01', ed: '2025-01-31' }),
  },
];

describe('read-only sub-actions', () => {
  for (const c of CASES)
    ruleTest([c.rule, 'PORTAL.DISPATCH.SUBACTION'], `${c.operation.slice(7)} answers without an error`, async (ctx) => {
      const k = await knownValues(ctx);
      const missing = c.needs.filter((n) => k[n] === undefined);
      if (missing.length > 0) ctx.skip(`the target gave no ${missing.join(', ')} to call ${c.operation.slice(7)} with`);
      const params = c.params(k as Required<Known>);
      const o = await attempt(ctx.client.portal.call(c.operation, params as never));
      blameRefusedRegister(o, c.operation.slice(7));
      expectRule(o.ok, c.rule, () => `${c.operation.slice(7)} ${show(params)}: ${describeOutcome(o)}`);
    });

  ruleProperty(
    ['PORTAL.UTIL.HASUSERNEWAPI', 'PORTAL.UTIL.HASUSERNEWAPI_SHAPE', 'PORTAL.GLOBAL.USERCODE'],
    'hasusernewapi for any user of the target answers <res errstr="" hasapi="0/1"/>',
    async (ctx) => {
      const users = await attempt(ctx.client.portal.getallusers({}));
      const codes = users.ok
        ? (users.value.data?.UserVc ? [users.value.data.UserVc].flat() : [])
            .map((u) => (typeof u === 'object' && u !== null && !Array.isArray(u) ? u.Code : undefined))
            .filter((c): c is string => typeof c === 'string' && c !== '')
        : [];
      if (ctx.target.usercode !== undefined) codes.push(ctx.target.usercode);
      if (codes.length === 0) ctx.skip('no usercode configured and getallusers names none');
      return [fc.constantFrom(...codes)];
    },
    async (ctx, usercode) => {
      const o = await attempt(ctx.client.portal.hasusernewapi({ usercode }));
      const res = expectSuccess(o, 'PORTAL.UTIL.HASUSERNEWAPI', `hasusernewapi usercode=${usercode}`);
      ctx.observe('PORTAL.GLOBAL.USERCODE'); // the operation took the user named by usercode
      await assertPortalXml(ctx, res.raw.text, 'portal-hasusernewapi', 'PORTAL.UTIL.HASUSERNEWAPI_SHAPE');
      expectRule(
        res.hasapi === '0' || res.hasapi === '1',
        'PORTAL.UTIL.HASUSERNEWAPI_SHAPE',
        () => `hasusernewapi usercode=${usercode}: hasapi is ${show(res.hasapi)}`,
      );
    },
    { numRuns: 6 },
  );
});
