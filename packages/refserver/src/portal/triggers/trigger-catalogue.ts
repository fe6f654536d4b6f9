/**
 * portal-action-api.md §2 "Field-trigger catalogue" as data: register -> header (H) / row (R) field -> effect.
 * The ONE table windowactions dispatches from; trigger-catalogue.test.ts parses the doc's catalogue and checks
 * that every field is here, in the right part, and nothing else. `EFFECTS` says what each effect does
 * (README "Field triggers" prints it); where the docs state no effect the field is `none`: the record is
 * echoed back unchanged ("reserved, no effect" fields are `reserved`, the same).
 */
export const EFFECTS = {
  none: 'no effect stated: the record is echoed back unchanged',
  reserved: 'reserved, no effect (doc): the record is echoed back unchanged',
  customer:
    'loads the customer defaults (name, address, terms, currency, country, salesman, price list, AR account); rows repriced when the price list changes; sums',
  customerByName: 'finds the customer whose name is or starts with the text (one match) and loads it like CustCode',
  docDate: 'sets TransDate and the due date (IVVc PayDate, VIVc DueDate) from the payment terms',
  rates: 'recalculates the sums, BaseSum4 = Sum4 x ToRateB1 / FrRate (1:1 when blank)',
  payDeal:
    'loads the payment terms: IVVc PayDate, InvType (K is a credit note) and PriceList (the customer class price list), rows repriced; VIVc DueDate',
  priceList: 'reprices the item rows from the price list (PLVc, else the item base price); sums',
  rebate: 'applies the discount matrix (RebVc) and its quantity scale (StaffVc) to every item row; sums',
  discount: 'recalculates the sums; IVVc DiscSum = net x DiscPerc / 100',
  deliveryAddress: 'loads the delivery address (DelAddrVc of the customer): DelCountry',
  drawer: 'sets DrawerCode: the cash drawer configured for the machine, else the machine name',
  item: 'loads the item: Spec, Price (price list, else base price), VATCode, UnitCode, SalesAcc, Quant 1 when empty; ORVc quantity discount; sums',
  rowSum: 'row Sum = Quant x Price x (1 - vRebate / 100); header sums',
  rowSumBack: 'back-calculates vRebate = (1 - Sum / (Quant x Price)) x 100; header sums',
  quantity:
    'quantity discount: with a discount matrix (RebCode) Price = list price less the scale discount; row Sum; sums',
  vat: 'recalculates the VAT sums (an unknown VAT code is refused, as on every write)',
  recipe: 'loads the recipe (BOM): one text row (stp 2) per component after the row, quantities times the row Quant',
  markup: 'Price = the item cost (InPrice) x (1 + Markup / 100); row Sum; sums',
  vendor: 'loads the supplier: VEName, PayDeal, CurncyCode; DueDate',
  purchaseTotals:
    'recalculates VATVal and PayVal from the rows where not set by the changed field; rule 5 mismatch is a warning',
  account: 'loads the account VAT code; sums',
  purchaseRowSum: 'recalculates VATVal and PayVal',
  iban: 'validates the IBAN (country length, mod 97) and normalises it; a bad one is a warning',
  vatNr:
    'validates the VAT number per the EU VAT rules of its prefix (Estonian check digit) and normalises it; warnings',
  regNr: 'validates the registration number per the rules of the contact country (EE, LV, LT, FI); warnings',
  contact: 'loads the contact name into CUName; an unknown contact is a warning',
  actType: 'checks the activity type against getactivitytypes; an unknown type is a warning',
  actTimes: 'EndDate = TransDate when empty or earlier; CostTime = hours from TransDate StartTime to EndDate EndTime',
  actResult: 'closes the activity: ActState DONE, EndDate today, EndTime now, CostTime',
  persons: 'expands user groups to user codes (an entry naming neither is a warning)',
  textTemplate: 'loads the text template into the row Text',
  paymentInvoice: 'loads the invoice: customer or supplier, invoice value, RecVal and BankVal when empty; CurPayVal',
  paymentSum: 'recalculates CurPayVal = sum of RecVal',
  dimensions: 'Volume = Width x Height x Depth',
  density: 'NetWeight = Volume x Density',
  netWeight: 'Density = NetWeight / Volume',
  employee: 'checks the employee (EmplVc, else EPEmpVc); an unknown one is a warning',
  idCode: 'validates the Estonian personal code and sets BirthDate from it; warnings',
  contract: 'loads the employee of the employment contract (ContractVc): EmplCode',
  absenceDays: 'CalendarDays and WorkDays (Monday to Friday) from StartDate to EndDate',
  planDates: 'checks that EndDate1 is not before StartDate1 (a warning)',
  latContract: 'loads the employee current contract (EPContractVc): ContractNr',
  offWorkDays: 'CalendarDays from StartDate to EndDate',
} as const;

/** A trigger effect's name. */
export type EffectName = keyof typeof EFFECTS;

/** The triggers of one register: header and row fields. */
export interface RegisterTriggers {
  readonly header: Readonly<Record<string, EffectName>>;
  readonly rows: Readonly<Record<string, EffectName>>;
}

/** Special `fieldname` values (§2 "Field-trigger request body"); `__prepareActivity` is ActVc only. */
export const SPECIAL_FIELDS = ['__new', '__copy', '__prepareActivity'] as const;

const all = (effect: EffectName, ...fields: string[]) => Object.fromEntries(fields.map((f) => [f, effect]));
const RATES = ['FrRate', 'ToRateB1', 'ToRateB2', 'BaseRate1', 'BaseRate2'];
const UNITS = [
  'BasePrice',
  'PriceFactor',
  'UnitCode',
  'UnitFactPrice',
  'UnitFactQuant',
  'UnitXval',
  'UnitYval',
  'UnitZval',
];
const BANK_RATES = ['FrRateBankVal', 'ToRateB1BankVal', 'ToRateB2BankVal', 'BaseRate1BankVal', 'BaseRate2BankVal'];

/** The catalogue, register by register, in the doc's order. */
export const TRIGGER_CATALOGUE: Readonly<Record<string, RegisterTriggers>> = {
  IVVc: {
    header: {
      CustCode: 'customer',
      Addr0: 'customerByName',
      InvDate: 'docDate',
      ...all('none', 'TransDate', 'ServiceDelDate', 'CurncyCode'),
      ...all('rates', ...RATES),
      PayDeal: 'payDeal',
      PriceList: 'priceList',
      RebCode: 'rebate',
      Commision: 'none',
      DiscPerc: 'discount',
      ...all('none', 'LangCode', 'SalesMan'),
      DelAddrCode: 'deliveryAddress',
      ...all('none', 'FrPrice', 'Region', 'Location', 'InvCountry', 'DelCountry', 'LoyaltyCardNr'),
      MachineName: 'drawer',
    },
    rows: {
      ...all('none', 'PayMode', 'CUPNr', 'CuAccCode'),
      ArtCode: 'item',
      Quant: 'rowSum',
      Price: 'rowSum',
      Sum: 'rowSumBack',
      vRebate: 'rowSum',
      ...all('none', ...UNITS),
      VATCode: 'vat',
      ...all('none', 'TaxTemplateCode', 'SalesAcc', 'SerialNr', 'OrdRow', 'CredOfficialSerNr', 'GCNr', 'Spec'),
      CreditedRow: 'none',
    },
  },
  ORVc: {
    header: {
      CustCode: 'customer',
      ...all('none', 'OrdDate', 'PlanShip', 'CurncyCode'),
      ...all('rates', ...RATES),
      PayDeal: 'payDeal',
      PriceList: 'priceList',
      ...all('none', 'PRCode', 'Commision'),
      DiscPerc: 'discount',
      SalesMan: 'none',
      DelAddrCode: 'deliveryAddress',
      ...all('none', 'FrPrice', 'Region', 'Location', 'InvCountry', 'DelCountry'),
      OrderType: 'reserved',
      ...all('none', 'DespatchDate', 'FrVATCode'),
      RebCode: 'rebate',
    },
    rows: {
      ArtCode: 'item',
      Quant: 'quantity',
      Price: 'rowSum',
      Sum: 'rowSumBack',
      Recepy: 'recipe',
      vRebate: 'rowSum',
      ...all('none', ...UNITS),
      VATCode: 'vat',
      ...all('none', 'TaxTemplateCode', 'PlanShipRow', 'SerialNr'),
    },
  },
  QTVc: {
    header: {
      CustCode: 'customer',
      ...all('none', 'QTDate', 'ValidUntilDate', 'MakeContactDate', 'CurncyCode'),
      ...all('rates', ...RATES),
      PayDeal: 'payDeal',
      PlanShip: 'none',
      PriceList: 'priceList',
      PRCode: 'none',
      DiscPerc: 'discount',
      SalesMan: 'none',
      DelAddrCode: 'deliveryAddress',
      ...all('none', 'Location', 'Region', 'InvCountry', 'DelCountry', 'InvoiceToCode'),
      RebCode: 'rebate',
    },
    rows: {
      ArtCode: 'item',
      Quant: 'rowSum',
      Price: 'rowSum',
      Sum: 'rowSumBack',
      vRebate: 'rowSum',
      ...all('none', ...UNITS),
      VATCode: 'vat',
      TaxTemplateCode: 'none',
      Markup: 'markup',
      ...all('none', 'TimeClass', 'EMCode', 'SerialNr'),
    },
  },
  VIVc: {
    header: {
      VECode: 'vendor',
      BarCode: 'none',
      InvDate: 'docDate',
      ...all('none', 'TransDate', 'SalesMan', 'LangCode', 'CurncyCode', ...RATES),
      PayDeal: 'payDeal',
      ...all('none', 'CredInv', 'VEFactoring', 'PRCode', 'RefStr'),
      PayVal: 'purchaseTotals',
      WithHoldingTax: 'none',
      VATVal: 'purchaseTotals',
      ...all('none', 'InvoiceNr', 'Objects'),
    },
    rows: {
      AccNumber: 'account',
      ACShort: 'none',
      VATCode: 'purchaseRowSum',
      TaxTemplateCode: 'none',
      Sum: 'purchaseRowSum',
      ...all('none', 'Item', 'InventoryNr'),
    },
  },
  CUVc: {
    header: {
      ...all('none', 'RegNr2', 'SalesMan', 'Name', 'Person', 'Nationality'),
      ...all('none', 'InvAddr0', 'InvAddr1', 'InvAddr2', 'InvAddr3', 'InvAddr4', 'CountryCode', 'DelCountry'),
      IBANCode: 'iban',
      VATNr: 'vatNr',
      RegNr1: 'regNr',
    },
    rows: {},
  },
  ActVc: {
    header: {
      CUCode: 'contact',
      ...all('none', 'PRCode', 'ItemCode', 'Contact'),
      ActType: 'actType',
      ActState: 'reserved',
      ...all('actTimes', 'TransDate', 'EndDate', 'StartTime', 'EndTime'),
      ActResult: 'actResult',
      ...all('persons', 'MainPersons', 'CCPersons'),
      ...all('none', 'SerialNr', 'SVOSerNr', 'ProdOpSerNr'),
    },
    rows: { TextCode: 'textTemplate' },
  },
  OPVc: {
    header: all('none', 'TransDate', 'PayDate', 'PayCurCode', 'CurPayVal', 'PayMode'),
    rows: {
      VISerNr: 'paymentInvoice',
      ...all('none', 'InstNr', 'VECode', 'BankCurncy', 'RecCurncy'),
      RecVal: 'paymentSum',
      ...all('none', 'BankVal', 'B1BankVal', 'Coef', 'BankFeeVal', 'VATCode', 'ChequeNr', 'OrderNr', ...BANK_RATES),
    },
  },
  IPVc: {
    header: { ...all('none', 'TransDate', 'PayMode', 'PayCurCode', 'CurPayVal', 'MachineName'), Status: 'reserved' },
    rows: {
      InstNr: 'none',
      InvoiceNr: 'paymentInvoice',
      ...all('none', 'InvoiceOfficialSerNr', 'CustCode', 'CustName', 'CUPNr', 'OrderNr', 'PayDate', 'BankCurncy'),
      RecCurncy: 'none',
      RecVal: 'paymentSum',
      ...all('none', 'ChequeNr', 'BankVal', 'B1BankVal', 'Coef', 'VATCode', 'TaxTemplateCode', ...BANK_RATES),
    },
  },
  INVc: {
    header: { ...all('dimensions', 'Width', 'Height', 'Depth'), Density: 'density', NetWeight: 'netWeight' },
    rows: {},
  },
  EPOrderDocVc: {
    header: all('none', 'ShortSign', 'OrdType', 'LTxtCode', 'FilterType', 'FilterString'),
    rows: { EmpCodeRow: 'employee' },
  },
  EmplVc: { header: { TaxCode: 'none', IDCode: 'idCode' }, rows: {} },
  AbsenceVc: {
    header: {
      ContrSerNr: 'contract',
      ...all('absenceDays', 'StartDate', 'EndDate'),
      ...all('none', 'AbsTypeCode', 'Period1', 'Period2', 'PrevAbsSerNr'),
    },
    rows: {},
  },
  PlanAbsenceVc: {
    header: { ContrSerNr: 'contract', ...all('planDates', 'StartDate1', 'EndDate1'), AbsTypeCode: 'none' },
    rows: {},
  },
  EPEmpVc: {
    header: all('none', 'StrCode', 'MarriageDate', 'BirthDate', 'TaxGroup'),
    rows: { TaxGroupRow: 'none' },
  },
  EPOffWorkVc: {
    header: {
      EmpCode: 'latContract',
      ...all('none', 'ContractNr', 'Group'),
      ...all('offWorkDays', 'StartDate', 'EndDate'),
    },
    rows: {},
  },
  EPOffWorkPlanVc: { header: { EmpCode: 'latContract', ContractNr: 'none' }, rows: {} },
};
