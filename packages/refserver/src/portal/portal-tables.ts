import type { Db } from '../store/database.js';

/**
 * The portal's own tables, next to the register tables in the same SQLite database (README "Portal
 * action API", "Server-side state"). Created on first use; seeding and setup both call this.
 */
const DDL = `
  CREATE TABLE IF NOT EXISTS portal_access (
    company INTEGER NOT NULL, access_group TEXT NOT NULL, access_right TEXT NOT NULL,
    PRIMARY KEY (company, access_group, access_right));
  CREATE TABLE IF NOT EXISTS portal_settings (
    company INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (company, key));
  CREATE TABLE IF NOT EXISTS portal_templates (
    company INTEGER NOT NULL, code TEXT NOT NULL, register TEXT NOT NULL, kind TEXT NOT NULL,
    is_default INTEGER NOT NULL DEFAULT 0, show_rows INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (company, code));
  CREATE TABLE IF NOT EXISTS portal_attachments (
    uuid TEXT PRIMARY KEY, company INTEGER NOT NULL, register TEXT NOT NULL, record_id TEXT NOT NULL,
    filename TEXT NOT NULL, size INTEGER NOT NULL, date TEXT NOT NULL, content BLOB NOT NULL);
  CREATE INDEX IF NOT EXISTS portal_attachments_record ON portal_attachments (company, register, record_id);
  CREATE TABLE IF NOT EXISTS portal_links (
    company INTEGER NOT NULL, from_register TEXT NOT NULL, from_id TEXT NOT NULL,
    to_register TEXT NOT NULL, to_id TEXT NOT NULL, relation TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS portal_links_from ON portal_links (company, from_register, from_id);
  CREATE INDEX IF NOT EXISTS portal_links_to ON portal_links (company, to_register, to_id);
  CREATE TABLE IF NOT EXISTS portal_outbox (
    id INTEGER PRIMARY KEY, company INTEGER NOT NULL, created TEXT NOT NULL, mail_from TEXT NOT NULL,
    mail_to TEXT NOT NULL, subject TEXT NOT NULL, body TEXT NOT NULL, register TEXT NOT NULL,
    record_id TEXT NOT NULL, usercode TEXT NOT NULL, attachment_name TEXT NOT NULL, attachment BLOB NOT NULL);
  CREATE TABLE IF NOT EXISTS portal_callbacks (
    uuid TEXT PRIMARY KEY, company INTEGER NOT NULL, url TEXT NOT NULL, created TEXT NOT NULL);
`;

const done = new WeakSet<Db>();

/**
 * Lower-case folding for case-insensitive search (SQLite's own LIKE and lower() fold ASCII only; the demo
 * data has names like "Mägi"): `portal_fold(text)` in SQL.
 */
export function fold(text: string): string {
  return text.toLowerCase();
}

/** Creates the portal tables and SQL functions once per database connection. */
export function ensurePortalTables(db: Db): void {
  if (done.has(db)) return;
  db.exec(DDL);
  db.function('portal_fold', { deterministic: true }, (v: unknown) =>
    fold(v === null || v === undefined ? '' : String(v)),
  );
  done.add(db);
}
