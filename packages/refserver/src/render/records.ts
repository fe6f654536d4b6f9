import { escapeXml } from '@erpcert/contract';
import type { RecordPage, RenderPlan } from '../store/record-query.js';

/** How records are written: all fields (GET) or only the non-blank ones (POST, docs §4 rule 7). */
export interface RenderOptions {
  readonly nonBlank?: boolean;
}

const text = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

/** `@url` of a record: `/api/1/<register>/<key parts URL-encoded, joined by />` (docs §2 "Record", rule 11). */
export function recordUrl(register: string, keyParts: readonly string[]): string {
  return `/api/1/${register}/${keyParts.map((p) => encodeURIComponent(p)).join('/')}`;
}

function urlOf(plan: RenderPlan, raw: unknown[]): string {
  let url = `/api/1/${plan.register}`;
  for (const c of plan.keyCols) url += `/${encodeURIComponent(text(raw[c]))}`;
  return url;
}

function parseRows(raw: unknown[], col: number): Record<string, string>[] {
  if (col < 0) return [];
  const json = raw[col];
  return typeof json === 'string' && json !== '[]' ? (JSON.parse(json) as Record<string, string>[]) : [];
}

interface Tags {
  readonly open: readonly string[];
  readonly close: readonly string[];
  readonly empty: readonly string[];
  /** `,"<name>":` for JSON. */
  readonly key: readonly string[];
}
const tagCache = new Map<string, Tags>();

/** Tag strings per field list, made once and kept (a one-record write answer is then cheap too). */
function tags(names: readonly string[]): Tags {
  const id = names.join(',');
  let t = tagCache.get(id);
  if (!t) {
    t = {
      open: names.map((n) => `<${n}>`),
      close: names.map((n) => `</${n}>`),
      empty: names.map((n) => `<${n}/>`),
      key: names.map((n) => `,${JSON.stringify(n)}:`),
    };
    if (tagCache.size >= 1000) tagCache.clear();
    tagCache.set(id, t);
  }
  return t;
}

/**
 * The record elements of a page in XML: `<IVVc register sequence url>` with one element per field,
 * then `<rows>` with `<row rownumber="N">` (the fixed shape, see README "Wire format"). Pieces go into
 * one array joined once: no intermediate strings, little garbage for 10,000-record pages.
 */
export function recordsXml(page: RecordPage, options: RenderOptions = {}): string {
  const { plan } = page;
  const reg = plan.register;
  const nonBlank = options.nonBlank === true;
  const head = tags(plan.header.map((h) => h.name));
  const cols = plan.header.map((h) => h.col);
  const rowTags = tags(plan.rowFields);
  const open = `<${reg} register="${escapeXml(reg)}" sequence="`;
  const close = `</${reg}>\n`;
  const out: string[] = [];
  for (const raw of page.rows) {
    out.push(open, text(raw[plan.seqCol]), '" url="', escapeXml(urlOf(plan, raw)), '">');
    for (let i = 0; i < cols.length; i++) {
      const v = text(raw[cols[i]!]);
      if (v !== '') out.push(head.open[i]!, escapeXml(v), head.close[i]!);
      else if (!nonBlank) out.push(head.empty[i]!);
    }
    if (plan.rowsElement) {
      const rows = parseRows(raw, plan.rowsCol);
      if (rows.length === 0) out.push('<rows/>');
      else {
        out.push('<rows>');
        for (let r = 0; r < rows.length; r++) {
          const row = rows[r]!;
          out.push('<row rownumber="', String(r), '">');
          for (let i = 0; i < plan.rowFields.length; i++) {
            const v = row[plan.rowFields[i]!];
            if (v !== undefined && v !== '') out.push(rowTags.open[i]!, escapeXml(v), rowTags.close[i]!);
            else if (!nonBlank) out.push(rowTags.empty[i]!);
          }
          out.push('</row>');
        }
        out.push('</rows>');
      }
    }
    out.push(close);
  }
  return out.join('');
}

/** The records of a page as a JSON array text, with the same content as `recordsXml`. */
export function recordsJson(page: RecordPage, options: RenderOptions = {}): string {
  const { plan } = page;
  const nonBlank = options.nonBlank === true;
  const keys = tags(plan.header.map((h) => h.name)).key;
  const cols = plan.header.map((h) => h.col);
  const rowKeys = tags(plan.rowFields).key;
  const head = `{"@register":${JSON.stringify(plan.register)},"@sequence":"`;
  const out: string[] = ['['];
  let first = true;
  for (const raw of page.rows) {
    out.push(first ? '' : ',', head, text(raw[plan.seqCol]), '","@url":', JSON.stringify(urlOf(plan, raw)));
    first = false;
    for (let i = 0; i < cols.length; i++) {
      const v = text(raw[cols[i]!]);
      if (v !== '' || !nonBlank) out.push(keys[i]!, JSON.stringify(v));
    }
    if (plan.rowsElement) {
      const rows = parseRows(raw, plan.rowsCol);
      out.push(',"rows":[');
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r]!;
        out.push(r > 0 ? ',{"@rownumber":"' : '{"@rownumber":"', String(r), '"');
        for (let i = 0; i < plan.rowFields.length; i++) {
          const v = row[plan.rowFields[i]!] ?? '';
          if (v !== '' || !nonBlank) out.push(rowKeys[i]!, JSON.stringify(v));
        }
        out.push('}');
      }
      out.push(']');
    }
    out.push('}');
  }
  out.push(']');
  return out.join('');
}
