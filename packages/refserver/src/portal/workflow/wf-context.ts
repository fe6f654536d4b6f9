import type { App } from '../../app-types.js';
import { localDate } from '../../business/draft.js';
import type { RecordStore } from '../../store/record-store.js';
import { findUser } from '../access.js';
import type { PortalContext } from '../handler.js';
import { PortalError } from '../handler.js';
import { ensureWorkflowTables } from './workflow-tables.js';

/** What the workflow functions need: the store, the company and the clock (no HTTP request). */
export interface Wf {
  readonly app: App;
  readonly store: RecordStore;
  readonly company: number;
  /** Today, YYYY-MM-DD (server local time). */
  readonly today: string;
  /** Now, HH:MM (server local time). */
  readonly time: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The workflow context of a company at the app's current time. */
export function wfAt(app: App, company: number): Wf {
  ensureWorkflowTables(app.store.db);
  const now = app.now();
  return {
    app,
    store: app.store,
    company,
    today: localDate(now),
    time: `${pad(now.getHours())}:${pad(now.getMinutes())}`,
  };
}

/** The workflow context of a portal request. */
export function wfOf(ctx: PortalContext): Wf {
  return wfAt(ctx.app, ctx.company);
}

/** Splits a list of codes written with commas, semicolons or spaces; empty parts are dropped. */
export function splitCodes(text: string | undefined): string[] {
  return (text ?? '')
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The acting user of a request: `usercode` when sent (it must be an open user), else the UserVc whose code is
 * the authenticated login name in upper case (the "session user" of startsigning, portal-action-api.md §4),
 * else undefined.
 */
export function actingUser(ctx: PortalContext): string | undefined {
  if (ctx.usercode !== undefined) {
    const u = findUser(ctx.app.store, ctx.company, ctx.usercode);
    if (!u) throw new PortalError(`usercode "${ctx.usercode}" is not a user of company ${ctx.company}`);
    if (u.Closed === '1') throw new PortalError(`user ${ctx.usercode} is closed`);
    return u.Code;
  }
  const own = findUser(ctx.app.store, ctx.company, ctx.auth.user.toUpperCase());
  return own && own.Closed !== '1' ? own.Code : undefined;
}
