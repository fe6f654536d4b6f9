// Field-trigger catalogue: __new and __copy, reserved fields, every catalogue field accepted (portal-action-api.md
// §2 "Field-trigger request body", "Field-trigger catalogue", §4 "Field trigger").
import type { FieldTriggerRequest } from '@erpcert/client';
import { getRule } from '@erpcert/contract';
import fc from 'fast-check';
import { describe } from 'vitest';
import { expectRule, fieldValue, type RuleContext, ruleProperty, show } from '../../src/harness/index.js';
import { firstPageIds, readBySerNr, TRIGGER_REGISTERS, type TriggerBody, trigger } from '../../src/harness/portal.js';

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

const fresh = new Map<string, Promise<TriggerBody>>();

/**
 * The answer to __new of `vcname` (under `portalcc`), asked once per file and shared by the properties that
 * only need a new record to change a field on: __new has no effect on the target and answers the same template
 * each time. The request is checked as any trigger (under `rule`); a failed one is asked again by the next run.
 */
function newRecord(ctx: RuleContext, vcname: string, rule: string, portalcc?: 'est' | 'lat'): Promise<TriggerBody> {
  const key = `${vcname}/${portalcc ?? ''}`;
  let answer = fresh.get(key);
  if (answer === undefined) {
    answer = trigger(
      ctx,
      { vcname: vcname as FieldTriggerRequest['vcname'], fieldname: '__new', rowindex: -1 },
      rule,
      portalcc ? { portalcc } : {},
    );
    fresh.set(key, answer);
    answer.catch(() => fresh.delete(key));
  }
  return answer;
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

describe('field-trigger catalogue', () => {
  ruleProperty(
    [
      'PORTAL.TRIGGER.NEW',
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
      const body = await newRecord(ctx, vcname, 'PORTAL.TRIGGER.NEW');
      expectRule(
        body.success === true,
        'PORTAL.TRIGGER.NEW',
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
      const { record } = await newRecord(ctx, vcname, rule);
      const header: Record<string, string> = {};
      for (const [k, v] of Object.entries(record ?? {})) if (k !== 'rows' && typeof v === 'string') header[k] = v;
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
      const options = portalcc ? { portalcc } : {};
      const { record } = await newRecord(ctx, vcname, rule, portalcc);
      const header: Record<string, string> = {};
      for (const [k, v] of Object.entries(record ?? {})) if (k !== 'rows' && typeof v === 'string') header[k] = v;
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
      expectRule(
        body.success === true,
        rule,
        () => `${vcname} ${useRow ? 'row' : 'header'} field ${field}=${show(value)} answered ${show(body, 240)}`,
      );
    },
    {
      numRuns: 30,
      // a header field of every catalogue register (FIELDS_<register>) in every run
      examples: [...TRIGGER_REGISTERS, ...PAYROLL_REGISTERS].map((r) => [r, 0, false] as [string, number, boolean]),
    },
  );
});
