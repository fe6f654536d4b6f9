import type { RecordStore } from '../store/record-store.js';
import { ensurePortalTables } from './portal-tables.js';

/**
 * Per-company settings of the portal (table `portal_settings`), e.g. the mail-sending settings that
 * sendemail needs (portal-action-api.md §4 rule 5: "configured mail-sending settings in the system").
 */
export const MAIL_FROM = 'mail.from';
/** The mail server the mails would go through; the reference server only writes them to its outbox. */
export const MAIL_SERVER = 'mail.server';

/** A setting's value, or undefined. */
export function getSetting(store: RecordStore, company: number, key: string): string | undefined {
  ensurePortalTables(store.db);
  return store.db
    .prepare('SELECT value FROM portal_settings WHERE company = ? AND key = ?')
    .pluck()
    .get(company, key) as string | undefined;
}

/** Sets a setting (undefined removes it). */
export function setSetting(store: RecordStore, company: number, key: string, value: string | undefined): void {
  ensurePortalTables(store.db);
  if (value === undefined)
    store.db.prepare('DELETE FROM portal_settings WHERE company = ? AND key = ?').run(company, key);
  else
    store.db
      .prepare('INSERT OR REPLACE INTO portal_settings (company, key, value) VALUES (?, ?, ?)')
      .run(company, key, value);
}
