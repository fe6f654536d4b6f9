import type { App } from '../app-types.js';
import { Prng } from '../seed/prng.js';
import { DEMO_COMPANIES } from '../seed/seed-store.js';
import { SeedWriter, seedDate } from '../seed/seed-writer.js';
import { grantRight, RIGHTS } from './access.js';
import { AttachmentStore } from './attachments/attachment-store.js';
import type { DocumentKind } from './document/labels.js';
import { addTemplate } from './document/templates.js';
import { ACTIVITY_STATES } from './registers.js';
import { MAIL_FROM, MAIL_SERVER, setSetting } from './settings.js';

/** Access groups and their rights in every demo company (README "Users and permissions"). */
export const DEMO_ACCESS: Readonly<Record<string, readonly string[]>> = {
  ADMIN: [RIGHTS.portal, RIGHTS.admin, RIGHTS.unok, RIGHTS.reports],
  SALES: [RIGHTS.portal],
  REPORTS: [RIGHTS.portal, RIGHTS.reports],
  ACCOUNTING: [RIGHTS.portal, RIGHTS.unok],
};

/** Users the portal adds to the demo master data's ERPCERT, ADMIN (group ADMIN), JD and MK (SALES). */
export const DEMO_PORTAL_USERS = [
  { Code: 'REP', Name: 'Rita Report', AccessGroup: 'REPORTS', emailAddr: 'rep@demo.example' },
  { Code: 'ACC', Name: 'Anu Accountant', AccessGroup: 'ACCOUNTING', emailAddr: 'acc@demo.example' },
] as const;

/** Document templates: company 1 has all of them; company 2 only the invoice (so other documents fail there). */
const TEMPLATES: readonly [string, string, DocumentKind, boolean, boolean][] = [
  ['INVOICE', 'IVVc', 'invoice', true, true],
  ['PROFORMA', 'IVVc', 'proforma', false, true],
  ['INVSUMMARY', 'IVVc', 'invoice', false, false],
  ['ORDER', 'ORVc', 'order', true, true],
  ['ORDCONF', 'ORVc', 'orderconf', false, true],
  ['QUOTE', 'QTVc', 'quote', true, true],
  ['PURCHASE', 'VIVc', 'purchase', true, true],
  ['ORDERDOC', 'EPOrderDocVc', 'orderdoc', true, true],
];

const ACT_TYPES = ['CALL', 'MEET', 'TASK'];
const TOPICS = ['Follow up offer', 'Delivery check', 'Contract renewal', 'Price talk', 'Visit', 'Support call'];

/**
 * The portal's demo data (AppModule.seed, inside the seeding transaction): access rights, users, mail
 * settings (company 1 only), document templates, and records of the portal registers scaled by `size` like
 * the core transactions (none at size 0), plus one attachment on the first invoice.
 */
export function seedPortal(app: App, size: number): void {
  const store = app.store;
  for (const c of DEMO_COMPANIES) {
    const w = new SeedWriter(store, c.code, new Prng(0x9047a1 + c.code));
    const r = w.rng;
    for (const [group, rights] of Object.entries(DEMO_ACCESS))
      for (const right of rights) grantRight(store, c.code, group, right);
    for (const u of DEMO_PORTAL_USERS) w.add('UserVc', { ...u, Closed: '0', LangCode: 'ENG' });
    for (const [code, register, kind, isDefault, showRows] of TEMPLATES)
      if (c.code === 1 || register === 'IVVc')
        addTemplate(store, c.code, { code, register, kind, isDefault, showRows });
    if (c.code === 1) {
      setSetting(store, c.code, MAIL_FROM, 'billing@demo.example');
      setSetting(store, c.code, MAIL_SERVER, 'smtp.demo.example');
    }
    const customers = store.db
      .prepare(`SELECT Code, Name FROM "reg_CUVc" WHERE _company = ? AND CUType = '1' ORDER BY Code`)
      .raw(true)
      .all(c.code) as [string, string][];
    const employees = store.db
      .prepare('SELECT Code FROM "reg_EmplVc" WHERE _company = ? ORDER BY Code')
      .pluck()
      .all(c.code) as string[];
    const scale = Math.ceil(size * c.share);
    const count = (d: number, min = 1) => (scale === 0 ? 0 : Math.max(min, Math.ceil(scale / d)));
    const serNr = (i: number) => String(10000001 + i);
    for (let i = 0; i < count(10, 6) && customers.length > 0; i++) {
      const [cu, name] = r.pick(customers);
      const day = i * 3;
      w.add('ActVc', {
        SerNr: serNr(i),
        TransDate: seedDate(day),
        EndDate: seedDate(day),
        StartTime: '09:00',
        EndTime: '10:00',
        CostTime: '1',
        ActType: r.pick(ACT_TYPES),
        ActState: ACTIVITY_STATES[i % ACTIVITY_STATES.length]!,
        CUCode: cu,
        CUName: name,
        Comment: `${c.prefix}${r.pick(TOPICS)}`,
        MainPersons: i % 4 === 3 ? 'JD,MK' : r.pick(['JD', 'MK']),
      });
    }
    for (let i = 0; i < count(50); i++) {
      w.add(
        'EPOrderDocVc',
        {
          SerNr: serNr(i),
          TransDate: seedDate(i * 20),
          OrdType: r.pick(['VAC', 'TRIP', 'HIRE']),
          OKFlag: i % 2 ? '1' : '0',
        },
        employees.slice(0, 2).map((e) => ({ stp: '1', EmpCodeRow: e })),
      );
      w.add(
        'StockTakeVc',
        { SerNr: serNr(i), TransDate: seedDate(i * 30), Location: 'MAIN', Comment: 'Stock count', OKFlag: '0' },
        [{ stp: '1', ArtCode: 'A0001', Quant: String(r.int(1, 40)) }],
      );
      w.add('MailVc', {
        SerNr: serNr(i),
        TransDate: seedDate(i * 7),
        Subject: `${c.prefix}Newsletter ${i + 1}`,
        MailFrom: 'billing@demo.example',
        MailTo: 'customers@demo.example',
        Math: '<p>Hello</p>',
      });
    }
    for (let i = 0; i < count(100); i++) {
      w.add('EPShiftSheetVc', {
        SerNr: serNr(i),
        TransDate: seedDate(i * 14),
        EmpCode: employees[0] ?? '',
        OKFlag: '0',
      });
      w.add('ErpSignSessVc', { SerNr: serNr(i), TransDate: seedDate(i * 14), Status: '0', OKFlag: '0' }, [
        { stp: '1', Signer: 'JD', SignerName: 'Jaan Tamm', eMail: 'jd@demo.example', SignStatus: '0' },
      ]);
      w.add('ErpExternalSignersVc', { SerNr: serNr(i), TransDate: seedDate(i * 14), OKFlag: '0' }, [
        { stp: '1', Name: 'Outside Signer', eMail: 'signer@demo.example' },
      ]);
      w.add('PlanAbsenceVc', {
        SerNr: serNr(i),
        EmplCode: employees[0] ?? '',
        StartDate1: seedDate(i * 30 + 180),
        EndDate1: seedDate(i * 30 + 184),
        AbsTypeCode: 'VAC',
        OKFlag: '1',
      });
    }
    const firstInvoice = store.db
      .prepare('SELECT SerNr FROM "reg_IVVc" WHERE _company = ? ORDER BY SerNr LIMIT 1')
      .pluck()
      .get(c.code);
    if (firstInvoice !== undefined)
      new AttachmentStore(store).add(
        c.code,
        'IVVc',
        String(firstInvoice),
        'delivery-note.txt',
        Buffer.from('Delivered in full.\n'),
        '2024-01-02',
        r.uuid(),
      );
  }
}
