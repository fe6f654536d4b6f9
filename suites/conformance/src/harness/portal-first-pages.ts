/**
 * The record ids on the first page of the portal lists that several test files pick existing records from
 * (approval status, document printing, __copy, activity text templates): one read per register, once per run,
 * shared by the workers (run-shared.ts, issue 19), instead of one read per file with its own page size.
 */

import { LIST_KEY, textOf } from './portal-lists.js';
import { attempt } from './portal-outcome.js';
import type { RuleContext } from './rule-test.js';
import { runShared } from './run-shared.js';

/** The registers whose first page is read. */
export const FIRST_PAGE_REGISTERS = ['ActVc', 'IVVc', 'VIVc', 'ORVc', 'QTVc', 'EPOrderDocVc'] as const;
export type FirstPageRegister = (typeof FIRST_PAGE_REGISTERS)[number];

/** The page size of the read (page 1), without a usercode (every user's records). @defaultValue 20 */
export const FIRST_PAGE_SIZE = 20;

/** The list query of the shared read, for a caller that reads the same page again to see a record still there. */
export const FIRST_PAGE_QUERY = { page: 1, perpage: FIRST_PAGE_SIZE, usercode: null } as const;

/**
 * The ids (the list's key field) on page 1 of each register's portal list, in the list's order; a register
 * whose list the target refuses has none.
 */
export function firstPageIds(ctx: RuleContext): Promise<Record<FirstPageRegister, string[]>> {
  return runShared(ctx, 'portal-first-pages', async () => {
    const out = {} as Record<FirstPageRegister, string[]>;
    for (const register of FIRST_PAGE_REGISTERS) {
      const o = await attempt(ctx.client.portal.list(register, FIRST_PAGE_QUERY as never));
      out[register] = o.ok ? o.value.records.map((r) => textOf(r, LIST_KEY[register])).filter((id) => id !== '') : [];
    }
    return out;
  });
}
