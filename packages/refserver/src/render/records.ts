import type { RecordPage } from '../store/record-query.js';
import { escapeXml } from './xml-escape.js';

/** How records are written: all fields (GET) or only the non-blank ones (POST, docs §4 rule 7). */
export interface RenderOptions {
  readonly nonBlank?: boolean;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** `@url` of a record: `/api/1/<register>/<key parts URL-encoded, joined by />` (docs §2 "Record", rule 11). */
export function recordUrl(register: string, keyParts: readonly string[]): string {
  return `/api/1/${register}/${keyParts.map((p) => encodeURIComponent(p)).join('/')}`;
}

function urlOf(page: RecordPage, raw: unknown[]): string {
  return recordUrl(
    page.plan.register,
    page.plan.keyCols.map((c) => text(raw[c])),
  );
}

function parseRows(raw: unknown[], col: number): Record<string, string>[] {
  if (col < 0) return [];
  const json = raw[col];
  return typeof json === 'string' && json !== '[]' ? (JSON.parse(json) as Record<string, string>[]) : [];
}

/**
 * The record elements of a page in XML: `<IVVc register sequence url>` with one element per field,
 * then `<rows>` with `<row rownumber="N">` (the fixed shape, see README "Wire format").
 */
export function recordsXml(page: RecordPage, options: RenderOptions = {}): string {
  const { plan } = page;
  const reg = plan.register;
  const open = `<${reg} register="${escapeXml(reg)}" sequence="`;
  const close = `</${reg}>\n`;
  let out = '';
  for (const raw of page.rows) {
    out += `${open}${text(raw[plan.seqCol])}" url="${escapeXml(urlOf(page, raw))}">`;
    for (const h of plan.header) {
      const v = text(raw[h.col]);
      if (v === '') {
        if (!options.nonBlank) out += `<${h.name}/>`;
      } else out += `<${h.name}>${escapeXml(v)}</${h.name}>`;
    }
    if (plan.rowsElement) {
      const rows = parseRows(raw, plan.rowsCol);
      if (rows.length === 0) out += '<rows/>';
      else {
        out += '<rows>';
        for (let i = 0; i < rows.length; i++) {
          const r = rows[i]!;
          out += `<row rownumber="${i}">`;
          for (const f of plan.rowFields) {
            const v = r[f];
            if (v === undefined || v === '') {
              if (!options.nonBlank) out += `<${f}/>`;
            } else out += `<${f}>${escapeXml(v)}</${f}>`;
          }
          out += '</row>';
        }
        out += '</rows>';
      }
    }
    out += close;
  }
  return out;
}

/** The records of a page as a JSON array text, with the same content as `recordsXml`. */
export function recordsJson(page: RecordPage, options: RenderOptions = {}): string {
  const { plan } = page;
  const head = `{"@register":${JSON.stringify(plan.register)},"@sequence":"`;
  const parts: string[] = [];
  for (const raw of page.rows) {
    let out = `${head}${text(raw[plan.seqCol])}","@url":${JSON.stringify(urlOf(page, raw))}`;
    for (const h of plan.header) {
      const v = text(raw[h.col]);
      if (v !== '' || !options.nonBlank) out += `,"${h.name}":${JSON.stringify(v)}`;
    }
    if (plan.rowsElement) {
      const rows = parseRows(raw, plan.rowsCol);
      out += ',"rows":[';
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]!;
        out += `${i > 0 ? ',' : ''}{"@rownumber":"${i}"`;
        for (const f of plan.rowFields) {
          const v = r[f] ?? '';
          if (v !== '' || !options.nonBlank) out += `,"${f}":${JSON.stringify(v)}`;
        }
        out += '}';
      }
      out += ']';
    }
    parts.push(`${out}}`);
  }
  return `[${parts.join(',')}]`;
}
