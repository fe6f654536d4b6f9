/**
 * What each list query of a register serves (portal-action-api.md §4 "List query", rule 8; the row fields
 * of registers other than IVVc, ARVc and APVc are "not shown", rule 14, so they are the server's choice;
 * README "List queries" lists them).
 */
export interface ListDef {
  /** The register and the table behind it. */
  readonly register: string;
  readonly key: string;
  /** Fields of each record element; IVVc must carry SerNr, InvDate, CustCode, Sum4 (§2 "Paged list"). */
  readonly fields: readonly string[];
  /** Fields `search` looks in. */
  readonly search: readonly string[];
  /** The main date `sd`/`ed` bound; undefined: the register has none and sd/ed are only checked. */
  readonly date?: string;
  /** What `bfilter` selects: equality on a field, optionally from a fixed set of values. */
  readonly bfilter: { readonly field: string; readonly meaning: string; readonly values?: readonly string[] };
  /** Fields sorted as numbers. */
  readonly numeric: readonly string[];
  /** `usercode` keeps the records whose field (a comma-separated user list) names the user. */
  readonly userField?: string;
}

const OKFLAG = { field: 'OKFlag', meaning: '0 drafts, 1 confirmed records', values: ['0', '1'] } as const;

/** The table-backed lists (ARVc, APVc and Kanban are computed: open-items.ts, kanban.ts). */
export const LIST_DEFS: Readonly<Record<string, ListDef>> = {
  INVc: {
    register: 'INVc',
    key: 'Code',
    fields: ['Code', 'Name', 'UPrice1', 'Unittext', 'Group', 'ItemType', 'VATCode'],
    search: ['Code', 'Name', 'BarCode'],
    bfilter: { field: 'Group', meaning: 'item group (INVc Group)' },
    numeric: ['UPrice1'],
  },
  CUVc: {
    register: 'CUVc',
    key: 'Code',
    fields: ['Code', 'Name', 'RegNr1', 'VATNr', 'CountryCode', 'Phone', 'eMail', 'Classification', 'DateCreated'],
    search: ['Code', 'Name', 'RegNr1', 'VATNr', 'eMail', 'Phone'],
    date: 'DateCreated',
    bfilter: { field: 'Classification', meaning: 'customer class (CUVc Classification)' },
    numeric: [],
  },
  ActVc: {
    register: 'ActVc',
    key: 'SerNr',
    fields: [
      'SerNr',
      'TransDate',
      'EndDate',
      'StartTime',
      'EndTime',
      'ActType',
      'ActState',
      'CUCode',
      'CUName',
      'Comment',
      'MainPersons',
      'ActResult',
    ],
    search: ['SerNr', 'Comment', 'CUCode', 'CUName', 'ActType', 'MainPersons'],
    date: 'TransDate',
    bfilter: { field: 'ActType', meaning: 'activity type (ActVc ActType)' },
    numeric: ['SerNr'],
    userField: 'MainPersons',
  },
  IVVc: {
    register: 'IVVc',
    key: 'SerNr',
    fields: ['SerNr', 'InvDate', 'CustCode', 'Addr0', 'PayDate', 'CurncyCode', 'Sum4', 'OKFlag', 'OfficialSerNr'],
    search: ['SerNr', 'CustCode', 'Addr0', 'OfficialSerNr', 'InvoiceNr'],
    date: 'InvDate',
    bfilter: OKFLAG,
    numeric: ['SerNr', 'Sum4'],
  },
  VIVc: {
    register: 'VIVc',
    key: 'SerNr',
    fields: ['SerNr', 'InvDate', 'VECode', 'VEName', 'InvoiceNr', 'DueDate', 'PayVal', 'CurncyCode', 'OKFlag'],
    search: ['SerNr', 'VECode', 'VEName', 'InvoiceNr', 'RefStr'],
    date: 'InvDate',
    bfilter: OKFLAG,
    numeric: ['SerNr', 'PayVal'],
  },
  StockTakeVc: {
    register: 'StockTakeVc',
    key: 'SerNr',
    fields: ['SerNr', 'TransDate', 'Location', 'Comment', 'OKFlag'],
    search: ['SerNr', 'Location', 'Comment'],
    date: 'TransDate',
    bfilter: OKFLAG,
    numeric: ['SerNr'],
  },
  ORVc: {
    register: 'ORVc',
    key: 'SerNr',
    fields: ['SerNr', 'OrdDate', 'CustCode', 'Addr0', 'PlanShip', 'CurncyCode', 'Sum4', 'OKFlag', 'OrderStatus'],
    search: ['SerNr', 'CustCode', 'Addr0'],
    date: 'OrdDate',
    bfilter: OKFLAG,
    numeric: ['SerNr', 'Sum4'],
  },
  QTVc: {
    register: 'QTVc',
    key: 'SerNr',
    fields: ['SerNr', 'QTDate', 'CustCode', 'ValidUntilDate', 'CurncyCode', 'Sum4'],
    search: ['SerNr', 'CustCode'],
    date: 'QTDate',
    bfilter: { field: 'CustCode', meaning: 'customer code (QTVc has no OKFlag)' },
    numeric: ['SerNr', 'Sum4'],
  },
  EPOrderDocVc: {
    register: 'EPOrderDocVc',
    key: 'SerNr',
    fields: ['SerNr', 'TransDate', 'OrdType', 'ShortSign', 'Comment', 'OKFlag'],
    search: ['SerNr', 'OrdType', 'ShortSign', 'Comment'],
    date: 'TransDate',
    bfilter: OKFLAG,
    numeric: ['SerNr'],
  },
};
