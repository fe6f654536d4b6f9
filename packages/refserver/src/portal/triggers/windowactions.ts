import { checkValues } from '../../business/checks.js';
import { type Draft, Explicit } from '../../business/draft.js';
import type { RegisterSchema } from '../../schema/register-schema.js';
import { isDecimal, round } from '../../values/decimal.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { checkOperationRegister } from '../operation-registers.js';
import { wfOf } from '../workflow/wf-context.js';
import { otherEffects } from './effects-other.js';
import { salesEffects } from './effects-sales.js';
import { type EffectName, type SPECIAL_FIELDS, TRIGGER_CATALOGUE } from './trigger-catalogue.js';
import { decodeTriggerBody, type FieldType, parseTriggerRequest, type TriggerRequest } from './trigger-request.js';
import type { Effect, TriggerRun } from './trigger-run.js';
import { copyRecord, emptyDraft, emptyRow, newRecord, prepareActivity } from './trigger-specials.js';

const noEffect: Effect = () => {};

/** Every effect of the catalogue, by name (a missing one fails to compile). */
export const EFFECT_IMPLEMENTATIONS: Readonly<Record<EffectName, Effect>> = {
  none: noEffect,
  reserved: noEffect,
  ...salesEffects,
  ...otherEffects,
};

/** A value formatted per its headerfields/rowfields type code: 15 gets one decimal place. */
function formatted(value: string, type: FieldType['type'] | undefined): string {
  if (type === 15 && isDecimal(value)) return round(Number(value), 1).toFixed(1);
  return value;
}

/** The fields of an object in output order: the listed ones (headerfields/rowfields), else schema then extras. */
function project(
  values: Readonly<Record<string, string>>,
  order: readonly string[],
  listed: readonly FieldType[] | undefined,
  always: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  if (listed) {
    for (const f of always) if (f in values) out[f] = values[f]!;
    for (const { name, type } of listed) out[name] = formatted(values[name] ?? '', type);
    return out;
  }
  for (const f of order) out[f] = values[f] ?? '';
  for (const [f, v] of Object.entries(values)) if (!(f in out)) out[f] = v;
  return out;
}

/** The response `record`: header fields and a `rows` array (§2 "Field-trigger response body"). */
function recordJson(schema: RegisterSchema, d: Draft, req: TriggerRequest): Record<string, unknown> {
  return {
    ...project(d.fields, schema.fields, req.headerfields),
    rows: d.rows.map((r) => project(r, schema.rowFields, req.rowfields, ['stp'])),
  };
}

/** The client's form as a draft: every field of the register, the values sent, rows with every row field. */
function formDraft(schema: RegisterSchema, req: TriggerRequest): Draft {
  const d = emptyDraft(schema);
  Object.assign(d.fields, req.header);
  if (req.rows.length > 0 && schema.rowFields.length === 0)
    throw new PortalError(`${schema.name} has no rows; values.rows must be empty`);
  d.rows = req.rows.map((r) => ({ ...emptyRow(schema), ...r }));
  return d;
}

/** Finds the trigger of a field and checks rowindex against the part it belongs to. */
function triggerOf(schema: RegisterSchema, req: TriggerRequest, rows: number): EffectName {
  const cat = TRIGGER_CATALOGUE[schema.name]!;
  const header = cat.header[req.fieldname];
  const row = cat.rows[req.fieldname];
  if (header === undefined && row === undefined)
    throw new PortalError(
      `${schema.name} has no field trigger for "${req.fieldname}" (portal-action-api.md §2 "Field-trigger catalogue")`,
    );
  if (header !== undefined) {
    if (req.rowindex !== -1)
      throw new PortalError(
        `${req.fieldname} is a header field of ${schema.name}; rowindex must be -1, got ${req.rowindex}`,
      );
    return header;
  }
  if (req.rowindex === -1)
    throw new PortalError(`${req.fieldname} is a row field of ${schema.name}; rowindex must be 0 or more`);
  if (req.rowindex > rows)
    throw new PortalError(`rowindex ${req.rowindex} is beyond the ${rows} row(s) of values.rows (${rows} adds a row)`);
  return row!;
}

/** Runs one field trigger on the client's form. */
function runTrigger(ctx: PortalContext, schema: RegisterSchema, req: TriggerRequest, messages: string[]): Draft {
  const d = formDraft(schema, req);
  const effect = triggerOf(schema, req, d.rows.length);
  const ex = new Explicit();
  if (req.rowindex === -1) {
    d.fields[req.fieldname] = req.value;
    ex.add(req.fieldname);
  } else {
    if (req.rowindex === d.rows.length)
      d.rows.push({ ...emptyRow(schema), ...(schema.rowFields.includes('stp') ? { stp: '1' } : {}) });
    d.rows[req.rowindex]![req.fieldname] = req.value;
    ex.add(req.fieldname, req.rowindex);
  }
  checkValues(schema, d);
  const run: TriggerRun = {
    ctx,
    write: ctx.write,
    wf: wfOf(ctx),
    register: schema.name,
    d,
    ex,
    field: req.fieldname,
    row: req.rowindex,
    messages,
  };
  EFFECT_IMPLEMENTATIONS[effect](run);
  return d;
}

/**
 * `action=windowactions` (POST; plain JSON, or `encrypted=true`): simulates a field trigger on the record the
 * client sends and answers `{success, res, messages, record}` (portal-action-api.md §2 "Field-trigger
 * response body"). Nothing is saved. Failures answer `{"success":false,"res":false,"messages":[...]}`.
 * README "Field triggers".
 */
export const windowactions: PortalHandler = {
  kind: 'action',
  name: 'windowactions',
  json: true,
  methods: ['POST'],
  readsBody: true,
  handle(ctx) {
    const req = parseTriggerRequest(decodeTriggerBody(ctx));
    checkOperationRegister('windowactions', req.vcname, ctx.portalcc, 'vcname');
    const schema = ctx.app.store.schema(req.vcname);
    if (!schema || !TRIGGER_CATALOGUE[req.vcname])
      throw new PortalError(`register ${req.vcname} is not available on this server`);
    const wf = wfOf(ctx);
    const messages: string[] = [];
    let d: Draft;
    switch (req.fieldname as (typeof SPECIAL_FIELDS)[number]) {
      case '__new':
        d = newRecord(ctx.write, wf, schema, ctx.usercode);
        break;
      case '__copy':
        d = copyRecord(ctx.write, wf, schema, req.id);
        break;
      case '__prepareActivity':
        d = prepareActivity(wf, schema, req, ctx.usercode);
        break;
      default:
        d = runTrigger(ctx, schema, req, messages);
    }
    return {
      json: {
        success: true,
        res: true,
        messages: messages.map((description) => ({ description })),
        record: recordJson(schema, d, req),
      },
    };
  },
};
