import { closeXmlValidator } from '@erpcert/contract';
import { afterAll, afterEach } from 'vitest';
import type { App } from '../../app-types.js';
import type { RecordStore } from '../../store/record-store.js';
import { loadFixture } from '../../testing/fixtures.js';
import { testApp } from '../../testing/test-client.js';
import { grantRight, RIGHTS } from '../access.js';
import { addTemplate } from '../document/templates.js';
import { MAIL_FROM, MAIL_SERVER, setSetting } from '../settings.js';

/**
 * Hand-written portal data on top of `loadFixture` (contacts C1 Alpha Ltd / C2 Beta Supplies (vendor) /
 * C3 Gamma, items I1 10.00 VAT 22 %, I2 20.00 VAT 9 %) and C4 Delta OÜ (customer and vendor), so that expected values come from here and not from
 * the code under test. Sums below are worked out by hand: I1 2 x 10.00 = 20.00 (VAT 4.40), I2 1 x 20.00 =
 * 20.00 (VAT 1.80); Sum4 46.20.
 */
export const PF = {
  draftInvoice: '10000101',
  confirmedInvoice: '10000102',
  draftOrder: '10000201',
  quotation: '10000301',
  purchase: '10000401',
  mail: '10000501',
  orderDoc: '10000601',
} as const;

const twoRows = () => [
  { stp: '1', ArtCode: 'I1', Quant: '2', Price: '10.00', Sum: '20.00', VATCode: '1', Spec: 'Widget', SalesAcc: '3000' },
  { stp: '1', ArtCode: 'I2', Quant: '1', Price: '20.00', Sum: '20.00', VATCode: '2', Spec: 'Gadget', SalesAcc: '3000' },
];
const sums = { Sum0: '40.00', Sum1: '40.00', Sum2: '0.00', Sum3: '6.20', Sum4: '46.20' };

/**
 * Loads `loadFixture` plus users, rights, document templates (IVVc: INVOICE default, PROFORMA, INVSUMMARY
 * without rows; ORVc ORDER; QTVc QUOTE; VIVc PURCHASE; EPOrderDocVc ORDERDOC), mail settings and one
 * record of each kind the portal tests use.
 */
export function loadPortalFixture(store: RecordStore, company = 1): void {
  loadFixture(store, company);
  const add = (register: string, fields: Record<string, string>, rows: Record<string, string>[] = []) =>
    store.insert(register, company, { fields, rows });
  store.write(() => {
    for (const [code, name, group, closed, mail] of [
      ['ADMIN', 'Administrator', 'ADMIN', '0', 'admin@example.com'],
      ['JD', 'Jaan Tamm', 'SALES', '0', 'jd@example.com'],
      ['REP', 'Rita Report', 'REPORTS', '0', ''],
      ['ACC', 'Anu Accountant', 'ACCOUNTING', '0', ''],
      ['OLD', 'Former User', 'SALES', '1', ''],
    ] as const)
      add('UserVc', { Code: code, Name: name, AccessGroup: group, Closed: closed, emailAddr: mail });
    for (const [group, rights] of [
      ['ADMIN', [RIGHTS.portal, RIGHTS.admin, RIGHTS.unok, RIGHTS.reports]],
      ['SALES', [RIGHTS.portal]],
      ['REPORTS', [RIGHTS.portal, RIGHTS.reports]],
      ['ACCOUNTING', [RIGHTS.portal, RIGHTS.unok]],
    ] as const)
      for (const r of rights) grantRight(store, company, group, r);
    for (const [code, register, kind, isDefault, showRows] of [
      ['INVOICE', 'IVVc', 'invoice', true, true],
      ['PROFORMA', 'IVVc', 'proforma', false, true],
      ['INVSUMMARY', 'IVVc', 'invoice', false, false],
      ['ORDER', 'ORVc', 'order', true, true],
      ['QUOTE', 'QTVc', 'quote', true, true],
      ['PURCHASE', 'VIVc', 'purchase', true, true],
      ['ORDERDOC', 'EPOrderDocVc', 'orderdoc', true, true],
    ] as const)
      addTemplate(store, company, { code, register, kind, isDefault, showRows });
    setSetting(store, company, MAIL_FROM, 'billing@demo.example');
    setSetting(store, company, MAIL_SERVER, 'smtp.demo.example');
    add('CUVc', {
      Code: 'C4',
      Name: 'Delta OÜ',
      RegNr1: '12345678',
      CUType: '1',
      VEType: '1',
      eMail: 'delta@example.com',
    });
    const head = { CustCode: 'C1', Addr0: 'Alpha Ltd', PayDeal: '30', CurncyCode: 'EUR', ...sums };
    add('IVVc', { SerNr: PF.draftInvoice, InvDate: '2025-03-01', OKFlag: '0', ...head }, twoRows());
    add('IVVc', { SerNr: PF.confirmedInvoice, InvDate: '2025-03-02', OKFlag: '1', ...head }, twoRows());
    add('ORVc', { SerNr: PF.draftOrder, OrdDate: '2025-03-03', OKFlag: '0', ...head }, twoRows());
    add('QTVc', { SerNr: PF.quotation, QTDate: '2025-03-04', ...head }, twoRows());
    add(
      'VIVc',
      {
        SerNr: PF.purchase,
        InvDate: '2025-03-05',
        VECode: 'C2',
        VEName: 'Beta Supplies',
        OKFlag: '0',
        PayVal: '122.00',
        VATVal: '22.00',
      },
      [{ stp: '1', AccNumber: '4000', Sum: '100.00', VATCode: '1' }],
    );
    add('MailVc', { SerNr: PF.mail, TransDate: '2025-03-06', Subject: 'Hello', Math: 'old text' });
    add('EPOrderDocVc', { SerNr: PF.orderDoc, TransDate: '2025-03-07', OrdType: 'VAC', OKFlag: '0' }, [
      { stp: '1', EmpCodeRow: 'E001' },
      { stp: '1', EmpCodeRow: 'E002' },
    ]);
  });
}

/**
 * For a portal test file: returns a factory of in-process apps with the portal fixture loaded. Each test's
 * apps are closed after it, and the XSD validator after the file. Call once at the top level of the file.
 */
export function portalTestApps(): () => ReturnType<typeof testApp> {
  const apps: App[] = [];
  afterEach(() => {
    for (const a of apps.splice(0)) a.close();
  });
  afterAll(() => closeXmlValidator());
  return () => {
    const a = testApp();
    loadPortalFixture(a.store);
    apps.push(a);
    return a;
  };
}
