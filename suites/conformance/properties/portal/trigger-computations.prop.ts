// Field triggers: the computations the catalogue states or implies, warnings and the encrypted body
// (portal-action-api.md §2 "Field-trigger request/response body", "Field-trigger catalogue", §4 "Field
// trigger", §7 "warnings ... while success stays true").
import type { FieldTriggerRequest } from '@erpcert/client';
import fc from 'fast-check';
import { describe } from 'vitest';
import { expectRule, fieldValue, ruleProperty, show } from '../../src/harness/index.js';
import { attempt, decimal, decimalText, near, trigger } from '../../src/harness/portal.js';

const dim = fc.integer({ min: 1, max: 50_000 }).map((n) => n / 100); // 0.01 to 500, two places
const money = fc.integer({ min: 1, max: 1_000_000 }).map((n) => n / 100);
const quant = fc.integer({ min: 1, max: 500 });
const percent = fc.integer({ min: 0, max: 9000 }).map((n) => n / 100); // 0 to 90 %

/** The Volume, NetWeight or Density trigger of INVc (catalogue INVc), with the dimensions it works on. */
const invcCase = fc.record({
  field: fc.constantFrom('Width', 'Height', 'Depth', 'Density', 'NetWeight'),
  width: dim,
  height: dim,
  depth: dim,
  density: fc.integer({ min: 1, max: 2000 }).map((n) => n / 100),
  netWeight: fc.integer({ min: 1, max: 100_000 }).map((n) => n / 100),
});

/** An IVVc row trigger (catalogue IVVc R: Quant, Price, Sum, vRebate). */
const rowCase = fc.record({
  field: fc.constantFrom('Quant', 'Price', 'vRebate', 'Sum'),
  quant,
  price: money,
  vRebate: percent,
  sumShare: fc.integer({ min: 10, max: 100 }), // Sum as a share of Quant x Price, in %
});

type InvcPick = typeof invcCase extends fc.Arbitrary<infer T> ? T : never;

function invcRequest(c: InvcPick) {
  const volume = c.width * c.height * c.depth;
  const header: Record<string, string> = {
    Width: decimalText(c.width),
    Height: decimalText(c.height),
    Depth: decimalText(c.depth),
  };
  if (c.field === 'Density') Object.assign(header, { Volume: String(volume), Density: decimalText(c.density) });
  if (c.field === 'NetWeight') Object.assign(header, { Volume: String(volume), NetWeight: decimalText(c.netWeight) });
  const request: FieldTriggerRequest = {
    vcname: 'INVc' as FieldTriggerRequest['vcname'],
    fieldname: c.field,
    value: header[c.field]!,
    rowindex: -1,
    values: { header },
  };
  return { request, volume };
}

type RowPick = typeof rowCase extends fc.Arbitrary<infer T> ? T : never;

function rowRequest(c: RowPick) {
  const gross = c.quant * c.price;
  const sum = Number(((gross * c.sumShare) / 100).toFixed(2));
  const row: Record<string, string> = {
    stp: '1',
    Quant: String(c.quant),
    Price: decimalText(c.price),
    vRebate: decimalText(c.vRebate),
  };
  if (c.field === 'Sum') row.Sum = decimalText(sum);
  const request: FieldTriggerRequest = {
    vcname: 'IVVc',
    fieldname: c.field,
    value: row[c.field]!,
    rowindex: 0,
    values: { header: {}, rows: [row] },
  };
  return { request, gross, sum };
}

/**
 * Values that no validation can take: IBANs with a wrong length or wrong check digits (ISO 13616), and VAT
 * or registration numbers of punctuation only.
 */
const badValue = fc.oneof(
  fc.record({
    field: fc.constant('IBANCode' as const),
    value: fc.oneof(
      fc.constantFrom('EE00 1234', 'DE00123456780000000000', 'GB82WEST1234569876543X', 'EE382200221020145680'),
      fc.stringMatching(/^[A-Z]{2}[0-9]{2}[A-Z0-9]{2,6}$/),
    ),
  }),
  fc.record({
    field: fc.constantFrom('VATNr' as const, 'RegNr1' as const),
    value: fc.stringMatching(/^[!?#%&*]{1,6}$/),
  }),
);

/** Payment terms the PayDeal property found (its arbitraries run before its examples are built). */
let payDeals: string[] = [];

describe('field triggers', () => {
  ruleProperty(
    [
      'PORTAL.TRIGGER.INVC_DIMENSIONS_VOLUME',
      'PORTAL.TRIGGER.INVC_VOLUME_FORMULA',
      'PORTAL.TRIGGER.INVC_DENSITY_NETWEIGHT',
      'PORTAL.TRIGGER.INVC_NETWEIGHT_DENSITY',
      'PORTAL.TRIGGER.INVC_DENSITY_FORMULA',
      'PORTAL.TRIGGER.FIELDS_INVC',
      'PORTAL.TRIGGER.WINDOWACTIONS',
      'PORTAL.TRIGGER.RESPONSE_RECORD',
    ],
    'INVc: Width/Height/Depth give Volume = W x H x D; Density gives NetWeight = Volume x Density; NetWeight gives Density = NetWeight / Volume',
    [invcCase],
    async (ctx, c) => {
      const { request, volume } = invcRequest(c);
      const body = await trigger(ctx, request, 'PORTAL.TRIGGER.FIELDS_INVC');
      const r = body.record ?? {};
      if (c.field === 'Density') {
        const want = volume * c.density;
        expectRule(
          near(decimal(r.NetWeight), want, 0.0051 + want * 1e-4),
          'PORTAL.TRIGGER.INVC_DENSITY_NETWEIGHT',
          () => `Density ${c.density} x Volume ${volume} = ${want}, NetWeight is ${show(r.NetWeight)}`,
        );
      } else if (c.field === 'NetWeight') {
        const want = c.netWeight / volume;
        expectRule(
          near(decimal(r.Density), want, 0.0051 + want * 1e-4),
          'PORTAL.TRIGGER.INVC_DENSITY_FORMULA',
          () => `NetWeight ${c.netWeight} / Volume ${volume} = ${want}, Density is ${show(r.Density)}`,
        );
        ctx.observe('PORTAL.TRIGGER.INVC_NETWEIGHT_DENSITY'); // the NetWeight trigger back-calculated Density
      } else {
        expectRule(
          near(decimal(r.Volume), volume, 0.0051 + volume * 1e-4),
          'PORTAL.TRIGGER.INVC_VOLUME_FORMULA',
          () =>
            `${c.width} x ${c.height} x ${c.depth} = ${volume}, Volume after a ${c.field} trigger is ${show(r.Volume)}`,
        );
        // a Width, Height or Depth trigger recalculated Volume
        if (['Width', 'Height', 'Depth'].includes(c.field)) ctx.observe('PORTAL.TRIGGER.INVC_DIMENSIONS_VOLUME');
      }
    },
    {
      numRuns: 15,
      // each trigger field once: VOLUME_FORMULA, DENSITY_NETWEIGHT and DENSITY_FORMULA in every run
      examples: (['Width', 'Height', 'Depth', 'Density', 'NetWeight'] as const).map((field) => [
        { field, width: 1.5, height: 2, depth: 0.5, density: 7.85, netWeight: 12 },
      ]),
    },
  );

  ruleProperty(
    [
      'PORTAL.TRIGGER.IVVC_ROW_SUM_FORMULA',
      'PORTAL.TRIGGER.IVVC_SUM_VREBATE',
      'PORTAL.TRIGGER.IVVC_VREBATE_FORMULA',
      'PORTAL.TRIGGER.ROWINDEX',
      'PORTAL.TRIGGER.VALUES',
      'PORTAL.TRIGGER.ENCRYPTED',
      'PORTAL.TRIGGER.FIELDS_IVVC',
    ],
    'IVVc rows: Quant/Price/vRebate give Sum = Quant x Price x (1 - vRebate/100); Sum gives vRebate back; the encrypted body answers the same',
    [rowCase, fc.boolean()],
    async (ctx, c, encrypted) => {
      const { request, gross, sum } = rowRequest(c);
      // the formulas are judged on the plain body; the encrypted one is ENCRYPTED's alone, so that a server
      // refusing `encrypted=true` breaks that rule and no formula
      const body = await trigger(ctx, request, 'PORTAL.TRIGGER.FIELDS_IVVC');
      // rowindex first: the same trigger as a header field (rowindex -1) must answer otherwise than the row's, or
      // the target did not read rowindex, and the row's formulas below were never asked of it
      const asHeader = await attempt(ctx.client.portal.windowactions({}, { ...request, rowindex: -1 }));
      expectRule(
        !asHeader.ok || JSON.stringify(asHeader.value.body) !== JSON.stringify(body),
        'PORTAL.TRIGGER.ROWINDEX',
        () =>
          `the row field ${c.field} with rowindex 0 answered what the same trigger with rowindex -1 (a header field) answers: ${show(body, 240)}`,
        { decisive: true },
      );
      const row = body.record?.rows?.[0] ?? {};
      if (c.field === 'Sum') {
        const want = (1 - sum / gross) * 100;
        expectRule(
          near(decimal(row.vRebate), want, 0.0101),
          'PORTAL.TRIGGER.IVVC_VREBATE_FORMULA',
          () =>
            `Quant ${c.quant}, Price ${c.price}, Sum ${sum}: vRebate = ${want.toFixed(4)}, got ${show(row.vRebate)}`,
        );
        ctx.observe('PORTAL.TRIGGER.IVVC_SUM_VREBATE'); // the Sum trigger back-calculated vRebate
      } else {
        const want = gross * (1 - c.vRebate / 100);
        expectRule(
          near(decimal(row.Sum), want, 0.0101),
          'PORTAL.TRIGGER.IVVC_ROW_SUM_FORMULA',
          () =>
            `Quant ${c.quant} x Price ${c.price} less ${c.vRebate} % = ${want.toFixed(4)}, Sum after a ${c.field} trigger is ${show(row.Sum)}`,
        );
      }
      if (encrypted) {
        const sealed = await trigger(ctx, request, 'PORTAL.TRIGGER.ENCRYPTED', { encrypted: true });
        expectRule(
          JSON.stringify(sealed) === JSON.stringify(body),
          'PORTAL.TRIGGER.ENCRYPTED',
          () => `the encrypted request answered ${show(sealed, 200)}, the plain one ${show(body, 200)}`,
        );
      }
    },
    {
      numRuns: 20,
      // each trigger field once (ROW_SUM_FORMULA, VREBATE_FORMULA), one of them encrypted (ENCRYPTED)
      examples: (['Quant', 'Price', 'vRebate', 'Sum'] as const).map((field, i) => [
        { field, quant: 3, price: 12.5, vRebate: 10, sumShare: 80 },
        i === 0,
      ]),
    },
  );

  ruleProperty(
    ['PORTAL.TRIGGER.IVVC_DISCPERC_DISCSUM', 'PORTAL.TRIGGER.IVVC_PAYDEAL', 'PORTAL.TRIGGER.VIVC_PAYDEAL_DUEDATE'],
    'IVVc DiscPerc computes DiscSum; IVVc PayDeal sets PayDate and VIVc PayDeal DueDate (not before the invoice date)',
    async (ctx) => {
      const terms = await attempt(
        ctx.client.rest.list('PDVc', { fields: 'Code', limit: 20 } as never, { format: 'json' }),
      );
      const codes = terms.ok ? terms.value.records.map((r) => fieldValue(r, 'Code')).filter((c) => c !== '') : [];
      if (codes.length === 0) ctx.skip('the target has no payment terms (PDVc) to trigger PayDeal with');
      payDeals = codes;
      return [
        fc.constantFrom('DiscPerc', 'IVVc PayDeal', 'VIVc PayDeal'),
        fc.constantFrom(...codes),
        fc.integer({ min: 100, max: 9000 }).map((n) => n / 100), // 1 to 90 %: DiscSum of 0 % may stay blank
        fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2029-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.array(fc.tuple(quant, money), { minLength: 1, maxLength: 3 }),
      ];
    },
    async (ctx, which, payDeal, discPerc, date, rows) => {
      const invDate = date.toISOString().slice(0, 10);
      if (which === 'DiscPerc') {
        const body = await trigger(
          ctx,
          {
            vcname: 'IVVc',
            fieldname: 'DiscPerc',
            value: decimalText(discPerc),
            rowindex: -1,
            values: {
              header: { DiscPerc: decimalText(discPerc) },
              rows: rows.map(([q, p]) => ({ stp: '1', Quant: String(q), Price: decimalText(p) })),
            },
          },
          'PORTAL.TRIGGER.IVVC_DISCPERC_DISCSUM',
        );
        const d = decimal(body.record?.DiscSum);
        expectRule(
          Number.isFinite(d),
          'PORTAL.TRIGGER.IVVC_DISCPERC_DISCSUM',
          () => `DiscPerc ${discPerc}: DiscSum is ${show(body.record?.DiscSum)}`,
        );
        return;
      }
      const register = which === 'IVVc PayDeal' ? 'IVVc' : 'VIVc';
      const field = register === 'IVVc' ? 'PayDate' : 'DueDate';
      const rule = register === 'IVVc' ? 'PORTAL.TRIGGER.IVVC_PAYDEAL' : 'PORTAL.TRIGGER.VIVC_PAYDEAL_DUEDATE';
      const body = await trigger(
        ctx,
        {
          vcname: register,
          fieldname: 'PayDeal',
          value: payDeal,
          rowindex: -1,
          values: { header: { InvDate: invDate, TransDate: invDate, PayDeal: payDeal } },
        },
        rule,
      );
      const due = String(body.record?.[field] ?? '');
      expectRule(
        /^\d{4}-\d{2}-\d{2}$/.test(due) && due >= invDate,
        rule,
        () => `${register} PayDeal ${payDeal} on an invoice of ${invDate}: ${field} is ${show(due)}`,
      );
    },
    {
      numRuns: 10,
      // each of the three triggers once, on the first payment terms found
      examples: () =>
        (['DiscPerc', 'IVVc PayDeal', 'VIVc PayDeal'] as const).map((which) => [
          which,
          payDeals[0]!,
          12.5,
          new Date('2025-03-14T00:00:00Z'),
          [[2, 10]] as [number, number][],
        ]),
    },
  );

  ruleProperty(
    [
      'PORTAL.TRIGGER.CUVC_IBAN_VALIDATES',
      'PORTAL.TRIGGER.CUVC_VATNR_VALIDATES',
      'PORTAL.TRIGGER.CUVC_REGNR1_VALIDATES',
      'PORTAL.ERRORS.TRIGGER_WARNINGS',
      'PORTAL.TRIGGER.RESPONSE_MESSAGES',
    ],
    'CUVc IBANCode, VATNr and RegNr1 that cannot be valid are reported (a warning in messages, success true)',
    // the ERP's home countries, whose rules a server knows (one without rules for a country may take anything)
    [badValue, fc.constantFrom('EE', 'LV', 'LT', 'FI')],
    async (ctx, { field, value }, country) => {
      const rule = `PORTAL.TRIGGER.CUVC_${field === 'IBANCode' ? 'IBAN' : field.toUpperCase()}_VALIDATES`;
      const request: FieldTriggerRequest = {
        vcname: 'CUVc',
        fieldname: field,
        value,
        rowindex: -1,
        values: { header: { CountryCode: country, [field]: value } },
      };
      const o = await attempt(ctx.client.portal.windowactions({}, request));
      if (!o.ok) return; // refused as an error: validated too
      const body = o.value.body as { success?: unknown; messages?: { description?: unknown }[] };
      if (body.success === false) return;
      // the messages array itself first (§2 "Field-trigger response body": description strings): a message
      // without its description is RESPONSE_MESSAGES', and whether it warns cannot be read from it
      if (body.messages !== undefined)
        expectRule(
          Array.isArray(body.messages) && body.messages.every((m) => typeof m?.description === 'string'),
          'PORTAL.TRIGGER.RESPONSE_MESSAGES',
          () => `messages is ${show(body.messages)}`,
        );
      expectRule(
        Array.isArray(body.messages) &&
          body.messages.some((m) => typeof m.description === 'string' && m.description !== ''),
        rule,
        () => `CUVc ${field} ${show(value)} (country ${country}) was taken without a warning: ${show(body, 240)}`,
      );
      expectRule(
        body.success === true,
        'PORTAL.ERRORS.TRIGGER_WARNINGS',
        () => `a warning came with success ${show(body.success)}`,
      );
    },
    {
      numRuns: 12,
      // each validated field once, in Estonia
      examples: [
        [{ field: 'IBANCode', value: 'EE00 1234' }, 'EE'],
        [{ field: 'VATNr', value: '!?#' }, 'EE'],
        [{ field: 'RegNr1', value: '%&*' }, 'EE'],
      ],
    },
  );
});
