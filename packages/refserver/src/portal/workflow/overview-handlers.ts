import { formatAmount, parseDecimal } from '../../values/decimal.js';
import { groupRights, requireUser } from '../access.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { openPayables, openReceivables } from '../lists/open-items.js';
import { attrs, elementXml, okXml, recordElementXml } from '../xml.js';
import { ACT_STATE, ACT_TYPE, involves } from './activities.js';
import { openStepsFor } from './approval-state.js';
import { SIGN_STATUS, SIGNER_STATUS } from './signing-state.js';
import { type Wf, wfOf } from './wf-context.js';

/** One pending item of a user. */
interface Notice {
  readonly type: 'approval' | 'signing' | 'task';
  readonly id: string;
  readonly date: string;
  readonly source: string;
  readonly text: string;
}

function signingNotices(wf: Wf, usercode: string): Notice[] {
  const rows = wf.store.db
    .prepare(
      'SELECT s.activity, s.register, s.record_id FROM wf_signings s JOIN wf_signers p ON p.company = s.company ' +
        'AND p.activity = s.activity WHERE s.company = ? AND p.usercode = ? AND s.status NOT IN (?, ?) AND p.status <> ? ' +
        'ORDER BY CAST(s.activity AS INTEGER)',
    )
    .all(wf.company, usercode, SIGN_STATUS.signed, SIGN_STATUS.cancelled, SIGNER_STATUS.signed) as {
    activity: string;
    register: string;
    record_id: string;
  }[];
  return rows.map((r) => {
    const act = wf.store.get('ActVc', wf.company, [r.activity]);
    return {
      type: 'signing',
      id: r.activity,
      date: act?.fields.TransDate ?? '',
      source: `${r.register} ${r.record_id}`,
      text: act?.fields.Comment ?? `Sign ${r.register} ${r.record_id}`,
    };
  });
}

function taskNotices(wf: Wf, usercode: string): Notice[] {
  const rows = wf.store.db
    .prepare(
      'SELECT SerNr, TransDate, Comment, MainPersons, CCPersons, SourceRegister, SourceRecordId FROM "reg_ActVc" ' +
        'WHERE _company = ? AND ActState <> ? AND ActType NOT IN (?, ?) AND TransDate <= ? ORDER BY TransDate, SerNr',
    )
    .all(wf.company, ACT_STATE.done, ACT_TYPE.approval, ACT_TYPE.signing, wf.today) as Record<
    string,
    string | number
  >[];
  return rows
    .filter((r) =>
      involves({ MainPersons: String(r.MainPersons ?? ''), CCPersons: String(r.CCPersons ?? '') }, usercode),
    )
    .map((r) => ({
      type: 'task',
      id: String(r.SerNr),
      date: String(r.TransDate ?? ''),
      source: r.SourceRegister ? `${r.SourceRegister} ${r.SourceRecordId}` : '',
      text: String(r.Comment ?? ''),
    }));
}

/**
 * `getnotifications&usercode` (required): what waits for the user (body not shown, rule 11), as
 * `<notification type regname="ActVc" id date source>text</notification>`: approval steps the user may decide
 * now, signings the user has not signed, and open activities (not DONE, due today or earlier) naming the user
 * in MainPersons or CCPersons.
 */
const getnotifications: PortalHandler = {
  kind: 'sub-action',
  name: 'getnotifications',
  required: ['usercode'],
  handle(ctx) {
    const user = requireUser(ctx).Code!;
    const wf = wfOf(ctx);
    const approvals: Notice[] = openStepsFor(wf, user).map((s) => {
      const act = wf.store.get('ActVc', wf.company, [s.activity]);
      return {
        type: 'approval',
        id: s.activity,
        date: act?.fields.TransDate ?? '',
        source: `${s.register} ${s.recordId}`,
        text: act?.fields.Comment ?? '',
      };
    });
    const notices = [...approvals, ...signingNotices(wf, user), ...taskNotices(wf, user)];
    const inner = notices
      .map(
        (n) =>
          `<notification${attrs({ type: n.type, regname: 'ActVc', id: n.id, date: n.date, source: n.source })}>${elementXml('text', n.text)}</notification>`,
      )
      .join('');
    return { xml: okXml({ count: notices.length }, inner) };
  },
};

const monthStart = (d: string) => `${d.slice(0, 8)}01`;
const yearStart = (d: string) => `${d.slice(0, 4)}-01-01`;

/** Net sales (confirmed invoices less confirmed credit invoices) and invoice count between two dates. */
function sales(ctx: PortalContext, from: string, to: string): { total: number; count: number } {
  const rows = ctx.app.store.db
    .prepare(
      `SELECT Sum4, PayDeal, InvType FROM "reg_IVVc" WHERE _company = ? AND OKFlag = '1' AND InvDate >= ? AND InvDate <= ?`,
    )
    .all(ctx.company, from, to) as { Sum4: string; PayDeal: string; InvType: string }[];
  let total = 0;
  let count = 0;
  for (const r of rows) {
    const credit = r.PayDeal === 'K' || r.InvType === '3';
    const v = parseDecimal(r.Sum4) || 0;
    total += credit ? -v : v;
    if (!credit) count++;
  }
  return { total, count };
}

const sumOf = (rows: Record<string, string>[], pick = (_r: Record<string, string>) => true) =>
  rows.filter(pick).reduce((a, r) => a + (parseDecimal(r.RVal) || 0), 0);

/**
 * `getdashboardkpi[&usercode]`: KPIs computed from the data (body not shown, rule 11), as
 * `<kpi code label value [from to]/>`: SALES_MTD, SALES_YTD (net of credit invoices), INVOICES_MTD,
 * OPEN_AR, OVERDUE_AR (ARVc of the open-item lists), OPEN_AP, OPEN_ORDERS (orders no invoice was made from),
 * PENDING_APPROVALS (requests in status 2 or 3), OPEN_ACTIVITIES (not DONE); with usercode also MY_APPROVALS and
 * MY_TASKS.
 */
const getdashboardkpi: PortalHandler = {
  kind: 'sub-action',
  name: 'getdashboardkpi',
  handle(ctx) {
    const wf = wfOf(ctx);
    const user = ctx.usercode !== undefined ? requireUser(ctx).Code! : undefined;
    const db = ctx.app.store.db;
    const mtd = sales(ctx, monthStart(wf.today), wf.today);
    const ytd = sales(ctx, yearStart(wf.today), wf.today);
    const ar = openReceivables(ctx);
    const count = (sql: string, ...args: unknown[]) =>
      db
        .prepare(sql)
        .pluck()
        .get(ctx.company, ...args) as number;
    const orders = count(
      'SELECT COUNT(*) FROM "reg_ORVc" o WHERE o._company = ? AND NOT EXISTS (SELECT 1 FROM portal_links l ' +
        "WHERE l.company = o._company AND l.from_register = 'ORVc' AND l.from_id = CAST(o.SerNr AS TEXT) AND l.to_register = 'IVVc')",
    );
    const kpis: [string, string, string, Record<string, string>?][] = [
      ['SALES_MTD', 'Sales this month', formatAmount(mtd.total), { from: monthStart(wf.today), to: wf.today }],
      ['SALES_YTD', 'Sales this year', formatAmount(ytd.total), { from: yearStart(wf.today), to: wf.today }],
      ['INVOICES_MTD', 'Invoices this month', String(mtd.count), { from: monthStart(wf.today), to: wf.today }],
      ['OPEN_AR', 'Open receivables', formatAmount(sumOf(ar))],
      ['OVERDUE_AR', 'Overdue receivables', formatAmount(sumOf(ar, (r) => (r.DueDate ?? '') < wf.today))],
      ['OPEN_AP', 'Open payables', formatAmount(sumOf(openPayables(ctx)))],
      ['OPEN_ORDERS', 'Orders not invoiced', String(orders)],
      [
        'PENDING_APPROVALS',
        'Approvals in progress',
        String(count('SELECT COUNT(*) FROM wf_approvals WHERE company = ? AND status IN (2, 3)')),
      ],
      [
        'OPEN_ACTIVITIES',
        'Open activities',
        String(count('SELECT COUNT(*) FROM "reg_ActVc" WHERE _company = ? AND ActState <> ?', ACT_STATE.done)),
      ],
    ];
    if (user) {
      kpis.push(['MY_APPROVALS', 'Approvals waiting for me', String(openStepsFor(wf, user).length)]);
      kpis.push(['MY_TASKS', 'My open tasks', String(taskNotices(wf, user).length)]);
    }
    const inner = kpis
      .map(([code, label, value, extra]) => `<kpi${attrs({ code, label, value, ...extra })}/>`)
      .join('');
    return { xml: okXml({}, inner) };
  },
};

/**
 * `getbilinks[&usercode]`: business-intelligence links (table wf_bi_links) as `<link code name url/>`; a link
 * that needs a right is listed only for a usercode whose access group holds it.
 */
const getbilinks: PortalHandler = {
  kind: 'sub-action',
  name: 'getbilinks',
  handle(ctx) {
    const user = ctx.usercode !== undefined ? requireUser(ctx) : undefined;
    const rights = user ? groupRights(ctx.app.store, ctx.company, user.AccessGroup ?? '') : new Set<string>();
    wfOf(ctx);
    const rows = ctx.app.store.db
      .prepare('SELECT code, name, url, access_right FROM wf_bi_links WHERE company = ? ORDER BY code')
      .all(ctx.company) as { code: string; name: string; url: string; access_right: string }[];
    const inner = rows
      .filter((r) => r.access_right === '' || rights.has(r.access_right))
      .map((r) => `<link${attrs({ code: r.code, name: r.name, url: r.url })}/>`)
      .join('');
    return { xml: okXml({}, inner) };
  },
};

/**
 * `getcontactpersons[&id]` (named by rule 13 only; parameters and body not shown; ours): the contact persons
 * of a customer (`id` = CustCode, or all customers without it) from the contact relations ContactRelVc that
 * are valid today (not Invalid, not ended), as `<ContactRelVc>` records (CustCode, CustName, ContactCode,
 * ContactName, StartDate, EndDate; empty names filled from CUVc).
 */
const getcontactpersons: PortalHandler = {
  kind: 'sub-action',
  name: 'getcontactpersons',
  handle(ctx) {
    const store = ctx.app.store;
    const cust = ctx.params.get('id') || undefined;
    if (cust !== undefined && !store.lookup('CUVc', ctx.company, [cust]))
      throw new PortalError(`id "${cust}" is not a contact of company ${ctx.company}`);
    const rows = store.db
      .prepare(
        `SELECT CustCode, CustName, ContactCode, ContactName, StartDate, EndDate FROM "reg_ContactRelVc" WHERE _company = ? ` +
          `AND Invalid <> '1' AND (EndDate = '' OR EndDate >= ?)${cust ? ' AND CustCode = ?' : ''} ORDER BY CustCode, ContactCode`,
      )
      .all(ctx.company, ctx.today, ...(cust ? [cust] : [])) as Record<string, string>[];
    const name = (code: string, given: string) => given || (store.lookup('CUVc', ctx.company, [code])?.Name ?? '');
    const inner = rows
      .map((r) =>
        recordElementXml('ContactRelVc', [
          ['CustCode', r.CustCode ?? ''],
          ['CustName', name(r.CustCode ?? '', r.CustName ?? '')],
          ['ContactCode', r.ContactCode ?? ''],
          ['ContactName', name(r.ContactCode ?? '', r.ContactName ?? '')],
          ['StartDate', r.StartDate ?? ''],
          ['EndDate', r.EndDate ?? ''],
        ]),
      )
      .join('');
    return { xml: okXml({}, inner) };
  },
};

/** Notifications, dashboard KPIs, BI links and contact persons. */
export const overviewHandlers: readonly PortalHandler[] = [
  getnotifications,
  getdashboardkpi,
  getbilinks,
  getcontactpersons,
];
