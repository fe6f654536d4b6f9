import type { Db } from '../../store/database.js';

/**
 * Part B's own tables, next to the register tables in the same SQLite database (README "Portal action API",
 * "Workflow state"). The approval status, the signing state, comments and the small configuration tables
 * (approval rules, activity types, text templates, recipes, BI links) have no register in the docs, so they
 * live here. Records are referred to by company, register, id AND UUID: a SerNr that a deleted record's
 * successor reuses never inherits the old record's approval or signing.
 */
const DDL = `
  CREATE TABLE IF NOT EXISTS wf_approval_rules (
    company INTEGER NOT NULL, register TEXT NOT NULL, step INTEGER NOT NULL, min_amount TEXT NOT NULL,
    approvers TEXT NOT NULL, PRIMARY KEY (company, register, step));
  CREATE TABLE IF NOT EXISTS wf_approvals (
    company INTEGER NOT NULL, register TEXT NOT NULL, record_id TEXT NOT NULL, record_uuid TEXT NOT NULL,
    round INTEGER NOT NULL, status INTEGER NOT NULL, requested_by TEXT NOT NULL, requested_on TEXT NOT NULL,
    amount TEXT NOT NULL, PRIMARY KEY (company, register, record_id));
  CREATE TABLE IF NOT EXISTS wf_approval_steps (
    company INTEGER NOT NULL, activity TEXT NOT NULL, register TEXT NOT NULL, record_id TEXT NOT NULL,
    record_uuid TEXT NOT NULL, round INTEGER NOT NULL, step INTEGER NOT NULL, steps INTEGER NOT NULL, state TEXT NOT NULL,
    decided_by TEXT NOT NULL, decided_on TEXT NOT NULL, PRIMARY KEY (company, activity));
  CREATE INDEX IF NOT EXISTS wf_approval_steps_record ON wf_approval_steps (company, register, record_id);
  CREATE TABLE IF NOT EXISTS wf_signings (
    company INTEGER NOT NULL, activity TEXT NOT NULL, register TEXT NOT NULL, record_id TEXT NOT NULL,
    record_uuid TEXT NOT NULL, status INTEGER NOT NULL, session TEXT NOT NULL, created_by TEXT NOT NULL,
    PRIMARY KEY (company, activity));
  CREATE INDEX IF NOT EXISTS wf_signings_record ON wf_signings (company, register, record_id);
  CREATE TABLE IF NOT EXISTS wf_signers (
    company INTEGER NOT NULL, activity TEXT NOT NULL, usercode TEXT NOT NULL, position INTEGER NOT NULL,
    status INTEGER NOT NULL, signed_on TEXT NOT NULL, PRIMARY KEY (company, activity, usercode));
  CREATE TABLE IF NOT EXISTS wf_sign_tokens (
    token TEXT PRIMARY KEY, company INTEGER NOT NULL, activity TEXT NOT NULL, usercode TEXT NOT NULL,
    state TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS wf_comments (
    id INTEGER PRIMARY KEY, company INTEGER NOT NULL, activity TEXT NOT NULL, usercode TEXT NOT NULL,
    date TEXT NOT NULL, time TEXT NOT NULL, text TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS wf_comments_activity ON wf_comments (company, activity);
  CREATE TABLE IF NOT EXISTS wf_activity_types (
    company INTEGER NOT NULL, code TEXT NOT NULL, name TEXT NOT NULL, signing INTEGER NOT NULL,
    sign_registers TEXT NOT NULL, PRIMARY KEY (company, code));
  CREATE TABLE IF NOT EXISTS wf_text_templates (
    company INTEGER NOT NULL, code TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY (company, code));
  CREATE TABLE IF NOT EXISTS wf_recipes (
    company INTEGER NOT NULL, code TEXT NOT NULL, position INTEGER NOT NULL, item TEXT NOT NULL,
    quant TEXT NOT NULL, PRIMARY KEY (company, code, position));
  CREATE TABLE IF NOT EXISTS wf_bi_links (
    company INTEGER NOT NULL, code TEXT NOT NULL, name TEXT NOT NULL, url TEXT NOT NULL,
    access_right TEXT NOT NULL, PRIMARY KEY (company, code));
`;

const done = new WeakSet<Db>();

/** Creates part B's tables once per database connection (seeding and setup both call it). */
export function ensureWorkflowTables(db: Db): void {
  if (done.has(db)) return;
  db.exec(DDL);
  done.add(db);
}

/**
 * Drops what part B keeps about a deleted record (inside the caller's transaction): the signing, signers,
 * signing links, comments and approval step of a deleted activity, and the signings of a deleted document.
 * Without it a SerNr given out again (the next SerNr after a deleted last one) would meet the old rows.
 */
export function forgetWorkflowRecord(db: Db, company: number, register: string, id: string): void {
  ensureWorkflowTables(db);
  if (register === 'ActVc') {
    for (const table of ['wf_signings', 'wf_signers', 'wf_sign_tokens', 'wf_comments', 'wf_approval_steps'])
      db.prepare(`DELETE FROM ${table} WHERE company = ? AND activity = ?`).run(company, id);
    return;
  }
  const activities = db
    .prepare('SELECT activity FROM wf_signings WHERE company = ? AND register = ? AND record_id = ?')
    .pluck()
    .all(company, register, id) as string[];
  for (const activity of activities)
    for (const table of ['wf_signers', 'wf_sign_tokens'])
      db.prepare(`DELETE FROM ${table} WHERE company = ? AND activity = ?`).run(company, activity);
  db.prepare('DELETE FROM wf_signings WHERE company = ? AND register = ? AND record_id = ?').run(company, register, id);
}
