import { unescapeXml } from '@erpcert/contract';
import type { RecordStore } from '../../store/record-store.js';
import type { StoredRecord } from '../../store/record-table.js';
import { formatAmount, parseDecimal } from '../../values/decimal.js';
import { type DocumentLanguage, LABELS, type Labels } from './labels.js';
import { A4, type PdfLine, type PdfPage, type PdfText, writePdf } from './pdf-writer.js';
import type { DocumentTemplate } from './templates.js';

/** A finished document. */
export interface RenderedDocument {
  /** `<register>-<SerNr>.pdf`. */
  readonly name: string;
  readonly title: string;
  readonly pdf: Buffer;
}

/** What a register's document prints: its dates, its party and how its rows read. */
interface Layout {
  readonly dates: readonly (readonly [keyof Labels, string])[];
  readonly party: 'customer' | 'supplier' | 'none';
  readonly columns: 'sales' | 'purchase' | 'employees';
}

const LAYOUTS: Readonly<Record<string, Layout>> = {
  IVVc: {
    dates: [
      ['date', 'InvDate'],
      ['due', 'PayDate'],
    ],
    party: 'customer',
    columns: 'sales',
  },
  ORVc: {
    dates: [
      ['date', 'OrdDate'],
      ['delivery', 'PlanShip'],
    ],
    party: 'customer',
    columns: 'sales',
  },
  QTVc: {
    dates: [
      ['date', 'QTDate'],
      ['validUntil', 'ValidUntilDate'],
    ],
    party: 'customer',
    columns: 'sales',
  },
  VIVc: {
    dates: [
      ['date', 'InvDate'],
      ['due', 'DueDate'],
    ],
    party: 'supplier',
    columns: 'purchase',
  },
  EPOrderDocVc: { dates: [['date', 'TransDate']], party: 'none', columns: 'employees' },
};

const LEFT = 40;
const RIGHT = A4.width - 40;
const BOTTOM = 90;

/** Lays text out top to bottom, starting a new page when the current one is full. */
class Sheet {
  readonly pages: { texts: PdfText[]; lines: PdfLine[] }[] = [];
  y = 0;
  #header: () => void = () => {};

  constructor() {
    this.newPage();
  }

  newPage(): void {
    this.pages.push({ texts: [], lines: [] });
    this.y = A4.height - 50;
  }

  /** Repeats the rows table header on each new page. */
  set header(fn: () => void) {
    this.#header = fn;
  }

  ensure(height: number): void {
    if (this.y - height >= BOTTOM) return;
    this.newPage();
    this.#header();
  }

  text(x: number, text: string, size = 9, opts: { bold?: boolean; align?: 'left' | 'right' } = {}): void {
    if (text === '') return;
    this.pages.at(-1)!.texts.push({ x, y: this.y, size, text, ...opts });
  }

  rule(): void {
    this.pages.at(-1)!.lines.push({ x1: LEFT, y1: this.y, x2: RIGHT, y2: this.y });
  }
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const amount = (s: string | undefined) =>
  s && Number.isFinite(parseDecimal(s)) ? formatAmount(parseDecimal(s)) : (s ?? '');

/** Plain text of a Math field that may hold HTML (posttext, §4 "Post text": "text or HTML"). */
function plainText(html: string): string[] {
  const markup = html
    .replace(/<br\s*\/?>|<\/p>|<\/div>|<\/li>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ');
  const text = unescapeXml(markup);
  const lines: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      if ((line + word).length > 95) {
        lines.push(line.trimEnd());
        line = '';
      }
      line += `${word} `;
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

/**
 * Renders a record as a PDF document: company, heading of the template kind in the language, number and
 * dates, the customer or supplier with address and VAT number, the rows (unless the template leaves them
 * out) and the totals. README "Documents".
 */
export function renderDocument(
  store: RecordStore,
  company: number,
  register: string,
  rec: StoredRecord,
  template: DocumentTemplate,
  lang: DocumentLanguage,
  created: Date,
): RenderedDocument {
  const layout = LAYOUTS[register];
  if (!layout) throw new Error(`renderDocument: no layout for ${register}`);
  const L = LABELS[lang];
  const f = rec.fields;
  const serNr = f.SerNr ?? '';
  const title = `${L.heading[template.kind]} ${serNr}`;
  const s = new Sheet();
  const companyName = store.companies().find((c) => c.code === company)?.name ?? `Company ${company}`;

  s.text(LEFT, companyName, 14, { bold: true });
  s.text(RIGHT, L.heading[template.kind], 16, { bold: true, align: 'right' });
  s.y -= 22;
  s.text(RIGHT, `${L.number} ${serNr}`, 10, { align: 'right' });
  for (const [label, field] of layout.dates) {
    if (!f[field]) continue;
    s.y -= 13;
    s.text(RIGHT, `${L[label] as string}: ${f[field]}`, 9, { align: 'right' });
  }
  if (layout.party !== 'none') {
    const code = layout.party === 'customer' ? (f.CustCode ?? '') : (f.VECode ?? '');
    const cu = code ? store.get('CUVc', company, [code])?.fields : undefined;
    const name = (layout.party === 'customer' ? f.Addr0 : f.VEName) || cu?.Name || '';
    s.y -= 20;
    s.text(LEFT, layout.party === 'customer' ? L.customer : L.supplier, 8, { bold: true });
    s.y -= 13;
    s.text(LEFT, [code, name].filter(Boolean).join('  '), 10, { bold: true });
    for (const line of [cu?.InvAddr0, cu?.InvAddr1, cu?.InvAddr2, cu?.CountryCode]) {
      if (!line) continue;
      s.y -= 12;
      s.text(LEFT, line, 9);
    }
    if (cu?.VATNr) {
      s.y -= 12;
      s.text(LEFT, `${L.vatNr} ${cu.VATNr}`, 9);
    }
  }
  if (register === 'EPOrderDocVc' && f.OrdType) {
    s.y -= 16;
    s.text(LEFT, `${L.type}: ${f.OrdType}`, 9);
  }
  s.y -= 26;

  if (template.showRows && rec.rows.length > 0) {
    const head = () => {
      if (layout.columns === 'sales') {
        s.text(LEFT, L.item, 8, { bold: true });
        s.text(110, L.description, 8, { bold: true });
        s.text(360, L.qty, 8, { bold: true, align: 'right' });
        s.text(430, L.price, 8, { bold: true, align: 'right' });
        s.text(485, L.discount, 8, { bold: true, align: 'right' });
      } else if (layout.columns === 'purchase') {
        s.text(LEFT, L.account, 8, { bold: true });
        s.text(110, L.description, 8, { bold: true });
        s.text(485, L.vat, 8, { bold: true, align: 'right' });
      } else s.text(LEFT, L.employee, 8, { bold: true });
      if (layout.columns !== 'employees') s.text(RIGHT, L.sum, 8, { bold: true, align: 'right' });
      s.y -= 4;
      s.rule();
      s.y -= 12;
    };
    head();
    s.header = head;
    for (const r of rec.rows) {
      s.ensure(14);
      if (layout.columns === 'sales') {
        const spec = r.Spec || (r.ArtCode ? (store.get('INVc', company, [r.ArtCode])?.fields.Name ?? '') : '');
        s.text(LEFT, cut(r.ArtCode ?? '', 12), 9);
        s.text(110, cut(spec, 42), 9);
        if (r.stp === '' || r.stp === '1' || r.stp === undefined) {
          s.text(360, r.Quant ?? '', 9, { align: 'right' });
          s.text(430, amount(r.Price), 9, { align: 'right' });
          if (r.vRebate && parseDecimal(r.vRebate) !== 0) s.text(485, r.vRebate, 9, { align: 'right' });
          s.text(RIGHT, amount(r.Sum), 9, { align: 'right' });
        }
      } else if (layout.columns === 'purchase') {
        s.text(LEFT, r.AccNumber ?? '', 9);
        s.text(110, cut(r.Comment ?? '', 48), 9);
        s.text(485, r.VATCode ?? '', 9, { align: 'right' });
        s.text(RIGHT, amount(r.Sum), 9, { align: 'right' });
      } else {
        const code = r.EmpCodeRow ?? '';
        const e = code ? store.get('EmplVc', company, [code])?.fields : undefined;
        s.text(LEFT, [code, [e?.Firstname, e?.Surname].filter(Boolean).join(' ')].filter(Boolean).join('  '), 9);
      }
      s.y -= 14;
    }
    s.rule();
    s.y -= 16;
  }

  const currency = f.CurncyCode ? ` ${f.CurncyCode}` : '';
  const totals: [string, string][] =
    register === 'VIVc'
      ? [
          [L.net, formatAmount(parseDecimal(f.PayVal || '0') - parseDecimal(f.VATVal || '0'))],
          [L.vat, amount(f.VATVal || '0')],
          [L.total, amount(f.PayVal || '0')],
        ]
      : register === 'EPOrderDocVc'
        ? []
        : [
            [L.net, amount(f.Sum1 || '0')],
            [L.vat, amount(f.Sum3 || '0')],
            [L.total, amount(f.Sum4 || '0')],
          ];
  for (const [label, value] of totals) {
    s.ensure(14);
    const last = label === L.total;
    s.text(430, label, 9, { bold: last, align: 'right' });
    s.text(RIGHT, `${value}${currency}`, 9, { bold: last, align: 'right' });
    s.y -= 14;
  }
  if (f.Math) {
    s.y -= 10;
    for (const line of plainText(f.Math)) {
      s.ensure(12);
      s.text(LEFT, line, 9);
      s.y -= 12;
    }
  }
  const pages: PdfPage[] = s.pages.map((p, i) => ({
    lines: p.lines,
    texts: [...p.texts, { x: RIGHT, y: 40, size: 8, text: `${L.page} ${i + 1}/${s.pages.length}`, align: 'right' }],
  }));
  return { name: `${register}-${serNr}.pdf`, title, pdf: writePdf(pages, { title, created }) };
}
