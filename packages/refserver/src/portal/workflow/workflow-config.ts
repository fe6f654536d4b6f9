import type { RecordStore } from '../../store/record-store.js';
import { ensureWorkflowTables } from './workflow-tables.js';

/** An activity type as getactivitytypes lists it. */
export interface ActivityType {
  readonly code: string;
  readonly name: string;
  /** Activities of this type are signed through the signing provider. */
  readonly signing: boolean;
  /** Registers whose records such an activity can sign (createsigningactivity). */
  readonly signRegisters: readonly string[];
}

/** The registers of createsigningactivity (portal-action-api.md §2 "Registers per operation"). */
export const SIGN_REGISTERS = ['ORVc', 'IVVc', 'EPOrderDocVc', 'EPContractVc', 'EPTS2Vc'] as const;

/** The activity types of a new company: the demo data's CALL, MEET, TASK and part B's APPROVAL, SIGN. */
export const DEFAULT_ACTIVITY_TYPES: readonly ActivityType[] = [
  { code: 'CALL', name: 'Phone call', signing: false, signRegisters: [] },
  { code: 'MEET', name: 'Meeting', signing: false, signRegisters: [] },
  { code: 'TASK', name: 'Task', signing: false, signRegisters: [] },
  { code: 'APPROVAL', name: 'Approval', signing: false, signRegisters: [] },
  { code: 'SIGN', name: 'Digital signature', signing: true, signRegisters: [...SIGN_REGISTERS] },
];

/** Text templates that ActVc row TextCode loads (§2 "TextCode (loads text template)"). */
export const DEFAULT_TEXT_TEMPLATES: Readonly<Record<string, string>> = {
  CALLBACK: 'Call the customer back and confirm the delivery date.',
  VISIT: 'Visit the customer; bring the price list and samples.',
  REMIND: 'Send a payment reminder for the overdue invoices.',
};

/** Recipes (BOM) that ORVc row Recepy loads (§2 "Recepy (loads recipe/BOM)"): code -> [item, quantity]. */
export const DEFAULT_RECIPES: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  KIT1: [
    ['A0001', '1'],
    ['A0002', '2'],
  ],
};

/** Business-intelligence links (getbilinks): code, name, URL and the right that shows them ('' = everyone). */
export const DEFAULT_BI_LINKS: readonly (readonly [string, string, string, string])[] = [
  ['SALES', 'Sales dashboard', 'https://bi.demo.example/sales', ''],
  ['AR', 'Receivables dashboard', 'https://bi.demo.example/receivables', 'Aruanne'],
  ['STOCK', 'Stock dashboard', 'https://bi.demo.example/stock', 'Aruanne'],
];

/** Adds an activity type. */
export function addActivityType(store: RecordStore, company: number, t: ActivityType): void {
  ensureWorkflowTables(store.db);
  store.db
    .prepare(
      'INSERT OR REPLACE INTO wf_activity_types (company, code, name, signing, sign_registers) VALUES (?, ?, ?, ?, ?)',
    )
    .run(company, t.code, t.name, t.signing ? 1 : 0, t.signRegisters.join(','));
}

/** The activity types of a company, by code. */
export function activityTypes(store: RecordStore, company: number): ActivityType[] {
  ensureWorkflowTables(store.db);
  const rows = store.db
    .prepare('SELECT code, name, signing, sign_registers FROM wf_activity_types WHERE company = ? ORDER BY code')
    .all(company) as { code: string; name: string; signing: number; sign_registers: string }[];
  return rows.map((r) => ({
    code: r.code,
    name: r.name,
    signing: r.signing === 1,
    signRegisters: r.sign_registers === '' ? [] : r.sign_registers.split(','),
  }));
}

/** A text template's text, or undefined. */
export function textTemplate(store: RecordStore, company: number, code: string): string | undefined {
  ensureWorkflowTables(store.db);
  return store.db
    .prepare('SELECT text FROM wf_text_templates WHERE company = ? AND code = ?')
    .pluck()
    .get(company, code) as string | undefined;
}

/** A recipe's components [item, quantity per unit], or undefined. */
export function recipe(store: RecordStore, company: number, code: string): [string, string][] | undefined {
  ensureWorkflowTables(store.db);
  const rows = store.db
    .prepare('SELECT item, quant FROM wf_recipes WHERE company = ? AND code = ? ORDER BY position')
    .raw(true)
    .all(company, code) as [string, string][];
  return rows.length > 0 ? rows : undefined;
}

/** Adds (or replaces) a recipe: its components [item, quantity per unit] in order. */
export function addRecipe(
  store: RecordStore,
  company: number,
  code: string,
  parts: readonly (readonly [string, string])[],
): void {
  ensureWorkflowTables(store.db);
  store.db.prepare('DELETE FROM wf_recipes WHERE company = ? AND code = ?').run(company, code);
  const ins = store.db.prepare('INSERT INTO wf_recipes (company, code, position, item, quant) VALUES (?, ?, ?, ?, ?)');
  for (const [i, [item, quant]] of parts.entries()) ins.run(company, code, i, item, quant);
}

/** Fills a company's workflow configuration: activity types, text templates, recipes, BI links. */
export function configureWorkflow(store: RecordStore, company: number): void {
  ensureWorkflowTables(store.db);
  for (const t of DEFAULT_ACTIVITY_TYPES) addActivityType(store, company, t);
  const text = store.db.prepare('INSERT OR REPLACE INTO wf_text_templates (company, code, text) VALUES (?, ?, ?)');
  for (const [code, t] of Object.entries(DEFAULT_TEXT_TEMPLATES)) text.run(company, code, t);
  for (const [code, parts] of Object.entries(DEFAULT_RECIPES)) addRecipe(store, company, code, parts);
  const bi = store.db.prepare(
    'INSERT OR REPLACE INTO wf_bi_links (company, code, name, url, access_right) VALUES (?, ?, ?, ?, ?)',
  );
  for (const [code, name, url, right] of DEFAULT_BI_LINKS) bi.run(company, code, name, url, right);
}
