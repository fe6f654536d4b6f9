/**
 * A small PDF 1.4 writer (ISO 32000-1): text in the standard fonts Helvetica and Helvetica-Bold with
 * WinAnsiEncoding, and lines. Content streams are uncompressed, so the text of a document can be found in
 * its bytes. Enough for the portal's `document` action; not a general PDF library.
 */

/** A text run at (x, y) in points from the bottom left; `align: 'right'` ends it at x. */
export interface PdfText {
  readonly x: number;
  readonly y: number;
  readonly size: number;
  readonly text: string;
  readonly bold?: boolean;
  readonly align?: 'left' | 'right';
}

/** A straight line. */
export interface PdfLine {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

/** One page. */
export interface PdfPage {
  readonly texts: readonly PdfText[];
  readonly lines: readonly PdfLine[];
}

/** The document information dictionary. */
export interface PdfInfo {
  readonly title: string;
  /** `D:YYYYMMDDHHmmSS` is built from it. */
  readonly created: Date;
}

/** A4 in points. */
export const A4 = { width: 595, height: 842 } as const;

/** cp1252 code points 0x80-0x9F (WinAnsiEncoding) by Unicode character. */
const WIN_ANSI_EXTRA: Readonly<Record<string, number>> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  ˆ: 0x88,
  '‰': 0x89,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

/**
 * Text as WinAnsi bytes. Letters the encoding lacks lose their accents (Latvian ā -> a, ķ -> k); anything
 * still outside it becomes `?`.
 */
export function winAnsiBytes(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if ((c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff)) out.push(c);
    else if (WIN_ANSI_EXTRA[ch] !== undefined) out.push(WIN_ANSI_EXTRA[ch]!);
    else {
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      const b = base.codePointAt(0) ?? 0x3f;
      out.push(base.length > 0 && ((b >= 0x20 && b <= 0x7e) || (b >= 0xa0 && b <= 0xff)) ? b : 0x3f);
    }
  }
  return out;
}

/** A PDF literal string: `(` ... `)` with `\`, `(`, `)` escaped and bytes above 126 as octal, so streams stay ASCII. */
export function pdfString(text: string): string {
  let s = '(';
  for (const b of winAnsiBytes(text)) {
    if (b === 0x28 || b === 0x29 || b === 0x5c) s += `\\${String.fromCharCode(b)}`;
    else if (b > 0x7e) s += `\\${b.toString(8).padStart(3, '0')}`;
    else s += String.fromCharCode(b);
  }
  return `${s})`;
}

/** Helvetica advance widths (1/1000 em) of the characters amounts use; others count as 556. */
const WIDTHS: Readonly<Record<string, number>> = { ' ': 278, '.': 278, ',': 278, '-': 333, '%': 889, '/': 278 };

/** Approximate width of a text in points (exact for digits and the punctuation of amounts). */
export function textWidth(text: string, size: number): number {
  let w = 0;
  for (const ch of text) w += WIDTHS[ch] ?? 556;
  return (w * size) / 1000;
}

const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

function contentStream(page: PdfPage): string {
  const parts: string[] = [];
  if (page.lines.length > 0) {
    parts.push('0.5 w');
    for (const l of page.lines) parts.push(`${num(l.x1)} ${num(l.y1)} m ${num(l.x2)} ${num(l.y2)} l S`);
  }
  for (const t of page.texts) {
    const x = t.align === 'right' ? t.x - textWidth(t.text, t.size) : t.x;
    parts.push(`BT /${t.bold ? 'F2' : 'F1'} ${num(t.size)} Tf ${num(x)} ${num(t.y)} Td ${pdfString(t.text)} Tj ET`);
  }
  return `${parts.join('\n')}\n`;
}

function pdfDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `D:${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
}

/**
 * Writes a PDF: catalog, page tree, two fonts, one page object and one content stream per page, the info
 * dictionary, a cross-reference table with the byte offset of every object, and the trailer.
 */
export function writePdf(pages: readonly PdfPage[], info: PdfInfo): Buffer {
  if (pages.length === 0) throw new Error('writePdf: a PDF needs at least one page');
  // objects: 1 catalog, 2 pages, 3 font F1, 4 font F2, 5 info, then page/content pairs
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 6 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  objects[5] = `<< /Title ${pdfString(info.title)} /Producer (erpcert reference server) /CreationDate (${pdfDate(info.created)}) >>`;
  pages.forEach((page, i) => {
    const id = pageIds[i]!;
    const stream = contentStream(page);
    objects[id] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${A4.width} ${A4.height}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${id + 1} 0 R >>`;
    objects[id + 1] = `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}endstream`;
  });
  // the header's second line holds bytes above 127, so that tools treat the file as binary (§7.5.2)
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out, 'latin1');
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
