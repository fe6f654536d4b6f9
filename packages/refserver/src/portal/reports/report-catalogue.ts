import type { PortalContext } from '../handler.js';
import { openReceivablesReport, type ReportOutput, salesJournal, stockLevels } from './report-runs.js';

export type { ReportOutput } from './report-runs.js';

/** Report languages (`lang`, portal-action-api.md §4 "Report": "e.g. EST or ENG"). */
export const REPORT_LANGS = ['ENG', 'EST'] as const;
export type ReportLang = (typeof REPORT_LANGS)[number];

/** A text in each report language. */
export type Label = Readonly<Record<ReportLang, string>>;

/**
 * A specification field of a report (getreportfilters "fields:[{name, type, label?}]"; rule 4 "... field
 * types and defaults"). `type` uses the documented field type codes (§2 "Type codes": 1 string, 2 date, 5
 * decimal); `values` restricts a flag to 0/1.
 */
export interface ReportField {
  readonly name: string;
  readonly type: 1 | 2 | 5;
  readonly label: Label;
  readonly default: (today: string) => string;
  readonly values?: readonly string[];
}

/** A column of a report's output. */
export interface ReportColumn {
  readonly name: string;
  readonly type: 1 | 2 | 5;
  readonly label: Label;
}

/** One report: its window class, name, specification fields, columns and computation. */
export interface ReportDef {
  readonly reportwindow: string;
  readonly repname: string;
  readonly title: Label;
  readonly fields: readonly ReportField[];
  readonly columns: readonly ReportColumn[];
  run(ctx: PortalContext, spec: Readonly<Record<string, string>>): ReportOutput;
}

const label = (ENG: string, EST: string): Label => ({ ENG, EST });
const monthStart = (today: string) => `${today.slice(0, 8)}01`;
const FLAG = ['0', '1'] as const;
const str = (name: string, l: Label, dflt = ''): ReportField => ({ name, type: 1, label: l, default: () => dflt });
const flag = (name: string, l: Label, dflt: '0' | '1'): ReportField => ({ ...str(name, l, dflt), values: FLAG });
const col = (name: string, type: 1 | 2 | 5, ENG: string, EST: string): ReportColumn => ({
  name,
  type,
  label: label(ENG, EST),
});

/**
 * The reports of the reference server (README "Reports"). The docs name no report; these are computed from
 * the data: a sales journal, open receivables with ageing, stock levels.
 */
export const REPORTS: readonly ReportDef[] = [
  {
    reportwindow: 'SalesJournalVClass',
    repname: 'SalesJournalRn',
    title: label('Sales journal', 'Müügiarvete päevik'),
    fields: [
      { name: 'sd', type: 2, label: label('From date', 'Alates'), default: monthStart },
      { name: 'ed', type: 2, label: label('To date', 'Kuni'), default: (today) => today },
      str('CustCode', label('Customer', 'Klient')),
      flag('OnlyConfirmed', label('Confirmed invoices only', 'Ainult kinnitatud arved'), '1'),
    ],
    columns: [
      col('SerNr', 1, 'No.', 'Nr'),
      col('InvDate', 2, 'Date', 'Kuupäev'),
      col('CustCode', 1, 'Customer', 'Klient'),
      col('Addr0', 1, 'Name', 'Nimi'),
      col('CurncyCode', 1, 'Currency', 'Valuuta'),
      col('Net', 5, 'Net', 'Neto'),
      col('VAT', 5, 'VAT', 'KM'),
      col('Total', 5, 'Total', 'Kokku'),
    ],
    run: salesJournal,
  },
  {
    reportwindow: 'OpenReceivablesVClass',
    repname: 'OpenReceivablesRn',
    title: label('Open receivables', 'Laekumata arved'),
    fields: [
      str('CustCode', label('Customer', 'Klient')),
      flag('OnlyOverdue', label('Overdue only', 'Ainult tähtaja ületanud'), '0'),
    ],
    columns: [
      col('InvoiceNr', 1, 'Invoice', 'Arve'),
      col('CustCode', 1, 'Customer', 'Klient'),
      col('CustName', 1, 'Name', 'Nimi'),
      col('DueDate', 2, 'Due date', 'Maksetähtaeg'),
      col('RVal', 5, 'Open', 'Tasumata'),
      col('DaysOverdue', 5, 'Days overdue', 'Päevi üle tähtaja'),
      col('Bucket', 1, 'Age', 'Vanus'),
    ],
    run: openReceivablesReport,
  },
  {
    reportwindow: 'StockLevelsVClass',
    repname: 'StockLevelsRn',
    title: label('Stock levels', 'Laoseis'),
    fields: [
      str('Location', label('Location', 'Ladu')),
      str('ArtCode', label('Item (start of code)', 'Artikkel (koodi algus)')),
      flag('OnlyInStock', label('Items in stock only', 'Ainult laos olevad'), '1'),
    ],
    columns: [
      col('Code', 1, 'Item', 'Artikkel'),
      col('Name', 1, 'Name', 'Nimetus'),
      col('Location', 1, 'Location', 'Ladu'),
      col('Instock', 5, 'In stock', 'Laos'),
      col('OrddOut', 5, 'Ordered out', 'Tellitud'),
      col('POQty', 5, 'On purchase orders', 'Ostutellimustel'),
      col('Available', 5, 'Available', 'Saadaval'),
    ],
    run: stockLevels,
  },
];
