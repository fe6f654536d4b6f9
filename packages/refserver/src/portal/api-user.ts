import type { App } from '../app-types.js';
import { Prng } from '../seed/prng.js';
import { SeedWriter } from '../seed/seed-writer.js';
import { findUser, grantRight, RIGHTS, reportRight } from './access.js';
import { REPORTS } from './reports/report-catalogue.js';

/** The access group of the API login user: every right there is. */
export const API_USER_GROUP = 'APIUSER';

/** Every right of the portal: the module rights and access to every report. */
export function everyRight(): string[] {
  return [...Object.values(RIGHTS), ...REPORTS.map((r) => reportRight(r.repname))];
}

function seedOf(code: string): number {
  let h = 0x0a91;
  for (const ch of code) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
  return h;
}

/**
 * The API login (`--user`, AppOptions.user) is a person of the user register, as on a live server (issue 10):
 * in every company it becomes a UserVc of the group APIUSER, which holds every right, so that portal calls with
 * `usercode=<login>` work. A user of that code that already exists (a demo user, or one made by an earlier run on
 * the same database) is left as it is, with its own rights; the demo users keep their limited rights.
 */
export function ensureApiUser(app: App): void {
  const code = app.auth.user;
  if (!/^[^\s]{1,60}$/.test(code)) return;
  const store = app.store;
  store.write(() => {
    for (const { code: company } of store.companies()) {
      for (const right of everyRight()) grantRight(store, company, API_USER_GROUP, right);
      if (findUser(store, company, code)) continue;
      new SeedWriter(store, company, new Prng(seedOf(code) + company)).add('UserVc', {
        Code: code,
        Name: 'API user',
        AccessGroup: API_USER_GROUP,
        Closed: '0',
        LangCode: 'ENG',
        emailAddr: '',
      });
    }
  });
}
