// Field-trigger catalogue: __new and __copy, reserved fields, every catalogue field accepted (portal-action-api.md
// §2 "Field-trigger request body", "Field-trigger catalogue", §4 "Field trigger").
import type { FieldTriggerRequest } from '@erpcert/client';
import { getRule } from '@erpcert/contract';
import fc from 'fast-check';
import { describe } from 'vitest';
import { expectRule, fieldValue, type RuleContext, ruleProperty, show } from '../../src/harness/index.js';
import {
  attempt,
  firstPageIds,
  readBySerNr,
  TRIGGER_REGISTERS,
  type TriggerBody,
  trigger,
} from '../../src/harness/portal.js';

let sources: Promise<Record<string, string>> | undefined;

/** One existing record per register with a REST key the suite can read (for __copy). */
async function copySources(ctx: RuleContext): Promise<Record<string, string>> {
  sources ??= (async () => {
    const out: Record<string, string> = {};
    const pages = await firstPageIds(ctx);
    for (const r of ['IVVc', 'ORVc', 'QTVc'] as const) {
      const id = pages[r][0];
      if (id) out[r] = id;
    }
    return out;
  })();
  return sources;
}

/** The payroll registers of the catalogue and the portalcc that selects them (§2: est, lat). */
const PORTALCC: Readonly<Record<string, 'est' | 'lat'>> = {
  EmplVc: 'est',
  AbsenceVc: 'est',
  PlanAbsenceVc: 'est',
  EPEmpVc: 'lat',
  EPOffWorkVc: 'lat',
  EPOffWorkPlanVc: 'lat',
};
const PAYROLL_REGISTERS = Object.keys(PORTALCC);

/**
 * The rule a refused `__new` of `vcname` breaks: its first catalogue header field is asked as a trigger (one
 * request, on this failure path only). Refused too, the register is not served (TRIGGER.REGISTERS, §2 "Registers
 * per operation"); taken, `__new` itself is broken (TRIGGER.NEW: "Every supported register accepts __new").
 */
async function newRefusedRule(ctx: RuleContext, vcname: string, portalcc?: 'est' | 'lat'): Promise<string> {
  const header = (getRule(`PORTAL.TRIGGER.FIELDS_${vcname.toUpperCase()}`)?.params?.header ?? []) as string[];
  const field = header.find((f) => !f.startsWith('__'));
  if (field === undefined) return 'PORTAL.TRIGGER.NEW';
  const o = await attempt(
    ctx.client.portal.windowactions(portalcc ? { portalcc } : {}, {
      vcname: vcname as FieldTriggerRequest['vcname'],
      fieldname: field,
      value: '',
      rowindex: -1,
      values: { header: {} },
    }),
  );
  const took = o.ok && (o.value.body as TriggerBody).success === true;
  return took ? 'PORTAL.TRIGGER.NEW' : 'PORTAL.TRIGGER.REGISTERS';
}

/** The `__new` answer of each register, made once per run and reused by every field of it. */
const freshRecords = new Map<string, TriggerBody>();

/** One example per catalogue field: [register, index into its header or row fields, on a row]. */
function fieldExamples(): [string, number, boolean][] {
  const registers = [...TRIGGER_REGISTERS, ...PAYROLL_REGISTERS];
  const fieldsOf = (r: string, part: 'header' | 'rows') => {
    const params = getRule(`PORTAL.TRIGGER.FIELDS_${r.toUpperCase()}`)?.params as Record<string, unknown> | undefined;
    const list = (params?.[part] ?? []) as readonly string[];
    return list.filter((f) => !f.startsWith('__'));
  };
  const first = registers.map((r) => [r, 0, false] as [string, number, boolean]);
  const rest = registers.flatMap((r) => [
    ...fieldsOf(r, 'header')
      .slice(1)
      .map((_, i) => [r, i + 1, false] as [string, number, boolean]),
    ...fieldsOf(r, 'rows').map((_, i) => [r, i, true] as [string, number, boolean]),
  ]);
  return [...first, ...rest];
}

/** The countries whose payroll registers took a `__new` under their portalcc in this run. */
const countryShown = new Set<'est' | 'lat'>();

/**
 * Is the portal country `cc` shown selected (§1 "portalcc ... selecting country-specific behaviour (est payroll
 * module, lat payroll module)"; §3 windowactions: "EmplVc (est) ... EPEmpVc (lat)")? True once a payroll
 * register of `cc` took a `__new` under portalcc=`cc` in this run; else the other registers of `cc` are asked
 * (only when one was refused, so a passing run sends nothing more). When none of them is served under its own
 * country, portalcc did not select the country's payroll module: PORTAL.GLOBAL.PORTALCC FAILs, and the field
 * rules of that country get no verdict.
 */
async function portalCountryShown(ctx: RuleContext, cc: 'est' | 'lat', refused: string): Promise<boolean> {
  if (countryShown.has(cc)) return true;
  const others = PAYROLL_REGISTERS.filter((r) => PORTALCC[r] === cc && r !== refused);
  for (const vcname of others) {
    const o = await attempt(
      ctx.client.portal.windowactions(
        { portalcc: cc },
        { vcname: vcname as FieldTriggerRequest['vcname'], fieldname: '__new', rowindex: -1 },
      ),
    );
    if (o.ok && (o.value.body as { success?: unknown }).success === true) {
      countryShown.add(cc);
      return true;
    }
  }
  expectRule(
    false,
    'PORTAL.GLOBAL.PORTALCC',
    () =>
      `portalcc=${cc} selected none of the ${cc} payroll registers: windowactions __new of ${[refused, ...others].join(', ')} was refused under portalcc=${cc}`,
  );
  return false;
}

describe('field-trigger catalogue', () => {
  ruleProperty(
    [
      'PORTAL.TRIGGER.NEW',
      'PORTAL.TRIGGER.REGISTERS',
      'PORTAL.TRIGGER.NEW_AND_COPY_EVERYWHERE',
      'PORTAL.TRIGGER.COPY',
      'PORTAL.TRIGGER.ID',
      'PORTAL.TRIGGER.VCNAME',
      'PORTAL.TRIGGER.FIELDNAME',
    ],
    '__new answers a new record of every catalogue register; __copy answers a duplicate of the record in id',
    [fc.constantFrom(...TRIGGER_REGISTERS), fc.boolean()],
    async (ctx, vcname, copy) => {
      const known = await copySources(ctx);
      const id = known[vcname];
      if (copy && id !== undefined) {
        const body = await trigger(
          ctx,
          { vcname: vcname as FieldTriggerRequest['vcname'], fieldname: '__copy', id, rowindex: -1 },
          'PORTAL.TRIGGER.COPY',
        );
        const source = await readBySerNr(ctx, vcname, id);
        expectRule(
          body.success === true && fieldValue(body.record ?? {}, 'CustCode') === fieldValue(source ?? {}, 'CustCode'),
          'PORTAL.TRIGGER.COPY',
          () =>
            `__copy of ${vcname} ${id} (CustCode ${show(fieldValue(source ?? {}, 'CustCode'))}) answered ${show(body, 240)}`,
        );
        return;
      }
      const body = await trigger(
        ctx,
        { vcname: vcname as FieldTriggerRequest['vcname'], fieldname: '__new', rowindex: -1 },
        'PORTAL.TRIGGER.NEW',
      );
      if (body.success !== true)
        expectRule(
          false,
          await newRefusedRule(ctx, vcname),
          () => `__new of ${vcname} answered success ${show(body.success)}`,
        );
    },
    {
      numRuns: 10,
      // __copy of every register the target has a record of (COPY), and __new once (NEW)
      examples: async (ctx) => [
        ['IVVc', false] as [(typeof TRIGGER_REGISTERS)[number], boolean],
        ...Object.keys(await copySources(ctx)).map((r) => [r, true] as [(typeof TRIGGER_REGISTERS)[number], boolean]),
      ],
    },
  );

  ruleProperty(
    [
      'PORTAL.TRIGGER.ORVC_ORDERTYPE_RESERVED',
      'PORTAL.TRIGGER.ACTVC_ACTSTATE_RESERVED',
      'PORTAL.TRIGGER.IPVC_STATUS_RESERVED',
    ],
    'a reserved field (ORVc OrderType, ActVc ActState, IPVc Status) changes no other field',
    [
      fc.constantFrom(['ORVc', 'OrderType'] as const, ['ActVc', 'ActState'] as const, ['IPVc', 'Status'] as const),
      fc.stringMatching(/^[A-Z0-9]{1,6}$/),
    ],
    async (ctx, [vcname, field], value) => {
      const rule = `PORTAL.TRIGGER.${vcname.toUpperCase()}_${field.toUpperCase()}_RESERVED`;
      // the record as __new makes it, then the reserved field changed on it
      const fresh = await trigger(
        ctx,
        { vcname: vcname as FieldTriggerRequest['vcname'], fieldname: '__new', rowindex: -1 },
        rule,
      );
      const header: Record<string, string> = {};
      for (const [k, v] of Object.entries(fresh.record ?? {})) if (k !== 'rows' && typeof v === 'string') header[k] = v;
      header[field] = value;
      const body = await trigger(
        ctx,
        { vcname: vcname as FieldTriggerRequest['vcname'], fieldname: field, value, rowindex: -1, values: { header } },
        rule,
      );
      const changed = Object.entries(header).filter(([k, v]) => k !== field && (body.record?.[k] ?? '') !== v);
      expectRule(
        changed.length === 0,
        rule,
        () =>
          `${vcname} ${field}=${value} changed ${changed.map(([k, v]) => `${k} ${show(v)} -> ${show(body.record?.[k])}`).join(', ')}`,
      );
    },
    {
      numRuns: 6,
      // each reserved field once
      examples: [
        [['ORVc', 'OrderType'], 'X1'],
        [['ActVc', 'ActState'], 'X1'],
        [['IPVc', 'Status'], 'X1'],
      ],
    },
  );

  ruleProperty(
    [
      'PORTAL.TRIGGER.FIELDS_IVVC',
      'PORTAL.TRIGGER.FIELDS_ORVC',
      'PORTAL.TRIGGER.FIELDS_QTVC',
      'PORTAL.TRIGGER.FIELDS_VIVC',
      'PORTAL.TRIGGER.FIELDS_CUVC',
      'PORTAL.TRIGGER.FIELDS_ACTVC',
      'PORTAL.TRIGGER.FIELDS_OPVC',
      'PORTAL.TRIGGER.FIELDS_IPVC',
      'PORTAL.TRIGGER.FIELDS_INVC',
      'PORTAL.TRIGGER.FIELDS_EPORDERDOCVC',
      'PORTAL.TRIGGER.FIELDS_EMPLVC',
      'PORTAL.TRIGGER.FIELDS_ABSENCEVC',
      'PORTAL.TRIGGER.FIELDS_PLANABSENCEVC',
      'PORTAL.TRIGGER.FIELDS_EPEMPVC',
      'PORTAL.TRIGGER.FIELDS_EPOFFWORKVC',
      'PORTAL.TRIGGER.FIELDS_EPOFFWORKPLANVC',
      'PORTAL.TRIGGER.REGISTERS',
      'PORTAL.TRIGGER.NEW',
      'PORTAL.TRIGGER.VALUE',
      'PORTAL.TRIGGER.RESPONSE_SUCCESS',
      'PORTAL.TRIGGER.RESPONSE_RES',
      'PORTAL.GLOBAL.PORTALCC',
    ],
    'every catalogue field of every register (est/lat ones under portalcc) is accepted as a trigger on a new record',
    [fc.constantFrom(...TRIGGER_REGISTERS, ...PAYROLL_REGISTERS), fc.nat(), fc.boolean()],
    async (ctx, vcname, pick, onRow) => {
      const rule = `PORTAL.TRIGGER.FIELDS_${vcname.toUpperCase()}`;
      const portalcc = PORTALCC[vcname];
      const params = getRule(rule)?.params as { header?: string[]; rows?: string[] } | undefined;
      const rowFields = params?.rows ?? [];
      const useRow = onRow && rowFields.length > 0;
      const fields = (useRow ? rowFields : (params?.header ?? [])).filter((f) => !f.startsWith('__'));
      if (fields.length === 0) return;
      const field = fields[pick % fields.length]!;
      const options = { ...(portalcc ? { portalcc } : {}), judgesAcceptance: true };
      const newRequest = { vcname: vcname as FieldTriggerRequest['vcname'], fieldname: '__new', rowindex: -1 } as const;
      // the new record of a register, made once per run: a member example costs the field's trigger alone
      let fresh: TriggerBody | undefined = freshRecords.get(vcname);
      if (fresh === undefined && portalcc !== undefined) {
        // the portal country first: a country register refused because portalcc was not honoured is PORTALCC's
        const o = await attempt(ctx.client.portal.windowactions({ portalcc }, newRequest));
        if (o.ok && (o.value.body as TriggerBody).success === true) {
          countryShown.add(portalcc);
          fresh = o.value.body as TriggerBody; // its shape is judged by the field trigger below and by __new's test
        } else if (!(await portalCountryShown(ctx, portalcc, vcname))) return;
      }
      fresh ??= await trigger(ctx, newRequest, rule, options);
      if (fresh.success === true) freshRecords.set(vcname, fresh);
      const header: Record<string, string> = {};
      for (const [k, v] of Object.entries(fresh.record ?? {})) if (k !== 'rows' && typeof v === 'string') header[k] = v;
      const row = { stp: '1' };
      // the field's own value again (no change): any trigger must take it
      const value = useRow ? '' : (header[field] ?? '');
      const body = await trigger(
        ctx,
        {
          vcname: vcname as FieldTriggerRequest['vcname'],
          fieldname: field,
          value,
          rowindex: useRow ? 0 : -1,
          values: useRow ? { header, rows: [row] } : { header },
        },
        rule,
        options,
      );
      // a refused __new: the register is not served when the field is refused too, else __new itself broke
      if (fresh.success !== true)
        expectRule(
          false,
          body.success === true ? 'PORTAL.TRIGGER.NEW' : 'PORTAL.TRIGGER.REGISTERS',
          () =>
            `__new of ${vcname} answered success ${show(fresh.success)}${body.success === true ? '' : `, and its field ${field} was refused too: the register is not served`}`,
        );
      expectRule(
        body.success === true,
        rule,
        () => `${vcname} ${useRow ? 'row' : 'header'} field ${field}=${show(value)} answered ${show(body, 240)}`,
      );
    },
    {
      numRuns: 30,
      // every header and row field of every catalogue register (FIELDS_<register> lists them: issue 18 "Every
      // member, every run"), the first header field of each register first
      examples: fieldExamples(),
    },
  );
});
