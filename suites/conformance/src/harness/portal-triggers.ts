/**
 * Field triggers for the properties (portal-action-api.md §2 "Field-trigger request body", "Field-trigger
 * response body", "Field-trigger catalogue", §4 "Field trigger", §7): sending one, plain or encrypted,
 * checking the response against its schema, and reading decimals out of the record.
 */
import type { FieldTriggerRequest, PortalTriggerResult } from '@erpcert/client';
import { assertJsonValid } from './assert/schemas.js';
import { observe } from './observations.js';
import { attempt, describeOutcome, jsonBody } from './portal-outcome.js';
import type { RuleContext } from './rule-test.js';
import { expectRule, show } from './violation.js';

/** The catalogue registers (§2 "Field-trigger catalogue"); est/lat ones need portalcc. */
export const TRIGGER_REGISTERS = [
  'IVVc',
  'ORVc',
  'QTVc',
  'VIVc',
  'CUVc',
  'ActVc',
  'OPVc',
  'IPVc',
  'INVc',
  'EPOrderDocVc',
] as const;

/** A trigger response body as the docs describe it. */
export interface TriggerBody {
  readonly success?: unknown;
  readonly res?: unknown;
  readonly messages?: readonly { readonly description?: unknown }[];
  readonly record?: Readonly<Record<string, unknown>> & {
    readonly rows?: readonly Readonly<Record<string, unknown>>[];
  };
}

/**
 * Sends a trigger and checks the documented response shape (schema PortalFieldTriggerResponse; record with
 * a rows array). Fails the rule `rule` when the target refuses it outright. A trigger answered `success: false`
 * is judged by the caller only where the register takes a `__new` (else the test SKIPs: the register is not served).
 */
export async function trigger(
  ctx: RuleContext,
  request: FieldTriggerRequest,
  rule: string,
  options: {
    readonly encrypted?: boolean;
    readonly portalcc?: 'est' | 'lat';
    /**
     * The caller judges a refusal itself (the catalogue's field and register tests); otherwise a refused trigger
     * is judged only once the register is shown served (`requireServed`). @defaultValue false
     */
    readonly judgesAcceptance?: boolean;
  } = {},
): Promise<TriggerBody> {
  const params = options.portalcc ? { portalcc: options.portalcc } : {};
  const o = await attempt(ctx.client.portal.windowactions(params, request, { encrypted: options.encrypted === true }));
  expectRule(o.ok, rule, () => `windowactions ${show(request, 240)}: ${describeOutcome(o)}`);
  const result: PortalTriggerResult = o.value;
  const body = result.body as TriggerBody;
  expectRule(
    options.encrypted === true || jsonBody(result.raw) !== undefined,
    'PORTAL.DISPATCH.JSON_OPERATIONS',
    () => `windowactions answered no JSON: ${show(result.raw.text, 200)}`,
  );
  assertJsonValid(
    body,
    { spec: 'portal-action', schema: 'PortalFieldTriggerResponse' },
    'PORTAL.TRIGGER.WINDOWACTIONS',
  );
  expectRule(
    typeof body.success === 'boolean',
    'PORTAL.TRIGGER.RESPONSE_SUCCESS',
    () => `success is ${show(body.success)}`,
  );
  expectRule(typeof body.res === 'boolean', 'PORTAL.TRIGGER.RESPONSE_RES', () => `res is ${show(body.res)}`);
  if (body.messages !== undefined)
    expectRule(
      Array.isArray(body.messages) && body.messages.every((m) => typeof m?.description === 'string'),
      'PORTAL.TRIGGER.RESPONSE_MESSAGES',
      () => `messages is ${show(body.messages)}`,
    );
  if (body.success !== true && !options.judgesAcceptance && !['__new', '__copy'].includes(String(request.fieldname)))
    await requireServed(ctx, String(request.vcname), options.portalcc);
  if (body.success === true) {
    expectRule(
      typeof body.record === 'object' && body.record !== null && Array.isArray(body.record.rows ?? []),
      'PORTAL.TRIGGER.RESPONSE_RECORD',
      () => `a successful trigger answered record ${show(body.record, 200)}`,
    );
    for (const rule of acceptedRequestRules(request, options)) observe(rule);
  }
  return body;
}

/** Whether each register (and portal country) takes a `__new`, asked once per run. */
const served = new Map<string, Promise<boolean>>();

/**
 * Precondition of a trigger's effect rule: the register is served (§2 "Registers per operation": windowactions).
 * Asked only after a refused trigger, with one `__new` of the register (once per run): refused too, the register
 * takes no trigger at all, which PORTAL.TRIGGER.REGISTERS (and NEW) judge; the effect cannot be judged, and the
 * test SKIPs with the reason. Taken, the refusal stands as the effect rule's.
 */
async function requireServed(ctx: RuleContext, vcname: string, portalcc: 'est' | 'lat' | undefined): Promise<void> {
  const key = `${vcname}:${portalcc ?? ''}`;
  let asked = served.get(key);
  if (asked === undefined) {
    asked = attempt(
      ctx.client.portal.windowactions(portalcc ? { portalcc } : {}, {
        vcname: vcname as FieldTriggerRequest['vcname'],
        fieldname: '__new',
        rowindex: -1,
      }),
    ).then((o) => o.ok && (o.value.body as TriggerBody).success === true);
    served.set(key, asked);
  }
  if (!(await asked))
    ctx.skip(
      `${vcname} takes no trigger (its __new is refused too): the register is not served, which PORTAL.TRIGGER.REGISTERS judges`,
    );
}

/** The registers vcname names (§2 "Field-trigger request body"). */
const VCNAMES = new Set(['IVVc', 'ORVc', 'CUVc', 'ActVc', 'QTVc', 'VIVc']);

/**
 * The request rules a successful trigger observes: the target took the request's vcname, fieldname and each
 * parameter it carried (value, id, rowindex, rowfields, values, sourceRegister, sourceRecordId, portalcc) and
 * answered a success, so each of those rules was seen holding once.
 */
function acceptedRequestRules(request: FieldTriggerRequest, options: { readonly portalcc?: 'est' | 'lat' }): string[] {
  const r = request as Record<string, unknown>;
  const out = ['PORTAL.TRIGGER.FIELDNAME', 'PORTAL.TRIGGER.REGISTERS'];
  if (VCNAMES.has(String(r.vcname))) out.push('PORTAL.TRIGGER.VCNAME');
  if (r.fieldname === '__new' || r.fieldname === '__copy') out.push('PORTAL.TRIGGER.NEW_AND_COPY_EVERYWHERE');
  const params: [string, string][] = [
    ['value', 'PORTAL.TRIGGER.VALUE'],
    ['id', 'PORTAL.TRIGGER.ID'],
    ['rowindex', 'PORTAL.TRIGGER.ROWINDEX'],
    ['rowfields', 'PORTAL.TRIGGER.ROWFIELDS'],
    ['values', 'PORTAL.TRIGGER.VALUES'],
    ['sourceRegister', 'PORTAL.TRIGGER.SOURCE_REGISTER'],
    ['sourceRecordId', 'PORTAL.TRIGGER.SOURCE_RECORD_ID'],
  ];
  for (const [param, rule] of params) if (r[param] !== undefined) out.push(rule);
  if (options.portalcc !== undefined) out.push('PORTAL.GLOBAL.PORTALCC');
  return out;
}

/** A decimal of the record (a comma as decimal separator read too); NaN when it is not one. */
export function decimal(value: unknown): number {
  if (typeof value !== 'string' || value.trim() === '') return Number.NaN;
  return Number(value.trim().replace(/\s/g, '').replace(',', '.'));
}

/** `got` is `want` up to rounding to 2 decimals (money) or a relative 1e-6. */
export function near(got: number, want: number, absolute = 0.0051): boolean {
  return Number.isFinite(got) && Math.abs(got - want) <= Math.max(absolute, Math.abs(want) * 1e-6);
}

/** A decimal with up to `places` places as the text a client sends. */
export function decimalText(n: number, places = 2): string {
  return Number(n.toFixed(places)).toString();
}
