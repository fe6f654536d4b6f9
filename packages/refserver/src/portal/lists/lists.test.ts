import { validateXml, type XmlBodyKind } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import type { App } from '../../app-types.js';
import { REGISTERS_PER_OPERATION } from '../operation-registers.js';
import { asList, errstrOf, type Parsed, parsePortal, portal } from '../testing/portal-client.js';
import { PF, portalTestApps } from '../testing/portal-fixture.js';
import { referenceNumber } from './open-items.js';

const app = portalTestApps();

async function list(a: App, register: string, extra: Record<string, string> = {}) {
  const res = await portal(a, { register, ...extra });
  const data = parsePortal(res.text).data as Parsed;
  return { res, data, records: asList(data?.[register]) };
}

describe('list queries', () => {
  const kindOf = (r: string): XmlBodyKind =>
    r === 'ARVc' || r === 'APVc' ? 'portal-arap-list' : r === 'Kanban' ? 'open' : 'portal-list';
  it.each(REGISTERS_PER_OPERATION.list.registers.map((r) => r.name))(
    'serves %s with a valid body',
    async (register) => {
      const a = app();
      const { res } = await list(a, register);
      expect(res.status).toBe(200);
      const v = await validateXml(res.text, kindOf(register));
      expect(v.errors).toEqual([]);
      expect(v.failure).toBe(false);
    },
  );

  it('answers IVVc with SerNr, InvDate, CustCode, Sum4 and consistent paging', async () => {
    const a = app();
    const { data, records } = await list(a, 'IVVc', { perpage: '1' });
    expect([data.count, data.page, data.perpage, data.totalpages]).toEqual(['2', '1', '1', '2']);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ SerNr: PF.draftInvoice, InvDate: '2025-03-01', CustCode: 'C1', Sum4: '46.20' });
    const second = await list(a, 'IVVc', { perpage: '1', page: '2' });
    expect(second.records.map((r) => r.SerNr)).toEqual([PF.confirmedInvoice]);
    const beyond = await list(a, 'IVVc', { perpage: '1', page: '3' });
    expect([beyond.data.count, beyond.records.length]).toEqual(['2', 0]);
  });

  it.each([
    [{ order: 'descending' }, [PF.confirmedInvoice, PF.draftInvoice]],
    [{ sortkey: 'InvDate', order: 'descending' }, [PF.confirmedInvoice, PF.draftInvoice]],
    [{ sd: '2025-03-02' }, [PF.confirmedInvoice]],
    [{ ed: '2025-03-01' }, [PF.draftInvoice]],
    [{ sd: '2025-03-01', ed: '2025-03-02' }, [PF.draftInvoice, PF.confirmedInvoice]],
    [{ search: 'ALPHA' }, [PF.draftInvoice, PF.confirmedInvoice]],
    [{ search: '102' }, [PF.confirmedInvoice]],
    [{ search: 'alpha 101' }, [PF.draftInvoice]],
    [{ bfilter: '1' }, [PF.confirmedInvoice]],
    [{ usercode: 'JD' }, [PF.draftInvoice, PF.confirmedInvoice]],
  ])('IVVc with %j lists %j', async (params, want) => {
    const { data, records } = await list(app(), 'IVVc', params);
    expect(records.map((r) => r.SerNr)).toEqual(want);
    expect(data.count).toBe(String(want.length));
  });

  it.each([
    [{ page: '0' }, 'parameter "page" must be a whole number from 1 to 999999999, got 0'],
    [{ page: 'x' }, 'parameter "page" must be a whole number from 1 to 999999999, got "x"'],
    [{ perpage: '0' }, 'parameter "perpage" must be a whole number from 1 to 100, got 0'],
    [{ perpage: '101' }, 'parameter "perpage" must be a whole number from 1 to 100, got 101'],
    [{ perpage: '1.5' }, 'parameter "perpage" must be a whole number from 1 to 100, got "1.5"'],
    [{ order: 'up' }, 'parameter "order" must be one of ascending, descending, got "up"'],
    [{ sd: '2025-02-30' }, 'parameter "sd" must be a date YYYY-MM-DD, got "2025-02-30"'],
    [{ sd: '2025-03-02', ed: '2025-03-01' }, 'parameter "sd" (2025-03-02) is after parameter "ed" (2025-03-01)'],
    [{ sortkey: 'Nope' }, /parameter "sortkey" must be a field of the IVVc list: SerNr, InvDate/],
    [{ bfilter: '2' }, 'parameter "bfilter" of the IVVc list is 0 drafts, 1 confirmed records: one of 0, 1; got "2"'],
    [{ usercode: 'NOBODY' }, 'usercode "NOBODY" is not a user of company 1'],
  ])('refuses %j', async (params, text) => {
    const res = await portal(app(), { register: 'IVVc', ...params });
    expect(errstrOf(res.text)).toMatch(text);
    expect((await validateXml(res.text, 'portal-list')).checkedAs).toBe('portal-result');
  });

  it('lists items of one group with bfilter and sorts amounts as numbers', async () => {
    const a = app();
    a.store.insert('INVc', 1, { fields: { Code: 'I3', Name: 'Bolt', UPrice1: '9.50', Group: 'GOODS' }, rows: [] });
    const { records } = await list(a, 'INVc', { bfilter: 'GOODS', sortkey: 'UPrice1' });
    expect(records.map((r) => [r.Code, r.UPrice1])).toEqual([
      ['I3', '9.50'],
      ['I1', '10.00'],
      ['I2', '20.00'],
    ]);
  });
});

describe('ARVc and APVc', () => {
  it('computes the 7-3-1 reference number', () => {
    // 2*7 + 0*3 + 1*1 + 0*7 + 0*3 + 0*1 + 0*7 + 1*3 = 18: check digit 2
    expect(referenceNumber('10000102')).toBe('100001022');
    // the textbook example: 6*7 + 5*3 + 4*1 + 3*7 + 2*3 + 1*1 = 89: check digit 1
    expect(referenceNumber('123456')).toBe('1234561');
  });

  it('lists open receivables: confirmed invoices less receipts and credit invoices', async () => {
    const a = app();
    a.store.write(() => {
      a.store.insert('IPVc', 1, {
        fields: { SerNr: '10000701', OKFlag: '1', TransDate: '2025-03-08' },
        rows: [{ InvoiceNr: PF.confirmedInvoice, RecVal: '20.00' }],
      });
      a.store.insert('IPVc', 1, {
        fields: { SerNr: '10000702', OKFlag: '0', TransDate: '2025-03-08' },
        rows: [{ InvoiceNr: PF.confirmedInvoice, RecVal: '5.00' }],
      });
      a.store.insert('IVVc', 1, {
        fields: { SerNr: '10000103', CustCode: 'C1', PayDeal: 'K', OKFlag: '1', Sum4: '10.00', InvDate: '2025-03-09' },
        rows: [{ stp: '3', OrdRow: PF.confirmedInvoice }],
      });
    });
    const { res, data, records } = await list(a, 'ARVc');
    expect((await validateXml(res.text, 'portal-arap-list')).valid).toBe(true);
    expect([data.page, data.total]).toEqual(['1', '1']);
    // 46.20 - 20.00 (confirmed receipt) - 10.00 (credit invoice); the draft receipt does not count
    expect(records[0]).toEqual({
      InvoiceNr: PF.confirmedInvoice,
      OfficialSerNr: '',
      RefStr: '100001022',
      RVal: '16.20',
      ARCurncyCode: 'EUR',
      CustCode: 'C1',
      CustName: 'Alpha Ltd',
      DueDate: '2025-03-02',
    });
    expect((await list(a, 'ARVc', { search: '16.2' })).records).toHaveLength(1);
    expect((await list(a, 'ARVc', { search: '100001022' })).records).toHaveLength(1);
    expect((await list(a, 'ARVc', { bfilter: 'C3' })).records).toHaveLength(0);
  });

  it('lists open payables: confirmed purchase invoices less outgoing payments', async () => {
    const a = app();
    a.store.write(() => {
      a.store.insert('VIVc', 1, {
        fields: {
          SerNr: '10000402',
          VECode: 'C2',
          VEName: 'Beta Supplies',
          InvoiceNr: 'B-77',
          RefStr: 'RF55',
          OKFlag: '1',
          PayVal: '122.00',
          CurncyCode: 'USD',
          DueDate: '2025-04-01',
        },
        rows: [],
      });
      a.store.insert('OPVc', 1, { fields: { SerNr: '10000801' }, rows: [{ VISerNr: '10000402', RecVal: '22.00' }] });
    });
    const { res, data, records } = await list(a, 'APVc');
    expect((await validateXml(res.text, 'portal-arap-list')).valid).toBe(true);
    expect(data.total).toBe('1');
    expect(records[0]).toEqual({
      SerNr: '10000402',
      InvoiceNr: 'B-77',
      RefStr: 'RF55',
      RVal: '100.00',
      CurncyCode: 'USD',
      VECode: 'C2',
      VEName: 'Beta Supplies',
      DueDate: '2025-04-01',
    });
    for (const search of ['b-77', 'rf55', 'beta', '100.00', 'c2', '10000402'])
      expect((await list(a, 'APVc', { search })).records).toHaveLength(1);
    expect((await list(a, 'APVc', { ed: '2025-03-31' })).records).toHaveLength(0);
  });

  it('an open payable whose invoice has no VEName names the vendor by its contact Name', async () => {
    const a = app();
    a.store.write(() => {
      a.store.insert('VIVc', 1, {
        fields: { SerNr: '10000403', VECode: 'C2', InvoiceNr: 'B-78', OKFlag: '1', PayVal: '10.00' },
        rows: [],
      });
    });
    const name = a.store.get('CUVc', 1, ['C2'])?.fields.Name ?? '';
    expect(name).not.toBe('');
    const { records } = await list(a, 'APVc');
    expect(records.find((r) => r.SerNr === '10000403')?.VEName).toBe(name);
    expect((await list(a, 'APVc', { search: name })).records.map((r) => r.SerNr)).toContain('10000403');
  });
});

describe('Kanban', () => {
  it('groups activities by state, caps each column at maxsize and filters by usercode', async () => {
    const a = app();
    a.store.write(() => {
      const act = (n: number, state: string, who: string) =>
        a.store.insert('ActVc', 1, {
          fields: {
            SerNr: String(10000900 + n),
            ActState: state,
            MainPersons: who,
            TransDate: '2025-03-01',
            Comment: `task ${n}`,
          },
          rows: [],
        });
      act(1, 'TODO', 'JD');
      act(2, 'TODO', 'JD,MK');
      act(3, 'TODO', 'JD');
      act(4, 'DONE', 'JD');
      act(5, 'TODO', 'MK');
    });
    const res = await portal(a, { register: 'Kanban', usercode: 'JD', maxsize: '2' });
    expect((await validateXml(res.text, 'open')).valid).toBe(true);
    const columns = asList(parsePortal(res.text).data.column);
    expect(columns.map((c) => [c.state, c.count, asList(c.ActVc).map((x) => x.SerNr)])).toEqual([
      ['TODO', '3', ['10000901', '10000902']],
      ['DONE', '1', ['10000904']],
    ]);
    const bad = await portal(a, { register: 'Kanban', maxsize: '0' });
    expect(errstrOf(bad.text)).toBe('parameter "maxsize" must be a whole number from 1 to 1000, got 0');
  });
});
