/**
 * Which registers the REST query properties read. Registers whose data other tests are unlikely to write
 * come first (the baselines stay valid longer); the first few that hold data and are small enough for a
 * whole read are used. Composite keys (TRVc, PLVc, DelAddrVc) come early so that `@url` joins get exercised.
 */
import { Baselines, type RegisterData } from './baseline.js';
import type { RuleContext } from './rule-test.js';

/** Candidates in order of preference (record-rest-api.md §2 register table). */
export const QUERY_CANDIDATES: readonly string[] = [
  'TRVc',
  'PLVc',
  'AccVc',
  'PDVc',
  'DelAddrVc',
  'EmplVc',
  'ObjVc',
  'CCatVc',
  'ITVc',
  'DIVc',
  'ContactRelVc',
  'Bud1Vc',
  'UserVc',
  'INVc',
  'CUVc',
  'IVVc',
];

/** How many registers a query property spreads over. @defaultValue 4 */
export const QUERY_REGISTER_COUNT = 4;

/**
 * The registers a test file's query properties use, discovered once per file; skips the test when the
 * target has none with data.
 */
export function queryRegisters(baselines: Baselines = new Baselines()) {
  let found: Promise<RegisterData[]> | undefined;
  return {
    baselines,
    async get(ctx: RuleContext, min = 2): Promise<RegisterData[]> {
      found ??= baselines.discover(ctx, QUERY_CANDIDATES, QUERY_REGISTER_COUNT, min);
      const list = await found;
      if (list.length === 0)
        ctx.skip(
          `the target has no register of ${QUERY_CANDIDATES.join(', ')} with ${min} to ${baselines.max} records to query`,
        );
      return list;
    },
  };
}
