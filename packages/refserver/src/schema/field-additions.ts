import { observed } from '@erpcert/contract';

/**
 * Fields the reference server knows beyond the main fields of the register table
 * (record-rest-api.md §2 "Registers, keys and main fields", via `@erpcert/contract`).
 *
 * The docs say "Full field lists of each register: not shown beyond the main fields above", so a
 * field is added here only when a doc line names it for that register. Each entry cites its line.
 * `kind`:
 * - `named`: the doc line names the field for this register;
 * - `inferred`: a doc line states a behaviour that needs the field (the line is quoted);
 * - `erpcert`: no doc line names it; the reference server needs it to derive a read-only register;
 * - `observed`: live servers have it (specs/observed-fields.yaml, issue 10); never contract.
 */
export interface FieldAddition {
  readonly register: string;
  /** `header` or `rows`. */
  readonly part: 'header' | 'rows';
  readonly fields: readonly string[];
  readonly kind: 'named' | 'inferred' | 'erpcert' | 'observed';
  /** Where the field comes from: document and section, quoting the line. */
  readonly source: string;
}

const PORTAL = 'portal-action-api.md §2 "Field-trigger catalogue"';
const RATES = ['FrRate', 'ToRateB1', 'ToRateB2', 'BaseRate1', 'BaseRate2'];
const UNITS = [
  'BasePrice',
  'PriceFactor',
  'UnitFactPrice',
  'UnitFactQuant',
  'UnitXval',
  'UnitYval',
  'UnitZval',
  'TaxTemplateCode',
];
const BANK_ROW = [
  'B1BankVal',
  'Coef',
  'FrRateBankVal',
  'ToRateB1BankVal',
  'ToRateB2BankVal',
  'BaseRate1BankVal',
  'BaseRate2BankVal',
];

/**
 * The observed fields of the documented registers in specs/observed-fields.yaml, one addition per register part
 * (those of portal registers, ActVc, come in through the observed module).
 */
const observedAdditions: readonly FieldAddition[] = observed.fields
  .filter((e) => e.documented)
  .map((e) => ({
    register: e.register,
    part: e.part,
    kind: 'observed',
    source: `specs/observed-fields.yaml (${e.evidence})`,
    fields: e.fields,
  }));

/** Every addition, in one list (see README "Known fields"). */
export const fieldAdditions: readonly FieldAddition[] = [
  {
    register: 'IVVc',
    part: 'header',
    kind: 'named',
    source: `${PORTAL}, IVVc H`,
    fields: [
      'ServiceDelDate',
      ...RATES,
      'PriceList',
      'RebCode',
      'Commision',
      'DiscPerc',
      'DiscSum',
      'LangCode',
      'SalesMan',
      'DelAddrCode',
      'FrPrice',
      'Region',
      'Location',
      'InvCountry',
      'DelCountry',
      'LoyaltyCardNr',
      'MachineName',
      'DrawerCode',
    ],
  },
  {
    register: 'IVVc',
    part: 'header',
    kind: 'inferred',
    source: 'record-rest-api.md §4 rule 1 "Setting CustCode on an invoice fills name, address, payment terms"',
    fields: ['Addr1', 'Addr2', 'Addr3'],
  },
  {
    register: 'IVVc',
    part: 'rows',
    kind: 'named',
    source: `${PORTAL}, IVVc R; record-rest-api.md §4 rule 4 (OrdRow)`,
    fields: [
      'PayMode',
      'CUPNr',
      'CuAccCode',
      ...UNITS,
      'SerialNr',
      'OrdRow',
      'CredOfficialSerNr',
      'GCNr',
      'CreditedRow',
    ],
  },
  {
    register: 'ORVc',
    part: 'header',
    kind: 'named',
    source: `${PORTAL}, ORVc H`,
    fields: [
      ...RATES,
      'PriceList',
      'PRCode',
      'Commision',
      'DiscPerc',
      'SalesMan',
      'DelAddrCode',
      'FrPrice',
      'Region',
      'Location',
      'InvCountry',
      'DelCountry',
      'OrderType',
      'DespatchDate',
      'FrVATCode',
      'RebCode',
    ],
  },
  {
    register: 'ORVc',
    part: 'header',
    kind: 'inferred',
    source: 'issue 3 / record-rest-api.md §4 rule 1: "CustCode on an invoice or order fills name, address"',
    fields: ['Addr1', 'Addr2', 'Addr3'],
  },
  {
    register: 'ORVc',
    part: 'rows',
    kind: 'named',
    source: `${PORTAL}, ORVc R`,
    fields: ['Recepy', 'vRebate', 'UnitCode', ...UNITS, 'PlanShipRow', 'SerialNr'],
  },
  {
    register: 'QTVc',
    part: 'header',
    kind: 'named',
    source: `${PORTAL}, QTVc H`,
    fields: [
      'MakeContactDate',
      ...RATES,
      'PlanShip',
      'PriceList',
      'PRCode',
      'DiscPerc',
      'SalesMan',
      'DelAddrCode',
      'Location',
      'Region',
      'InvCountry',
      'DelCountry',
      'InvoiceToCode',
      'RebCode',
    ],
  },
  {
    register: 'QTVc',
    part: 'rows',
    kind: 'named',
    source: `${PORTAL}, QTVc R; "values ... rows (array of row objects, each with stp and row fields)"`,
    fields: ['stp', 'vRebate', 'UnitCode', 'VATCode', ...UNITS, 'Markup', 'TimeClass', 'EMCode', 'SerialNr'],
  },
  {
    register: 'VIVc',
    part: 'header',
    kind: 'named',
    source: `${PORTAL}, VIVc H`,
    fields: [
      'BarCode',
      'SalesMan',
      'LangCode',
      ...RATES,
      'CredInv',
      'VEFactoring',
      'PRCode',
      'WithHoldingTax',
      'Objects',
    ],
  },
  {
    register: 'VIVc',
    part: 'rows',
    kind: 'named',
    source: `${PORTAL}, VIVc R`,
    fields: ['ACShort', 'TaxTemplateCode', 'InventoryNr'],
  },
  {
    register: 'CUVc',
    part: 'header',
    kind: 'named',
    source: `${PORTAL}, CUVc`,
    fields: ['SalesMan', 'Person', 'Nationality', 'DelCountry'],
  },
  {
    register: 'INVc',
    part: 'header',
    kind: 'named',
    source: `${PORTAL}, INVc`,
    fields: ['Width', 'Height', 'Depth', 'Density', 'NetWeight'],
  },
  {
    register: 'OPVc',
    part: 'header',
    kind: 'named',
    source: `${PORTAL}, OPVc H`,
    fields: ['TransDate'],
  },
  {
    register: 'OPVc',
    part: 'rows',
    kind: 'named',
    source: `${PORTAL}, OPVc R`,
    fields: ['InstNr', 'BankCurncy', 'RecCurncy', 'BankFeeVal', 'VATCode', 'ChequeNr', 'OrderNr', ...BANK_ROW],
  },
  {
    register: 'IPVc',
    part: 'header',
    kind: 'named',
    source: `${PORTAL}, IPVc H`,
    fields: ['MachineName', 'Status'],
  },
  {
    register: 'IPVc',
    part: 'rows',
    kind: 'named',
    source: `${PORTAL}, IPVc R`,
    fields: [
      'InstNr',
      'InvoiceOfficialSerNr',
      'CustName',
      'CUPNr',
      'OrderNr',
      'BankCurncy',
      'RecCurncy',
      'ChequeNr',
      'VATCode',
      'TaxTemplateCode',
      ...BANK_ROW,
    ],
  },
  {
    register: 'EmplVc',
    part: 'header',
    kind: 'named',
    source: `${PORTAL}, EmplVc (est, H)`,
    fields: ['TaxCode'],
  },
  {
    register: 'AbsenceVc',
    part: 'header',
    kind: 'named',
    source: `${PORTAL}, AbsenceVc (est, H)`,
    fields: ['Period1', 'Period2', 'PrevAbsSerNr'],
  },
  {
    register: 'PUVc',
    part: 'rows',
    kind: 'erpcert',
    source: 'none: SerBalVc (serial number balance, read-only) needs incoming serial numbers',
    fields: ['SerialNr'],
  },
  // last, so that the fields named by the docs keep their places in the output
  ...observedAdditions,
];
