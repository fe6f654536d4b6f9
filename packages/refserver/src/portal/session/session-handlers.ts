import { SESSION_COOKIE } from '../../auth/authenticate.js';
import { findUser, groupRights, RIGHTS, requireUser } from '../access.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { attrs, okXml, recordElementXml } from '../xml.js';

/** The interface description version (portal-action-api.md §9 "The interface description version is 1.0.1"). */
export const PORTAL_API_VERSION = '1.0.1';

/** The date format the login result reports: the server's dates are ISO (YYYY-MM-DD, §2 type code 2). */
export const LOGIN_DATE_FORMAT = 'YYYY-MM-DD';

const flag = (b: boolean) => (b ? '1' : '0');

/**
 * `action=login`: the login result (portal-action-api.md §2 "Login result", README "XML conventions" 2).
 * A Basic request opens the HSESSION session the dispatcher sends back (§5). `supported` says what
 * this server has: activities and signing when their sub-actions are registered.
 */
const login: PortalHandler = {
  kind: 'action',
  name: 'login',
  handle(ctx) {
    if (ctx.usercode !== undefined && !findUser(ctx.app.store, ctx.company, ctx.usercode))
      throw new PortalError(`usercode "${ctx.usercode}" is not a user of company ${ctx.company}`);
    const has = (name: string) => ctx.portal.subActions.has(name);
    const supported =
      `<supported><activities>${flag(has('getactivitydata'))}</activities><invoices>1</invoices>` +
      `<attachments>${flag(has('doupload'))}</attachments><hassigning>${flag(has('startsigning'))}</hassigning></supported>`;
    const res = attrs({
      errstr: '',
      dateformat: LOGIN_DATE_FORMAT,
      dec_separator: '.',
      apiversion: PORTAL_API_VERSION,
      version: ctx.app.systemVersion,
    });
    return { xml: `<data><res${res}>${supported}</res></data>\n` };
  },
};

/**
 * `action=deactivate`: ends the session of the request (the HSESSION cookie stops working; README
 * "Portal action API", "deactivate"). `usercode`, when given, must name a user.
 */
const deactivate: PortalHandler = {
  kind: 'action',
  name: 'deactivate',
  handle(ctx) {
    if (ctx.usercode !== undefined) requireUser(ctx);
    if (ctx.auth.sessionId) ctx.app.auth.sessions.delete(ctx.auth.sessionId);
    return { xml: okXml(), headers: { 'Set-Cookie': `${SESSION_COOKIE}=; Path=/; HttpOnly; Max-Age=0` } };
  },
};

/**
 * `hasusernewapi`: hasapi 1 when the user is not closed and its access group has the portal right; 0
 * otherwise. An unknown user is refused by name.
 */
const hasusernewapi: PortalHandler = {
  kind: 'sub-action',
  name: 'hasusernewapi',
  required: ['usercode'],
  handle(ctx) {
    const code = ctx.params.require('usercode');
    const user = findUser(ctx.app.store, ctx.company, code);
    if (!user) throw new PortalError(`usercode "${code}" is not a user of company ${ctx.company}`);
    const rights = groupRights(ctx.app.store, ctx.company, user.AccessGroup ?? '');
    return { xml: okXml({ hasapi: flag(user.Closed !== '1' && rights.has(RIGHTS.portal)) }) };
  },
};

/** The users of the company as `<UserVc>` elements after the result (a "user list"; the body is not shown, rule 11). */
function userList(ctx: PortalContext, keep: (user: Record<string, string>, rights: Set<string>) => boolean) {
  const rows = ctx.app.store.db
    .prepare('SELECT Code FROM "reg_UserVc" WHERE _company = ? ORDER BY Code')
    .pluck()
    .all(ctx.company) as string[];
  let inner = '';
  for (const code of rows) {
    const u = findUser(ctx.app.store, ctx.company, code)!;
    if (!keep(u, groupRights(ctx.app.store, ctx.company, u.AccessGroup ?? ''))) continue;
    inner += recordElementXml('UserVc', [
      ['Code', u.Code ?? ''],
      ['Name', u.Name ?? ''],
      ['AccessGroup', u.AccessGroup ?? ''],
      ['Closed', u.Closed === '1' ? '1' : '0'],
      ['emailAddr', u.emailAddr ?? ''],
    ]);
  }
  return { xml: okXml({}, inner) };
}

const open = (u: Record<string, string>) => u.Closed !== '1';

const getportalusers: PortalHandler = {
  kind: 'sub-action',
  name: 'getportalusers',
  handle: (ctx) => userList(ctx, (u, r) => open(u) && r.has(RIGHTS.portal)),
};
const getadminusers: PortalHandler = {
  kind: 'sub-action',
  name: 'getadminusers',
  handle: (ctx) => userList(ctx, (u, r) => open(u) && r.has(RIGHTS.admin)),
};
const getallusers: PortalHandler = {
  kind: 'sub-action',
  name: 'getallusers',
  handle: (ctx) => userList(ctx, () => true),
};

/** Login, deactivate, hasusernewapi and the three user lists. */
export const sessionHandlers: readonly PortalHandler[] = [
  login,
  deactivate,
  hasusernewapi,
  getportalusers,
  getadminusers,
  getallusers,
];
