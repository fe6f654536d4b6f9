import type { RecordStore } from '../../store/record-store.js';
import { PortalError } from '../handler.js';
import { ensurePortalTables } from '../portal-tables.js';
import type { DocumentKind } from './labels.js';

/** A document template: `doccode` selects it (portal-action-api.md §4 "Generate document": "doccode (template code)"). */
export interface DocumentTemplate {
  readonly code: string;
  readonly register: string;
  readonly kind: DocumentKind;
  /** Used when no doccode is sent. */
  readonly isDefault: boolean;
  /** Prints the rows table (false: header and totals only). */
  readonly showRows: boolean;
}

/** Adds (or replaces) a template in a company. */
export function addTemplate(store: RecordStore, company: number, t: DocumentTemplate): void {
  ensurePortalTables(store.db);
  store.db
    .prepare(
      'INSERT OR REPLACE INTO portal_templates (company, code, register, kind, is_default, show_rows) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(company, t.code, t.register, t.kind, t.isDefault ? 1 : 0, t.showRows ? 1 : 0);
}

/** The templates of a register in a company, the default first. */
export function templatesOf(store: RecordStore, company: number, register: string): DocumentTemplate[] {
  ensurePortalTables(store.db);
  const rows = store.db
    .prepare(
      'SELECT code, register, kind, is_default, show_rows FROM portal_templates WHERE company = ? AND register = ? ' +
        'ORDER BY is_default DESC, code',
    )
    .all(company, register) as {
    code: string;
    register: string;
    kind: DocumentKind;
    is_default: number;
    show_rows: number;
  }[];
  return rows.map((r) => ({
    code: r.code,
    register: r.register,
    kind: r.kind,
    isDefault: r.is_default === 1,
    showRows: r.show_rows === 1,
  }));
}

/**
 * The template for a document: the one `doccode` names, or the register's default. No template, or a
 * doccode the register does not have, is refused naming what exists.
 */
export function pickTemplate(
  store: RecordStore,
  company: number,
  register: string,
  doccode: string | undefined,
): DocumentTemplate {
  const list = templatesOf(store, company, register);
  if (list.length === 0) throw new PortalError(`no document template for ${register} in company ${company}`);
  if (doccode === undefined) return list[0]!;
  const t = list.find((x) => x.code === doccode);
  if (!t)
    throw new PortalError(
      `doccode "${doccode}" is not a ${register} template; templates: ${list.map((x) => x.code).join(', ')}`,
    );
  return t;
}
