import type { RecordStore } from '../store/record-store.js';
import { type PortalContext, PortalError } from './handler.js';
import { ensurePortalTables } from './portal-tables.js';

/**
 * Access rights of access groups (UserVc.AccessGroup), per company. The docs name the report access
 * type `Aruanne` and "the un-confirm permission" (portal-action-api.md §4 rules 3 and 6) without showing
 * where they live; the reference server keeps them in the table `portal_access` (README "Portal action
 * API", "Users and permissions").
 */
export const RIGHTS = {
  /** May use the portal API (hasusernewapi answers hasapi=1; getportalusers lists the user). */
  portal: 'portal',
  /** An administrator (getadminusers). */
  admin: 'admin',
  /** The un-confirm permission of unokrecord (§4 rule 6). */
  unok: 'unok',
  /** Report access, module level (§4 rule 3: "report access enabled (type Aruanne)"). */
  reports: 'Aruanne',
} as const;

/** Report-level access to one report: the right `Aruanne:<repname>` (§4 rule 3 "report-level access"). */
export function reportRight(repname: string): string {
  return `${RIGHTS.reports}:${repname}`;
}

/** Gives an access group a right in a company. */
export function grantRight(store: RecordStore, company: number, group: string, right: string): void {
  ensurePortalTables(store.db);
  store.db
    .prepare('INSERT OR IGNORE INTO portal_access (company, access_group, access_right) VALUES (?, ?, ?)')
    .run(company, group, right);
}

/** The rights of an access group in a company. */
export function groupRights(store: RecordStore, company: number, group: string): Set<string> {
  ensurePortalTables(store.db);
  const rows = store.db
    .prepare('SELECT access_right FROM portal_access WHERE company = ? AND access_group = ?')
    .pluck()
    .all(company, group) as string[];
  return new Set(rows);
}

/** A user's UserVc fields, or undefined when there is no such user in the company. */
export function findUser(store: RecordStore, company: number, code: string): Record<string, string> | undefined {
  if (code === '') return undefined;
  return store.get('UserVc', company, [code])?.fields;
}

/** True when the user exists, is not closed and its access group holds the right. */
export function userHasRight(store: RecordStore, company: number, code: string, right: string): boolean {
  const user = findUser(store, company, code);
  if (!user || user.Closed === '1') return false;
  return groupRights(store, company, user.AccessGroup ?? '').has(right);
}

/**
 * The user named by `usercode` (required): its UserVc fields. A missing parameter, an unknown user and a
 * closed user (Closed 1) are refused with a text naming the parameter or the user.
 */
export function requireUser(ctx: PortalContext, param = 'usercode'): Record<string, string> {
  const code = ctx.params.require(param);
  const user = findUser(ctx.app.store, ctx.company, code);
  if (!user) throw new PortalError(`${param} "${code}" is not a user of company ${ctx.company}`);
  if (user.Closed === '1') throw new PortalError(`user ${code} is closed`);
  return user;
}
