import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  closeSharedWorkflowApp,
  closeWorkflowApps,
  readOnlyWorkflowApp,
} from '../workflow/testing/workflow-fixture.js';
import { type Body, head, row, rowTrigger, trigger, warnings } from './testing/trigger-client.js';

afterEach(closeWorkflowApps);
afterAll(closeSharedWorkflowApp);

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
