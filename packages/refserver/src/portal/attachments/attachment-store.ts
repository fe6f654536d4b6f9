import { randomUUID } from 'node:crypto';
import type { RecordStore } from '../../store/record-store.js';
import { ensurePortalTables } from '../portal-tables.js';

/** An attachment as `getattachlist` lists it. */
export interface AttachmentInfo {
  readonly uuid: string;
  readonly filename: string;
  readonly size: number;
  readonly date: string;
}

/** Attachments of records, kept in the table `portal_attachments` (README "Server-side state"). */
export class AttachmentStore {
  readonly #store: RecordStore;

  constructor(store: RecordStore) {
    this.#store = store;
    ensurePortalTables(store.db);
  }

  /** Stores a file for a record; returns its new UUID. */
  add(
    company: number,
    register: string,
    recordId: string,
    filename: string,
    content: Buffer,
    date: string,
    uuid: string = randomUUID(),
  ): string {
    this.#store.db
      .prepare(
        'INSERT INTO portal_attachments (uuid, company, register, record_id, filename, size, date, content) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(uuid, company, register, recordId, filename, content.length, date, content);
    return uuid;
  }

  /** The attachments of a record, oldest first. */
  list(company: number, register: string, recordId: string): AttachmentInfo[] {
    return this.#store.db
      .prepare(
        'SELECT uuid, filename, size, date FROM portal_attachments WHERE company = ? AND register = ? AND record_id = ? ' +
          'ORDER BY rowid',
      )
      .all(company, register, recordId) as AttachmentInfo[];
  }

  /** One attachment of a record with its bytes, or undefined. */
  get(
    company: number,
    register: string,
    recordId: string,
    uuid: string,
  ): (AttachmentInfo & { content: Buffer }) | undefined {
    return this.#store.db
      .prepare(
        'SELECT uuid, filename, size, date, content FROM portal_attachments ' +
          'WHERE company = ? AND register = ? AND record_id = ? AND uuid = ?',
      )
      .get(company, register, recordId, uuid.toLowerCase()) as (AttachmentInfo & { content: Buffer }) | undefined;
  }

  /** Deletes one attachment of a record; false when there was none. */
  delete(company: number, register: string, recordId: string, uuid: string): boolean {
    const r = this.#store.db
      .prepare('DELETE FROM portal_attachments WHERE company = ? AND register = ? AND record_id = ? AND uuid = ?')
      .run(company, register, recordId, uuid.toLowerCase());
    return r.changes > 0;
  }
}
