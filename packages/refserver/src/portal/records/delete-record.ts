import type { PortalContext, PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { ensurePortalTables } from '../portal-tables.js';
import { forgetWorkflowRecord } from '../workflow/workflow-tables.js';
import { okXml } from '../xml.js';
import { assertUnlocked, loadRecord } from './record-ref.js';

/** Registers whose records name a contact, and the field (a contact in use is not deleted). */
const CONTACT_USERS: readonly (readonly [string, string])[] = [
  ['IVVc', 'CustCode'],
  ['ORVc', 'CustCode'],
  ['QTVc', 'CustCode'],
  ['VIVc', 'VECode'],
  ['POVc', 'VECode'],
  ['PUVc', 'VECode'],
];

/** The first record that names the contact, as "IVVc 10000001", or undefined. */
function contactInUse(ctx: PortalContext, code: string): string | undefined {
  for (const [register, field] of CONTACT_USERS) {
    const serNr = ctx.app.store.db
      .prepare(`SELECT SerNr FROM "reg_${register}" WHERE _company = ? AND "${field}" = ? LIMIT 1`)
      .pluck()
      .get(ctx.company, code);
    if (serNr !== undefined) return `${register} ${String(serNr)}`;
  }
  return undefined;
}

/** Removes what the portal keeps about a record: attachments, links, signings (inside the caller's transaction). */
export function forgetRecord(ctx: PortalContext, register: string, id: string): void {
  const db = ctx.app.store.db;
  ensurePortalTables(db);
  db.prepare('DELETE FROM portal_attachments WHERE company = ? AND register = ? AND record_id = ?').run(
    ctx.company,
    register,
    id,
  );
  db.prepare(
    'DELETE FROM portal_links WHERE company = ? AND ((from_register = ? AND from_id = ?) OR (to_register = ? AND to_id = ?))',
  ).run(ctx.company, register, id, register, id);
  forgetWorkflowRecord(db, ctx.company, register, id);
  ctx.portal.locks.forget(ctx.company, register, id);
}

/**
 * `action=delete&register=<R>&id=<SerNr>` (portal-action-api.md §4 "Delete record"). Deletes through the
 * store, so the record is gone from /api/1/, shows in `deletes_after` and moves the sequence. A locked
 * record answers `Record is locked`; a contact that documents still name is refused, naming one of them.
 */
const deleteRecord: PortalHandler = {
  kind: 'action',
  name: 'delete',
  registers: { operation: 'delete', param: 'register' },
  required: ['id'],
  handle(ctx) {
    const register = ctx.register!;
    const id = ctx.params.require('id');
    const store = ctx.app.store;
    store.write(() => {
      const ref = loadRecord(ctx, register, id);
      assertUnlocked(ctx, ref);
      if (register === 'CUVc') {
        const user = contactInUse(ctx, ref.id);
        if (user) throw new PortalError(`contact ${ref.id} is used by ${user}; it cannot be deleted`);
      }
      store.delete(register, ctx.company, [ref.id]);
      forgetRecord(ctx, register, ref.id);
    });
    return { xml: okXml() };
  },
};

export const deleteHandlers: readonly PortalHandler[] = [deleteRecord];
