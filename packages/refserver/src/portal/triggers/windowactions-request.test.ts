import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { portal } from '../testing/portal-client.js';
import {
  closeSharedWorkflowApp,
  closeWorkflowApps,
  readOnlyWorkflowApp,
} from '../workflow/testing/workflow-fixture.js';
import { type Body, failure, head, i1, rowTrigger, trigger } from './testing/trigger-client.js';

afterEach(closeWorkflowApps);
afterAll(closeSharedWorkflowApp);

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
