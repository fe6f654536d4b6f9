import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  closeSharedWorkflowApp,
  closeWorkflowApps,
  readOnlyWorkflowApp,
  workflowApp,
} from '../workflow/testing/workflow-fixture.js';
import { type Body, head, i1, row, rowTrigger, trigger, warnings } from './testing/trigger-client.js';

afterEach(closeWorkflowApps);
afterAll(closeSharedWorkflowApp);

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
