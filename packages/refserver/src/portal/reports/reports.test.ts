import { loadSpec, validateJsonBody } from '@erpcert/contract';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../app-types.js';
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

const SJ = { reportwindow: 'SalesJournalVClass', repname: 'SalesJournalRn' };
const OR = { reportwindow: 'OpenReceivablesVClass', repname: 'OpenReceivablesRn' };
const SL = { reportwindow: 'StockLevelsVClass', repname: 'StockLevelsRn' };

async function run(a: App, body: unknown, usercode: string | null = 'ADMIN') {
  const res = await portal(a, { action: 'report', ...(usercode ? { usercode } : {}) }, { method: 'POST', json: body });
  expect(res.headers['Content-Type']).toBe('application/json; charset=utf-8');
  return JSON.parse(res.text);
}
const failure = (description: string) => ({ success: false, res: false, messages: [{ description }] });

describe('report access (rule 3)', () => {
  it.each([
    ['without usercode', null, SJ],
    ['a user whose group has no report access', 'JD', SJ],
    ['a closed user', 'OLD', SJ],
    ['an unknown user', 'NOBODY', SJ],
    ['module access without report-level access', 'REP', OR],
  ])('%s: Access denied', async (_n, usercode, which) => {
    expect(await run(readOnlyWorkflowApp(), which, usercode)).toEqual(failure('Access denied'));
  });

  it('without usercode, even a malformed body is only Access denied', async () => {
    const a = readOnlyWorkflowApp();
    const res = await portal(a, { action: 'report' }, { method: 'POST', body: 'not json' });
    expect(JSON.parse(res.text)).toEqual(failure('Access denied'));
  });

  it('module and report-level access runs the report', async () => {
    expect((await run(readOnlyWorkflowApp(), SJ, 'REP')).success).toBe(true);
  });
});

describe('reports computed from the data', () => {
  it('sales journal: confirmed invoices of this month by default', async () => {
    const r = await run(readOnlyWorkflowApp(), SJ);
    expect(r.report).toMatchObject({
      reportwindow: 'SalesJournalVClass',
      repname: 'SalesJournalRn',
      title: 'Sales journal',
      lang: 'ENG',
      spec: { sd: '2025-03-01', ed: '2025-03-10', CustCode: '', OnlyConfirmed: '1' },
      rows: [
        {
          SerNr: '10000102',
          InvDate: '2025-03-02',
          CustCode: 'C1',
          Addr0: 'Alpha Ltd',
          Net: '40.00',
          VAT: '6.20',
          Total: '46.20',
        },
      ],
      totals: { Count: '1', Net: '40.00', VAT: '6.20', Total: '46.20' },
    });
    expect(r.report.columns[0]).toEqual({ name: 'SerNr', label: 'No.', type: 1 });
  });

  it('sales journal with drafts, a date range, a customer and Estonian labels', async () => {
    const a = readOnlyWorkflowApp();
    const all = await run(a, { ...SJ, spec: { OnlyConfirmed: '0' } });
    // 10000101 and 10000102: 40.00 + 6.20 each; 10000103: 409.84 + 90.16
    expect(all.report.rows.map((r: Record<string, string>) => r.SerNr)).toEqual(['10000101', '10000102', '10000103']);
    expect(all.report.totals).toEqual({ Count: '3', Net: '489.84', VAT: '102.56', Total: '592.40' });
    const one = await run(a, {
      ...SJ,
      lang: 'est',
      spec: { sd: '2025-03-02', ed: '2025-03-02', CustCode: 'C1', OnlyConfirmed: 0 },
    });
    expect(one.report.rows.map((r: Record<string, string>) => r.SerNr)).toEqual(['10000102']);
    expect(one.report).toMatchObject({ title: 'Müügiarvete päevik', lang: 'EST' });
    expect((await run(a, { ...SJ, spec: { CustCode: 'C3' } })).report.rows).toEqual([]);
  });

  it('sales journal: a credit invoice counts negative', async () => {
    const a = workflowApp();
    a.store.insert('IVVc', 1, {
      fields: {
        SerNr: '10000104',
        InvDate: '2025-03-06',
        CustCode: 'C1',
        PayDeal: 'K',
        InvType: '3',
        OKFlag: '1',
        Sum1: '10.00',
        Sum3: '2.20',
        Sum4: '12.20',
      },
      rows: [{ stp: '3', OrdRow: '10000102' }],
    });
    expect((await run(a, SJ)).report.totals).toEqual({ Count: '2', Net: '30.00', VAT: '4.00', Total: '34.00' });
  });

  it('open receivables with ageing', async () => {
    const a = readOnlyWorkflowApp();
    const r = await run(a, OR);
    // 10000102: confirmed, unpaid, no PayDate: due on its date 2025-03-02, 8 days before today
    expect(r.report.rows).toEqual([
      {
        InvoiceNr: '10000102',
        CustCode: 'C1',
        CustName: 'Alpha Ltd',
        DueDate: '2025-03-02',
        RVal: '46.20',
        DaysOverdue: '8',
        Bucket: '1-30',
      },
    ]);
    expect(r.report.totals).toEqual({
      Count: '1',
      RVal: '46.20',
      current: '0.00',
      '1-30': '46.20',
      '31-60': '0.00',
      '61-90': '0.00',
      '90+': '0.00',
    });
    expect((await run(a, { ...OR, spec: { CustCode: 'C2' } })).report.rows).toEqual([]);
    expect((await run(a, { ...OR, spec: { OnlyOverdue: '1' } })).report.totals.Count).toBe('1');
  });

  it('stock levels from the stock register', async () => {
    const a = workflowApp();
    a.store.insert('PUVc', 1, {
      fields: { SerNr: '10000501', VECode: 'C2', Location: 'MAIN', OKFlag: '1', RegDate: '2025-03-01' },
      rows: [{ ArtCode: 'I1', Quant: '10', UPrice: '6.00' }],
    });
    expect((await run(a, SL)).report.rows).toEqual([
      { Code: 'I1', Name: 'Widget', Location: 'MAIN', Instock: '10', OrddOut: '0', POQty: '0', Available: '10' },
    ]);
    // the confirmed invoice 10000102 took 2 x I1 and 1 x I2 from location ''
    const all = await run(a, { ...SL, spec: { OnlyInStock: '0' } });
    expect(all.report.rows.map((r: Record<string, string>) => [r.Code, r.Location, r.Instock])).toEqual([
      ['I1', '', '-2'],
      ['I1', 'MAIN', '10'],
      ['I2', '', '-1'],
    ]);
    expect(all.report.totals).toEqual({ Count: '3', Instock: '7' });
    expect((await run(a, { ...SL, spec: { OnlyInStock: '0', ArtCode: 'I2' } })).report.rows).toHaveLength(1);
  });

  it.each<[string, unknown, string]>([
    ['no reportwindow', { repname: 'SalesJournalRn' }, 'missing required member "reportwindow"'],
    ['no repname', { reportwindow: 'SalesJournalVClass' }, 'missing required member "repname"'],
    [
      'an unknown window',
      { reportwindow: 'X', repname: 'Y' },
      'reportwindow "X" is unknown; report windows: SalesJournalVClass, OpenReceivablesVClass, StockLevelsVClass',
    ],
    [
      'a report of another window',
      { reportwindow: 'SalesJournalVClass', repname: 'StockLevelsRn' },
      'repname "StockLevelsRn" is not a report of SalesJournalVClass; reports: SalesJournalRn',
    ],
    [
      'an unknown spec field',
      { ...SJ, spec: { from: '2025-01-01' } },
      'spec.from is not a field of SalesJournalRn; fields: sd, ed, CustCode, OnlyConfirmed',
    ],
    ['a bad date', { ...SJ, spec: { sd: '2025-02-30' } }, 'spec.sd must be a date YYYY-MM-DD, got "2025-02-30"'],
    ['a bad flag', { ...SJ, spec: { OnlyConfirmed: 'yes' } }, 'spec.OnlyConfirmed must be one of 0, 1, got "yes"'],
    [
      'an end before the start',
      { ...SJ, spec: { sd: '2025-03-05', ed: '2025-03-01' } },
      'spec.ed 2025-03-01 is before spec.sd 2025-03-05',
    ],
    ['an unknown language', { ...SJ, lang: 'FIN' }, 'lang "FIN" is not a report language; use ENG or EST'],
    ['a body that is not an object', [1], 'the report body must be a JSON object'],
  ])('%s fails with a clear message', async (_n, body, message) => {
    expect(await run(readOnlyWorkflowApp(), body)).toEqual(failure(message));
  });

  it('GET is refused', async () => {
    const res = await portal(readOnlyWorkflowApp(), { action: 'report', usercode: 'ADMIN' });
    expect(res.status).toBe(405);
  });
});

describe('getreportfilters (rule 4)', () => {
  const filters = async (a: App, query: Record<string, string>) =>
    JSON.parse((await portal(a, { action: 'action', register: 'getreportfilters', ...query })).text);

  it('lists the reports the user may run, their fields, types and defaults', async () => {
    const a = readOnlyWorkflowApp();
    const all = await filters(a, { usercode: 'ADMIN' });
    expect(validateJsonBody(spec, 'PortalReportFilters', all).errors).toEqual([]);
    expect(all.reports.map((r: Record<string, string>) => r.repname)).toEqual([
      'SalesJournalRn',
      'OpenReceivablesRn',
      'StockLevelsRn',
    ]);
    expect(all.reports[0].fields).toEqual([
      { name: 'sd', type: 2, label: 'From date', default: '2025-03-01' },
      { name: 'ed', type: 2, label: 'To date', default: '2025-03-10' },
      { name: 'CustCode', type: 1, label: 'Customer', default: '' },
      { name: 'OnlyConfirmed', type: 1, label: 'Confirmed invoices only', default: '1', values: ['0', '1'] },
    ]);
    const rep = await filters(a, { usercode: 'REP', lang: 'EST' });
    expect(rep.reports.map((r: Record<string, string>) => [r.repname, r.title])).toEqual([
      ['SalesJournalRn', 'Müügiarvete päevik'],
    ]);
  });

  it.each([[{}], [{ usercode: 'JD' }]])('%j: Access denied', async (query) => {
    expect(await filters(readOnlyWorkflowApp(), query)).toEqual(failure('Access denied'));
  });
});
