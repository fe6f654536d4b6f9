// Field triggers that load target configuration (portal-action-api.md §2 "Field-trigger catalogue"): IVVc
// MachineName (sets DrawerCode), ORVc Quant (may change price for quantity discounts), ORVc Recepy (loads
// recipe/BOM), ActVc TextCode (loads text template). The docs name no register of machines, recipes or text
// templates, so the codes come from the target's own data: an invoice that names a machine and its drawer, an
// order row with a recipe, an activity row with a text template (getactivitydata, whose body is not shown: what
// it shows is used, nothing is required of it). A target whose data shows none SKIPs with the reason.
import { describe } from 'vitest';
import { expectRule, fieldValue, type RuleContext, rowsOf, ruleTest, show } from '../../src/harness/index.js';
import { attempt, decimal, documentBasis, firstPageIds, trigger } from '../../src/harness/portal.js';

/** At most this many codes of each kind are triggered (every one found, up to it). */
const MAX_CODES = 3;
/**
 * The gate profile's: one code of each kind observes the test's rule, the one thing the gate spends requests
 * on (gate-budget.ts); the full profile triggers up to {@link MAX_CODES}. @defaultValue 1
 */
const GATE_MAX_CODES = 1;

/** How many codes of each kind the profile of `ctx` triggers. */
function maxCodes(ctx: Pick<RuleContext, 'profile'>): number {
  return ctx.profile === 'gate' ? GATE_MAX_CODES : MAX_CODES;
}

const distinct = (values: readonly string[], max: number) => [...new Set(values.filter((v) => v !== ''))].slice(0, max);

/** Machines that the target's invoices show with a drawer. */
async function machinesWithDrawer(ctx: RuleContext): Promise<string[]> {
  const o = await attempt(
    ctx.client.rest.list('IVVc', { fields: 'SerNr,MachineName,DrawerCode', limit: 500 } as never, { format: 'json' }),
  );
  if (!o.ok) return [];
  return distinct(
    o.value.records.filter((r) => fieldValue(r, 'DrawerCode') !== '').map((r) => fieldValue(r, 'MachineName')),
    maxCodes(ctx),
  );
}

/** Recipe codes that the target's order rows show. */
async function recipeCodes(ctx: RuleContext): Promise<string[]> {
  const o = await attempt(
    ctx.client.rest.list('ORVc', { fields: 'SerNr,Recepy', limit: 500 } as never, { format: 'json' }),
  );
  if (!o.ok) return [];
  return distinct(
    o.value.records.flatMap((r) => rowsOf(r).map((row) => fieldValue(row, 'Recepy'))),
    maxCodes(ctx),
  );
}

/** Text template codes that the rows of the target's activities show (getactivitydata, up to 20 activities). */
async function textCodes(ctx: RuleContext): Promise<string[]> {
  const codes: string[] = [];
  for (const id of (await firstPageIds(ctx)).ActVc) {
    if (distinct(codes, maxCodes(ctx)).length >= maxCodes(ctx)) continue;
    const d = await attempt(ctx.client.portal.getactivitydata({ id } as never));
    // the body is not shown (rule 11): TextCode elements anywhere in it are read, none is required
    if (d.ok) for (const m of d.value.raw.text.matchAll(/<TextCode>([^<]+)<\/TextCode>/g)) codes.push(m[1]!.trim());
  }
  return distinct(codes, maxCodes(ctx));
}

/** The row fields of a trigger answer other than the ones sent unchanged. */
function changedRowFields(sent: Readonly<Record<string, string>>, got: Readonly<Record<string, unknown>> | undefined) {
  return Object.entries(got ?? {})
    .filter(([k, v]) => k !== 'stp' && typeof v === 'string' && v !== '' && v !== (sent[k] ?? ''))
    .map(([k]) => k);
}

describe('field triggers that load target configuration', () => {
  ruleTest(
    'PORTAL.TRIGGER.IVVC_MACHINENAME_DRAWER',
    'IVVc MachineName of a machine the target’s invoices show with a drawer sets DrawerCode',
    async (ctx) => {
      const machines = await machinesWithDrawer(ctx);
      if (machines.length === 0) ctx.skip('no invoice of the target names a machine (MachineName) with a DrawerCode');
      for (const machine of machines) {
        const body = await trigger(
          ctx,
          {
            vcname: 'IVVc',
            fieldname: 'MachineName',
            value: machine,
            rowindex: -1,
            values: { header: { MachineName: machine, DrawerCode: '' } },
          },
          'PORTAL.TRIGGER.IVVC_MACHINENAME_DRAWER',
        );
        expectRule(
          fieldValue(body.record ?? {}, 'DrawerCode') !== '',
          'PORTAL.TRIGGER.IVVC_MACHINENAME_DRAWER',
          () => `MachineName ${show(machine)} (an invoice of the target shows its drawer) left DrawerCode empty`,
        );
      }
    },
  );

  ruleTest(
    'PORTAL.TRIGGER.ORVC_QUANT_DISCOUNT',
    'ORVc row Quant changes Price at most downwards: a quantity discount, never a surcharge for more',
    async (ctx) => {
      const basis = await documentBasis(ctx);
      for (const item of basis.items.slice(0, maxCodes(ctx))) {
        const price = async (quant: string) => {
          const row = { stp: '1', ArtCode: item, Quant: quant, Price: '100' };
          const body = await trigger(
            ctx,
            {
              vcname: 'ORVc',
              fieldname: 'Quant',
              value: quant,
              rowindex: 0,
              values: { header: { CustCode: basis.customer }, rows: [row] },
            },
            'PORTAL.TRIGGER.ORVC_QUANT_DISCOUNT',
          );
          return decimal(body.record?.rows?.[0]?.Price);
        };
        const one = await price('1');
        const many = await price('1000');
        // a price the answer does not show is not judged here (the record's shape is RESPONSE_RECORD's)
        if (!Number.isFinite(one) || !Number.isFinite(many)) continue;
        expectRule(
          many <= one + 0.005,
          'PORTAL.TRIGGER.ORVC_QUANT_DISCOUNT',
          () => `item ${item} for ${basis.customer}: Price ${one} at Quant 1 but ${many} at Quant 1000`,
        );
      }
    },
  );

  ruleTest(
    'PORTAL.TRIGGER.ORVC_RECEPY',
    'ORVc row Recepy with a recipe the target’s orders show loads the recipe (BOM) into the record',
    async (ctx) => {
      const codes = await recipeCodes(ctx);
      if (codes.length === 0) ctx.skip('no order row of the target names a recipe (Recepy)');
      const basis = await documentBasis(ctx);
      for (const code of codes) {
        const row = { stp: '1', ArtCode: basis.items[0]!, Quant: '1', Recepy: code };
        const body = await trigger(
          ctx,
          {
            vcname: 'ORVc',
            fieldname: 'Recepy',
            value: code,
            rowindex: 0,
            values: { header: { CustCode: basis.customer }, rows: [row] },
          },
          'PORTAL.TRIGGER.ORVC_RECEPY',
        );
        const rows = body.record?.rows ?? [];
        // the recipe's parts come as rows (more rows than sent) or in place of the row's item
        const replaced = rows.length === 1 && !['', row.ArtCode].includes(fieldValue(rows[0] ?? {}, 'ArtCode'));
        const loaded = rows.length > 1 || replaced;
        expectRule(
          loaded,
          'PORTAL.TRIGGER.ORVC_RECEPY',
          () => `Recepy ${show(code)} (an order row of the target names it) loaded nothing: rows ${show(rows, 240)}`,
        );
      }
    },
  );

  ruleTest(
    'PORTAL.TRIGGER.ACTVC_TEXTCODE',
    'ActVc row TextCode with a template the target’s activities show loads the text into the row',
    async (ctx) => {
      const codes = await textCodes(ctx);
      if (codes.length === 0) ctx.skip('no activity row of the target shows a text template (TextCode)');
      for (const code of codes) {
        const row = { TextCode: code };
        const body = await trigger(
          ctx,
          { vcname: 'ActVc', fieldname: 'TextCode', value: code, rowindex: 0, values: { header: {}, rows: [row] } },
          'PORTAL.TRIGGER.ACTVC_TEXTCODE',
        );
        const got = body.record?.rows?.[0];
        expectRule(
          changedRowFields(row, got).length > 0,
          'PORTAL.TRIGGER.ACTVC_TEXTCODE',
          () =>
            `TextCode ${show(code)} (an activity row of the target shows it) loaded nothing into the row: ${show(got)}`,
        );
      }
    },
  );
});
