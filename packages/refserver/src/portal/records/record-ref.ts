import type { RegisterSchema } from '../../schema/register-schema.js';
import type { StoredRecord } from '../../store/record-table.js';
import { type PortalContext, PortalError, RECORD_IS_LOCKED } from '../handler.js';

/** The schema of a register the store knows; a register the server lacks is refused by name. */
export function registerSchema(ctx: PortalContext, register: string): RegisterSchema {
  const schema = ctx.app.store.schema(register);
  if (!schema) throw new PortalError(`register ${register} is not available on this server`);
  if (schema.key.length !== 1)
    throw new PortalError(`register ${register} has a key of ${schema.key.length} parts; the portal id is one value`);
  return schema;
}

/** A record found by its portal id: the register, the canonical id (the stored key value) and the record. */
export interface RecordRef {
  readonly register: string;
  readonly id: string;
  readonly rec: StoredRecord;
}

/**
 * The record `register`/`id` of the request's company (portal-action-api.md §2 "Record id (SerNr) is a
 * string holding the record serial number"; for registers keyed by Code the id is the Code).
 */
export function loadRecord(ctx: PortalContext, register: string, id: string): RecordRef {
  const schema = registerSchema(ctx, register);
  const rec = ctx.app.store.get(register, ctx.company, [id]);
  if (!rec) throw new PortalError(`${register} ${id} does not exist in company ${ctx.company}`);
  return { register, id: rec.fields[schema.key[0]!] ?? id, rec };
}

/**
 * Refuses a write of a locked record with `Record is locked` (portal-action-api.md §7). A record is locked
 * when it is confirmed (OKFlag 1) or open in another session (an edit lock of edit-locks.ts held by a
 * session other than the request's). README "Portal action API", "What locks a record".
 */
export function assertUnlocked(ctx: PortalContext, ref: RecordRef): void {
  if (ref.rec.fields.OKFlag === '1') throw new PortalError(RECORD_IS_LOCKED);
  if (ctx.portal.locks.lockedAgainst(ctx.company, ref.register, ref.id, ctx.auth.sessionId))
    throw new PortalError(RECORD_IS_LOCKED);
}
