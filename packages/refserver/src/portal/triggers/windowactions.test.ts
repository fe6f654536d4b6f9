import { loadSpec, validateJsonBody } from '@erpcert/contract';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../app.js';
import { portal } from '../testing/portal-client.js';
import {
  closeSharedWorkflowApp,
  closeWorkflowApps,
  readOnlyWorkflowApp,
  workflowApp,
} from '../workflow/testing/workflow-fixture.js';

afterEach(closeWorkflowApps);
afterAll(closeSharedWorkflowApp);
const spec = loadSpec('portal-action');

type Body = Record<string, unknown>;
type Answer = {
  success: boolean;
  res: boolean;
  messages: { description: string }[];
  record: Record<string, string> & { rows: Record<string, string>[] };
};

/** POSTs a field trigger (plain JSON), checks the answer against the spec's response schema. */
async function trigger(a: App, body: Body, query: Record<string, string> = {}): Promise<Answer> {
  const res = await portal(a, { action: 'windowactions', ...query }, { json: body, method: 'POST' });
  expect(res.status).toBe(200);
  expect(res.headers['Content-Type']).toBe('application/json; charset=utf-8');
  const json = JSON.parse(res.text) as Answer;
  expect(validateJsonBody(spec, 'PortalFieldTriggerResponse', json).errors).toEqual([]);
  return json;
}
const failure = async (a: App, body: Body | string, query: Record<string, string> = {}) => {
  const res = await portal(
    a,
    { action: 'windowactions', ...query },
    typeof body === 'string' ? { body, method: 'POST' } : { json: body, method: 'POST' },
  );
  const json = JSON.parse(res.text);
  expect(json.success).toBe(false);
  expect(json.res).toBe(false);
  return json.messages[0].description as string;
};
const warnings = (r: Answer) => r.messages.map((m) => m.description);

const row = (fields: Record<string, string>) => ({ stp: '1', ...fields });
const i1 = row({ ArtCode: 'I1', Quant: '2', Price: '10.00', Sum: '20.00', VATCode: '1' });
const head = (
  vcname: string,
  fieldname: string,
  value: string,
  header: Body = {},
  rows: Body[] = [],
  rowindex = -1,
) => ({
  vcname,
  fieldname,
  value,
  rowindex,
  values: { header: { ...header, [fieldname]: value }, rows },
});
const rowTrigger = (
  vcname: string,
  fieldname: string,
  value: string,
  rows: Body[],
  rowindex = 0,
  header: Body = {},
) => ({
  vcname,
  fieldname,
  value,
  rowindex,
  values: { header, rows },
});

describe('sales documents (IVVc, ORVc, QTVc)', () => {
  it.each<[string, Body, Record<string, string>, Record<string, string>[]?, string[]?]>([
    [
      'IVVc CustCode loads the customer, its class price list reprices the rows, PayDate from the terms',
      head('IVVc', 'CustCode', 'C1', { InvDate: '2025-03-10' }, [i1]),
      {
        Addr0: 'Alpha Ltd',
        Addr1: 'Main St 1',
        Addr2: 'Tallinn',
        Addr3: '10111',
        PayDeal: '30',
        CurncyCode: 'EUR',
        InvCountry: 'EE',
        SalesMan: 'JD',
        PriceList: 'PL1',
        ARAcc: '1500',
        PayDate: '2025-04-09',
        InvType: '1',
        Sum1: '18.00',
        Sum3: '3.96',
        Sum4: '21.96',
      },
      [{ Price: '9.00', Sum: '18.00' }],
    ],
    [
      'IVVc Addr0 finds the customer by name (case-insensitive prefix)',
      head('IVVc', 'Addr0', 'alpha'),
      { CustCode: 'C1', Addr0: 'Alpha Ltd', PayDeal: '30' },
    ],
    [
      'IVVc Addr0 with no match is a warning',
      head('IVVc', 'Addr0', 'Zeta'),
      { CustCode: '', Addr0: 'Zeta' },
      undefined,
      ['no customer is named "Zeta"'],
    ],
    [
      'IVVc InvDate sets TransDate and PayDate',
      head('IVVc', 'InvDate', '2025-03-01', { PayDeal: '30' }),
      { TransDate: '2025-03-01', PayDate: '2025-03-31' },
    ],
    [
      'IVVc ToRateB1 recalculates BaseSum4',
      head('IVVc', 'ToRateB1', '2', { FrRate: '1' }, [i1]),
      { Sum4: '24.40', BaseSum4: '48.80' },
    ],
    [
      'IVVc BaseRate1 recalculates BaseSum4 too',
      head('IVVc', 'BaseRate1', '3', { FrRate: '2', ToRateB1: '1' }, [i1]),
      { BaseSum4: '12.20' },
    ],
    [
      'IVVc PayDeal updates PayDate and PriceList (rows repriced)',
      head('IVVc', 'PayDeal', '14', { CustCode: 'C1', InvDate: '2025-03-10' }, [i1]),
      { PayDate: '2025-03-24', PriceList: 'PL1', InvType: '1', Sum1: '18.00' },
      [{ Price: '9.00' }],
    ],
    [
      'IVVc PayDeal K is a credit note',
      head('IVVc', 'PayDeal', 'K', { InvDate: '2025-03-10' }),
      { InvType: '3', PayDate: '2025-03-10' },
    ],
    [
      'IVVc unknown PayDeal is a warning',
      head('IVVc', 'PayDeal', 'XX', { InvDate: '2025-03-10' }),
      { PayDate: '' },
      undefined,
      ['PayDeal "XX" is not a payment term'],
    ],
    [
      'IVVc PriceList reprices the rows',
      head('IVVc', 'PriceList', 'PL1', {}, [i1]),
      { Sum4: '21.96' },
      [{ Price: '9.00', Sum: '18.00' }],
    ],
    [
      'IVVc PriceList without prices: base prices, a warning',
      head('IVVc', 'PriceList', 'NOPE', {}, [row({ ArtCode: 'I1', Quant: '2', Price: '7.00' })]),
      {},
      [{ Price: '10.00', Sum: '20.00' }],
      ['PriceList "NOPE" has no prices (PLVc); the items\' base prices apply'],
    ],
    [
      'IVVc DiscPerc computes DiscSum',
      head('IVVc', 'DiscPerc', '10', {}, [i1]),
      { DiscSum: '2.00', Sum1: '18.00', Sum3: '3.96', Sum4: '21.96' },
    ],
    ['IVVc MachineName sets the configured drawer', head('IVVc', 'MachineName', 'POS1'), { DrawerCode: 'DRAWER-A' }],
    ['IVVc MachineName without a configured drawer', head('IVVc', 'MachineName', 'TILL9'), { DrawerCode: 'TILL9' }],
    [
      'IVVc DelAddrCode loads the delivery country',
      head('IVVc', 'DelAddrCode', 'D1', { CustCode: 'C1' }),
      { DelCountry: 'FI' },
    ],
    [
      'IVVc unknown DelAddrCode is a warning',
      head('IVVc', 'DelAddrCode', 'D9', { CustCode: 'C1' }),
      { DelCountry: '' },
      undefined,
      ['DelAddrCode "D9" is no delivery address of customer "C1"'],
    ],
    [
      'IVVc Commision: no stated effect, echoed (sums not recomputed)',
      head('IVVc', 'Commision', '5', { Sum4: '999.99' }, [i1]),
      { Commision: '5', Sum4: '999.99' },
    ],
    [
      'IVVc row ArtCode loads price, VAT, description, unit, sales account',
      rowTrigger('IVVc', 'ArtCode', 'I2', [row({})]),
      { Sum3: '1.80', Sum4: '21.80' },
      [{ Spec: 'Gadget', Price: '20.00', VATCode: '2', UnitCode: 'kg', SalesAcc: '3000', Quant: '1', Sum: '20.00' }],
    ],
    [
      'IVVc row ArtCode on a new row (rowindex = rows)',
      rowTrigger('IVVc', 'ArtCode', 'I1', [i1], 1),
      { Sum4: '36.60' },
      [{ Sum: '20.00' }, { stp: '1', Price: '10.00', Quant: '1', Sum: '10.00' }],
    ],
    [
      'IVVc row unknown ArtCode is a warning',
      rowTrigger('IVVc', 'ArtCode', 'ZZ', [row({})]),
      {},
      [{ Spec: '' }],
      ['ArtCode "ZZ" is not an item'],
    ],
    [
      'IVVc row Quant: Sum = Quant x Price',
      rowTrigger('IVVc', 'Quant', '3', [i1]),
      { Sum4: '36.60' },
      [{ Sum: '30.00' }],
    ],
    ['IVVc row vRebate: Sum less the rebate', rowTrigger('IVVc', 'vRebate', '10', [i1]), {}, [{ Sum: '18.00' }]],
    [
      'IVVc row Sum back-calculates vRebate',
      rowTrigger('IVVc', 'Sum', '15.00', [i1]),
      { Sum1: '15.00' },
      [{ Sum: '15.00', vRebate: '25' }],
    ],
    [
      'ORVc RebCode applies the quantity scale to every row',
      head('ORVc', 'RebCode', 'SPRING', { OrdDate: '2025-03-10' }, [
        row({ ArtCode: 'I1', Quant: '25', Price: '10.00' }),
        row({ ArtCode: 'I2', Quant: '5', Price: '20.00' }),
      ]),
      { Sum1: '325.00' },
      [
        { Price: '9.00', Sum: '225.00' },
        { Price: '20.00', Sum: '100.00' },
      ],
    ],
    [
      'ORVc row Quant changes the price for quantity discounts',
      rowTrigger('ORVc', 'Quant', '12', [row({ ArtCode: 'I1', Quant: '1', Price: '10.00' })], 0, {
        RebCode: 'SPRING',
        OrdDate: '2025-03-10',
      }),
      {},
      [{ Price: '9.50', Sum: '114.00' }],
    ],
    [
      'ORVc an expired discount matrix is a warning',
      rowTrigger('ORVc', 'Quant', '25', [row({ ArtCode: 'I1', Quant: '1', Price: '8.00' })], 0, {
        RebCode: 'OLD',
        OrdDate: '2025-03-10',
      }),
      {},
      [{ Price: '10.00' }],
      ['discount matrix OLD is valid 2024-01-01 to 2024-12-31, not on 2025-03-10'],
    ],
    [
      'ORVc row Quant without RebCode keeps the price',
      rowTrigger('ORVc', 'Quant', '25', [row({ ArtCode: 'I1', Quant: '1', Price: '8.00' })]),
      {},
      [{ Price: '8.00', Sum: '200.00' }],
    ],
    [
      'ORVc row Recepy loads the recipe as text rows',
      rowTrigger('ORVc', 'Recepy', 'KIT', [
        row({ ArtCode: 'I1', Quant: '2', Price: '10.00' }),
        row({ ArtCode: 'I2', Quant: '1', Price: '20.00' }),
      ]),
      { Sum1: '40.00' },
      [
        { ArtCode: 'I1' },
        { stp: '2', Spec: 'KIT: I1 Widget x 4' },
        { stp: '2', Spec: 'KIT: I2 Gadget x 2' },
        { ArtCode: 'I2' },
      ],
    ],
    [
      'ORVc OrderType is reserved: echoed',
      head('ORVc', 'OrderType', 'X', { Sum4: '1.00' }, [i1]),
      { OrderType: 'X', Sum4: '1.00' },
      [{ Sum: '20.00' }],
    ],
    [
      'QTVc row Markup prices from the cost',
      rowTrigger('QTVc', 'Markup', '50', [row({ ArtCode: 'I1', Quant: '2', Price: '1.00' })]),
      {},
      [{ Price: '9.00', Sum: '18.00' }],
    ],
  ])('%s', async (_n, body, header, rows, msgs = []) => {
    const r = await trigger(readOnlyWorkflowApp(), body);
    expect(r.success).toBe(true);
    expect(warnings(r)).toEqual(msgs);
    expect(r.record).toMatchObject(header);
    if (rows) expect(r.record.rows).toMatchObject(rows);
  });

  it('Recepy twice does not load the components twice', async () => {
    const a = readOnlyWorkflowApp();
    const first = await trigger(
      a,
      rowTrigger('ORVc', 'Recepy', 'KIT', [row({ ArtCode: 'I1', Quant: '1', Price: '10.00' })]),
    );
    const again = await trigger(a, rowTrigger('ORVc', 'Recepy', 'KIT', first.record.rows));
    expect(again.record.rows.map((r) => r.Spec)).toEqual(['', 'KIT: I1 Widget x 2', 'KIT: I2 Gadget x 1']);
  });

  it('Addr0 matching several customers is a warning naming them', async () => {
    const a = workflowApp();
    a.store.insert('CUVc', 1, { fields: { Code: 'C5', Name: 'Alphabet AS', CUType: '1' }, rows: [] });
    const r = await trigger(a, head('IVVc', 'Addr0', 'alph'));
    expect(warnings(r)).toEqual(['2 customers match "alph": C1, C5']);
  });
});

describe('purchase invoices, contacts, activities, payments, items, payroll', () => {
  it.each<[string, Body, Record<string, string>, Record<string, string>[]?, string[]?, Record<string, string>?]>([
    [
      'VIVc VECode loads the supplier and the due date',
      head('VIVc', 'VECode', 'C2', { InvDate: '2025-03-10' }),
      { VEName: 'Beta Supplies', PayDeal: '14', CurncyCode: 'USD', DueDate: '2025-03-24' },
    ],
    [
      'VIVc PayDeal updates DueDate',
      head('VIVc', 'PayDeal', '30', { InvDate: '2025-03-10' }),
      { DueDate: '2025-04-09' },
    ],
    [
      'VIVc row AccNumber loads the VAT code; totals',
      rowTrigger('VIVc', 'AccNumber', '4000', [row({ Sum: '100.00' })]),
      { VATVal: '22.00', PayVal: '122.00' },
      [{ VATCode: '1' }],
    ],
    [
      'VIVc PayVal that is not rows + VAT is a warning',
      head('VIVc', 'PayVal', '130.00', {}, [row({ AccNumber: '4000', Sum: '100.00', VATCode: '1' })]),
      { PayVal: '130.00', VATVal: '22.00' },
      undefined,
      ['PayVal 130.00 is not the row sum 100.00 plus VATVal 22.00 (record-rest-api.md §4 rule 5)'],
    ],
    [
      'CUVc IBANCode valid: normalised',
      head('CUVc', 'IBANCode', 'ee38 2200 2210 2014 5685'),
      { IBANCode: 'EE382200221020145685' },
    ],
    [
      'CUVc IBANCode check digits',
      head('CUVc', 'IBANCode', 'EE392200221020145685'),
      { IBANCode: 'EE392200221020145685' },
      undefined,
      ['IBANCode "EE392200221020145685": the check digits do not match (ISO 7064 mod 97)'],
    ],
    [
      'CUVc IBANCode length',
      head('CUVc', 'IBANCode', 'EE38220022102014568'),
      {},
      undefined,
      ['IBANCode "EE38220022102014568" has 19 characters; an IBAN of EE has 20'],
    ],
    [
      'CUVc VATNr valid: normalised',
      head('CUVc', 'VATNr', 'ee 100931558', { CountryCode: 'EE' }),
      { VATNr: 'EE100931558' },
    ],
    [
      'CUVc VATNr check digit',
      head('CUVc', 'VATNr', 'EE100931559', { CountryCode: 'EE' }),
      {},
      undefined,
      ['VATNr "EE100931559": the Estonian check digit does not match'],
    ],
    [
      'CUVc VATNr without prefix',
      head('CUVc', 'VATNr', '100931558', { CountryCode: 'EE' }),
      {},
      undefined,
      ['VATNr "100931558" should start with the country prefix EE'],
    ],
    [
      'CUVc VATNr of another country',
      head('CUVc', 'VATNr', 'FI12345678', { CountryCode: 'EE' }),
      {},
      undefined,
      ['VATNr "FI12345678" is a FI VAT number but the contact\'s country is EE'],
    ],
    [
      'CUVc VATNr format',
      head('CUVc', 'VATNr', 'DE1234', { CountryCode: 'DE' }),
      {},
      undefined,
      ['VATNr "DE1234" does not have the format of a DE VAT number'],
    ],
    ['CUVc RegNr1 valid (EE)', head('CUVc', 'RegNr1', '10093155', { CountryCode: 'EE' }), { RegNr1: '10093155' }],
    [
      'CUVc RegNr1 check digit (EE)',
      head('CUVc', 'RegNr1', '10093156', { CountryCode: 'EE' }),
      {},
      undefined,
      ['RegNr1 "10093156": the Estonian check digit does not match'],
    ],
    ['CUVc RegNr1 without country rules', head('CUVc', 'RegNr1', 'ABC-1'), { RegNr1: 'ABC-1' }],
    [
      'ActVc TransDate sets EndDate and CostTime',
      head('ActVc', 'TransDate', '2025-03-12', { StartTime: '09:00', EndDate: '2025-03-01', EndTime: '11:30' }),
      { EndDate: '2025-03-12', CostTime: '2.5' },
    ],
    [
      'ActVc EndTime recalculates CostTime',
      head('ActVc', 'EndTime', '17:15', { TransDate: '2025-03-10', EndDate: '2025-03-10', StartTime: '09:00' }),
      { CostTime: '8.25' },
    ],
    [
      'ActVc EndDate before TransDate is a warning',
      head('ActVc', 'EndDate', '2025-03-09', { TransDate: '2025-03-10' }),
      { EndDate: '2025-03-09' },
      undefined,
      ['EndDate 2025-03-09 is before TransDate 2025-03-10'],
    ],
    [
      'ActVc ActResult closes the activity',
      head('ActVc', 'ActResult', 'OK', { TransDate: '2025-03-10', StartTime: '09:00', ActState: 'TODO' }),
      { ActState: 'DONE', EndDate: '2025-03-10', EndTime: '12:00', CostTime: '3' },
    ],
    [
      'ActVc ActState is reserved: echoed',
      head('ActVc', 'ActState', 'DONE', { EndTime: '' }),
      { ActState: 'DONE', EndTime: '', CostTime: '' },
    ],
    ['ActVc MainPersons expands groups', head('ActVc', 'MainPersons', 'SALES,ADMIN'), { MainPersons: 'JD,ADMIN' }],
    [
      'ActVc CCPersons: @group, unknown names warned',
      head('ActVc', 'CCPersons', '@ADMIN;REPORTS NOBODY'),
      { CCPersons: 'ADMIN,REP,NOBODY' },
      undefined,
      ['CCPersons: "NOBODY" is neither a user nor a user group'],
    ],
    ['ActVc CUCode loads the name', head('ActVc', 'CUCode', 'C3'), { CUName: 'Gamma & Sons <Oy>' }],
    [
      'ActVc unknown ActType is a warning',
      head('ActVc', 'ActType', 'XYZ'),
      {},
      undefined,
      ['ActType "XYZ" is not an activity type (getactivitytypes)'],
    ],
    [
      'ActVc row TextCode loads the template',
      rowTrigger('ActVc', 'TextCode', 'CALLBACK', [{}]),
      {},
      [{ Text: 'Call the customer back and confirm the delivery date.' }],
    ],
    [
      'OPVc row VISerNr loads the purchase invoice',
      rowTrigger('OPVc', 'VISerNr', '10000401', [{}]),
      { CurPayVal: '122.00' },
      [{ VECode: 'C2', PInvVal: '122.00', RecVal: '122.00', BankVal: '122.00' }],
    ],
    [
      'IPVc row InvoiceNr loads the invoice',
      rowTrigger('IPVc', 'InvoiceNr', '10000102', [{}]),
      { CurPayVal: '46.20' },
      [{ CustCode: 'C1', CustName: 'Alpha Ltd', InvVal: '46.20', RecVal: '46.20' }],
    ],
    [
      'IPVc Status is reserved: echoed',
      head('IPVc', 'Status', '9', { CurPayVal: '5.00' }),
      { Status: '9', CurPayVal: '5.00' },
    ],
    ['INVc Depth recalculates Volume', head('INVc', 'Depth', '4', { Width: '2', Height: '3' }), { Volume: '24' }],
    ['INVc Density gives NetWeight', head('INVc', 'Density', '0.5', { Volume: '24' }), { NetWeight: '12' }],
    [
      'INVc NetWeight back-calculates Density',
      head('INVc', 'NetWeight', '6', { Volume: '24', Density: '9' }),
      { Density: '0.25' },
    ],
    [
      'INVc NetWeight without Volume is a warning',
      head('INVc', 'NetWeight', '6', { Density: '9' }),
      { Density: '9' },
      undefined,
      ['Volume is 0 or empty: Density cannot be back-calculated'],
    ],
    [
      'EPOrderDocVc unknown employee is a warning',
      rowTrigger('EPOrderDocVc', 'EmpCodeRow', 'E9', [{}]),
      {},
      undefined,
      ['EmpCodeRow "E9" is not an employee (EmplVc or EPEmpVc)'],
    ],
    ['EPOrderDocVc known employee', rowTrigger('EPOrderDocVc', 'EmpCodeRow', 'E1', [{}]), {}],
    [
      'EmplVc IDCode sets BirthDate',
      head('EmplVc', 'IDCode', '37605030299'),
      { BirthDate: '1976-05-03' },
      undefined,
      [],
      { portalcc: 'est' },
    ],
    [
      'EmplVc IDCode check digit',
      head('EmplVc', 'IDCode', '37605030298'),
      {},
      undefined,
      ['IDCode "37605030298": the check digit does not match'],
      { portalcc: 'est' },
    ],
    [
      'AbsenceVc ContrSerNr loads the employee',
      head('AbsenceVc', 'ContrSerNr', '10000901'),
      { EmplCode: 'E1' },
      undefined,
      [],
      { portalcc: 'est' },
    ],
    [
      'AbsenceVc EndDate counts days and working days',
      head('AbsenceVc', 'EndDate', '2025-03-11', { StartDate: '2025-03-07' }),
      { CalendarDays: '5', WorkDays: '3' },
      undefined,
      [],
      { portalcc: 'est' },
    ],
    [
      'PlanAbsenceVc end before start is a warning',
      head('PlanAbsenceVc', 'EndDate1', '2025-03-01', { StartDate1: '2025-03-05' }),
      {},
      undefined,
      ['EndDate1 2025-03-01 is before StartDate1 2025-03-05'],
      { portalcc: 'est' },
    ],
    [
      'EPOffWorkVc EmpCode loads the current contract',
      head('EPOffWorkVc', 'EmpCode', 'L001'),
      { ContractNr: '10000801' },
      undefined,
      [],
      { portalcc: 'lat' },
    ],
    [
      'EPOffWorkVc dates count the days',
      head('EPOffWorkVc', 'StartDate', '2025-03-01', { EndDate: '2025-03-10' }),
      { CalendarDays: '10' },
      undefined,
      [],
      { portalcc: 'lat' },
    ],
    [
      'EPOffWorkPlanVc EmpCode loads the contract',
      head('EPOffWorkPlanVc', 'EmpCode', 'L001'),
      { ContractNr: '10000801' },
      undefined,
      [],
      { portalcc: 'lat' },
    ],
    [
      'EPEmpVc BirthDate: no stated effect',
      head('EPEmpVc', 'BirthDate', '1990-01-01', { StrCode: 'X' }),
      { BirthDate: '1990-01-01', StrCode: 'X' },
      undefined,
      [],
      { portalcc: 'lat' },
    ],
  ])('%s', async (_n, body, header, rows, msgs = [], query = {}) => {
    const r = await trigger(readOnlyWorkflowApp(), body, query);
    expect(warnings(r)).toEqual(msgs);
    expect(r.record).toMatchObject(header);
    if (rows) expect(r.record.rows).toMatchObject(rows);
  });
});

describe('__new, __copy, __prepareActivity', () => {
  it('__new gives the defaults, user-specific with usercode', async () => {
    const a = readOnlyWorkflowApp();
    const iv = await trigger(a, { vcname: 'IVVc', fieldname: '__new' }, { usercode: 'JD' });
    expect(iv.record).toMatchObject({
      SerNr: '',
      InvDate: '2025-03-10',
      TransDate: '2025-03-10',
      OKFlag: '0',
      InvType: '1',
      SalesMan: 'JD',
    });
    expect(iv.record.rows).toEqual([]);
    const act = await trigger(a, { vcname: 'ActVc', fieldname: '__new' }, { usercode: 'JD' });
    expect(act.record).toMatchObject({
      TransDate: '2025-03-10',
      EndDate: '2025-03-10',
      StartTime: '12:00',
      ActState: 'TODO',
      ActType: 'TASK',
      MainPersons: 'JD',
    });
    expect((await trigger(a, { vcname: 'IVVc', fieldname: '__new' })).record.SalesMan).toBe('');
    expect(await failure(a, { vcname: 'IVVc', fieldname: '__new' }, { usercode: 'NOBODY' })).toBe(
      'usercode "NOBODY" is not a user of company 1',
    );
  });

  it('__copy duplicates a record as a new draft of today', async () => {
    const r = await trigger(readOnlyWorkflowApp(), { vcname: 'IVVc', fieldname: '__copy', id: '10000102' });
    expect(r.record).toMatchObject({
      SerNr: '',
      OKFlag: '0',
      InvDate: '2025-03-10',
      TransDate: '2025-03-10',
      PayDate: '2025-04-09',
      CustCode: 'C1',
      Sum4: '46.20',
    });
    expect(r.record.rows.map((x) => [x.ArtCode, x.Sum])).toEqual([
      ['I1', '20.00'],
      ['I2', '20.00'],
    ]);
  });

  it('__prepareActivity prepares an activity from a source record (not saved)', async () => {
    const a = readOnlyWorkflowApp();
    const before = a.store.sequence;
    const r = await trigger(
      a,
      { vcname: 'ActVc', fieldname: '__prepareActivity', sourceRegister: 'IVVc', sourceRecordId: '10000101' },
      { usercode: 'JD' },
    );
    expect(r.record).toMatchObject({
      SerNr: '',
      ActType: 'TASK',
      CUCode: 'C1',
      CUName: 'Alpha Ltd',
      SourceRegister: 'IVVc',
      SourceRecordId: '10000101',
      MainPersons: 'JD',
      TransDate: '2025-03-10',
    });
    expect(a.store.sequence).toBe(before);
  });

  it.each<[string, Body, string]>([
    [
      '__copy without id',
      { vcname: 'IVVc', fieldname: '__copy' },
      'missing required member "id" (the record __copy duplicates)',
    ],
    [
      '__copy of a missing record',
      { vcname: 'IVVc', fieldname: '__copy', id: '1' },
      'IVVc 1 does not exist in company 1',
    ],
    [
      '__prepareActivity on another register',
      { vcname: 'IVVc', fieldname: '__prepareActivity' },
      '__prepareActivity is for vcname ActVc only, not IVVc',
    ],
    [
      '__prepareActivity from a register outside the list',
      { vcname: 'ActVc', fieldname: '__prepareActivity', sourceRegister: 'INVc', sourceRecordId: 'I1' },
      'sourceRegister "INVc" is not allowed for __prepareActivity; allowed: ORVc, IVVc, QTVc, VIVc, CUVc',
    ],
    [
      '__prepareActivity without sourceRecordId',
      { vcname: 'ActVc', fieldname: '__prepareActivity', sourceRegister: 'CUVc' },
      'missing required member "sourceRecordId" for __prepareActivity',
    ],
  ])('%s fails', async (_n, body, message) => {
    expect(await failure(readOnlyWorkflowApp(), body)).toBe(message);
  });
});

describe('request handling', () => {
  it('an encrypted body (JSON byte-reversed, base64) gives the same answer as the plain one', async () => {
    const a = readOnlyWorkflowApp();
    const body = rowTrigger('IVVc', 'Quant', '3', [i1]);
    const plain = await trigger(a, body);
    const encrypted = Buffer.from(JSON.stringify(body), 'utf8').reverse().toString('base64');
    const res = await portal(
      a,
      { action: 'windowactions', encrypted: 'true' },
      { body: encrypted, headers: { 'content-type': 'text/plain' } },
    );
    expect(JSON.parse(res.text)).toEqual(plain);
    expect(plain.record.rows[0]!.Sum).toBe('30.00');
  });

  it('headerfields and rowfields choose and format the returned fields', async () => {
    const r = await trigger(readOnlyWorkflowApp(), {
      ...head('IVVc', 'DiscPerc', '7.25', { CustCode: 'C1' }, [i1]),
      headerfields: 'CustCode:1,DiscPerc:15,Sum4:5',
      rowfields: 'ArtCode:1,Sum:5',
    });
    // net 20.00, DiscSum 1.45, VAT 20 x 0.9275 x 22 % = 4.081 -> 4.08: Sum4 18.55 + 4.08
    expect(r.record).toEqual({
      CustCode: 'C1',
      DiscPerc: '7.3',
      Sum4: '22.63',
      rows: [{ stp: '1', ArtCode: 'I1', Sum: '20.00' }],
    });
  });

  it.each<[string, Body | string, string, Record<string, string>?]>([
    ['a body that is not JSON', 'vcname=IVVc', 'the field-trigger body is not JSON'],
    ['an empty body', '', 'the field-trigger body is empty; send the JSON'],
    [
      'an encrypted body sent without encrypted=true',
      'eyJ9',
      'the field-trigger body is not JSON (an encrypted body needs encrypted=true)',
    ],
    [
      'an encrypted body that is not base64',
      '{"vcname":"IVVc"}',
      'the field-trigger body is not base64 (encrypted=true: the JSON byte-reversed, then base64-encoded)',
      { encrypted: 'true' },
    ],
    [
      'an encrypted body that decodes to no JSON',
      'aGVsbG8=',
      'the field-trigger body does not decode to JSON (encrypted=true: the JSON byte-reversed, then base64-encoded)',
      { encrypted: 'true' },
    ],
    ['no vcname', { fieldname: 'CustCode' }, 'missing required member "vcname" (the register)'],
    ['no fieldname', { vcname: 'IVVc' }, 'missing required member "fieldname" (the field that changed)'],
    [
      'a register outside windowactions',
      { vcname: 'POVc', fieldname: 'VECode' },
      'vcname "POVc" is not allowed for windowactions; allowed: IVVc, ORVc, CUVc, ActVc, QTVc, VIVc, OPVc, IPVc, INVc, EPOrderDocVc, EmplVc (est), AbsenceVc (est), PlanAbsenceVc (est), EPEmpVc (lat), EPOffWorkVc (lat), EPOffWorkPlanVc (lat)',
    ],
    [
      'an est register without portalcc',
      { vcname: 'EmplVc', fieldname: 'IDCode' },
      'vcname "EmplVc" is served for windowactions only with portalcc=est',
    ],
    [
      'an est register with portalcc=lat',
      { vcname: 'AbsenceVc', fieldname: 'StartDate' },
      'vcname "AbsenceVc" is served for windowactions only with portalcc=est (portalcc is lat)',
      { portalcc: 'lat' },
    ],
    [
      'a lat register with portalcc=est',
      { vcname: 'EPEmpVc', fieldname: 'StrCode' },
      'vcname "EPEmpVc" is served for windowactions only with portalcc=lat (portalcc is est)',
      { portalcc: 'est' },
    ],
    [
      'a field without a trigger',
      { vcname: 'IVVc', fieldname: 'OKFlag' },
      'IVVc has no field trigger for "OKFlag" (portal-action-api.md §2 "Field-trigger catalogue")',
    ],
    [
      'a header field with a row index',
      { vcname: 'IVVc', fieldname: 'CustCode', rowindex: 0 },
      'CustCode is a header field of IVVc; rowindex must be -1, got 0',
    ],
    [
      'a row field without a row index',
      { vcname: 'IVVc', fieldname: 'Quant' },
      'Quant is a row field of IVVc; rowindex must be 0 or more',
    ],
    [
      'a row index beyond the rows',
      rowTrigger('IVVc', 'Quant', '1', [i1], 2),
      'rowindex 2 is beyond the 1 row(s) of values.rows (1 adds a row)',
    ],
    [
      'a bad row index',
      { vcname: 'IVVc', fieldname: 'Quant', rowindex: 'x' },
      'rowindex must be a whole number from -1 (header), got "x"',
    ],
    [
      'a number that is no number',
      rowTrigger('IVVc', 'Quant', 'abc', [i1]),
      'row 0 Quant must be a decimal number, got "abc"',
    ],
    ['an unknown VAT code', rowTrigger('IVVc', 'VATCode', '9', [i1]), 'row 0 VATCode "9" is not a VAT code'],
    [
      'rows on a register without rows',
      { vcname: 'CUVc', fieldname: 'Name', values: { rows: [{}] } },
      'CUVc has no rows; values.rows must be empty',
    ],
    [
      'malformed headerfields',
      { ...head('IVVc', 'CustCode', 'C1'), headerfields: 'CustCode' },
      'headerfields: "CustCode" is not FieldName:TypeCode (type codes 1, 2, 5, 12, 15)',
    ],
    [
      'values that are no object',
      { vcname: 'IVVc', fieldname: 'CustCode', values: [] },
      'values must be an object {header, rows}',
    ],
  ])('%s answers the JSON failure', async (_n, body, message, query = {}) => {
    expect(await failure(readOnlyWorkflowApp(), body, query)).toBe(message);
  });

  it('GET is refused with 405 and the JSON failure', async () => {
    const res = await portal(readOnlyWorkflowApp(), { action: 'windowactions' });
    expect(res.status).toBe(405);
    expect(JSON.parse(res.text)).toEqual({
      success: false,
      res: false,
      messages: [{ description: 'windowactions takes POST, not GET' }],
    });
  });
});
