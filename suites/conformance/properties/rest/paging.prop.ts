// Paging bounds with offset/limit (issue 5 "Paging bounds"; record-rest-api.md §4 "Query parameters",
// rule 12 and §8 "Limits").
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  type AnyRecord,
  assertJsonStrings,
  compareWithModel,
  type Decisiveness,
  decisiveWhen,
  expectRule,
  fieldValue,
  identityOf,
  judgeStable,
  MAX_BASELINE_RECORDS,
  parameterSeparates,
  probe,
  queryRegisters,
  type RegisterData,
  type RuleContext,
  ruleProperty,
  ruleTest,
  show,
  violated,
} from '../../src/harness/index.js';

const registers = queryRegisters();
/** The suggested batch size, its pause, and how many pages of it a run reads at most (§8, §4 rule 12). */
const BATCH = 1000;
const PAUSE_MS = 1000;
const MAX_PAGES = 3;
const { baselines } = registers;

/** A register with its size, and the fields it can be sorted by. */
const registerArb = async (ctx: RuleContext) =>
  fc.constantFrom(...(await registers.get(ctx)).map((d) => ({ register: d.register, fields: d.fields })));

/** The first query register, as the register arbitrary gives it. */
const first = (list: readonly RegisterData[]) => ({ register: list[0]!.register, fields: list[0]!.fields });

/** The first query register with its first field to sort by. */
const sortedBy = (list: readonly RegisterData[]) => ({ register: list[0]!.register, sort: list[0]!.fields[0]! });

async function page(ctx: RuleContext, register: string, query: Record<string, string | number>, rule: string) {
  const p = await probe(ctx, register, query);
  if (!p.ok) violated(rule, `${register} refused ${show(query)}: ${p.why}`);
  assertJsonStrings(register, p.envelope); // the representation first: identities compare as strings
  return p.records;
}

describe('REST paging with offset and limit', () => {
  ruleProperty(
    'REST.QUERY.LIMIT',
    'limit=N returns at most N records',
    async (ctx) => [await registerArb(ctx), fc.integer({ min: 1, max: 60 }), fc.nat({ max: 60 })],
    async (ctx, { register }, limit, offset) => {
      const records = await page(ctx, register, { limit, offset }, 'REST.QUERY.LIMIT');
      // decisive where the register holds more records past the offset than the limit: a server ignoring
      // limit answers more there (a register too big to read whole holds more than any limit asked here)
      const all = await baselines.all(ctx, register);
      const size = all?.length ?? MAX_BASELINE_RECORDS + 1;
      expectRule(
        records.length <= limit,
        'REST.QUERY.LIMIT',
        () => `${register}?limit=${limit}&offset=${offset} returned ${records.length} records`,
        decisiveWhen(
          'REST.QUERY.LIMIT',
          size > offset + limit,
          `${register} holds ${size} record(s), no more than offset ${offset} plus limit ${limit}`,
        ),
      );
    },
    // first in every run: limit 1 from the start of a register with at least two records
    { examples: async (ctx) => [[first(await registers.get(ctx)), 1, 0]] },
  );

  ruleProperty(
    'REST.QUERY.OFFSET',
    'offset=N skips exactly the first N records of the sorted result',
    async (ctx) => [
      (await registerArb(ctx)).chain((r) =>
        fc.record({ register: fc.constant(r.register), sort: fc.constantFrom(...r.fields) }),
      ),
      fc.nat({ max: 120 }),
    ],
    async (ctx, { register, sort }, offset) => {
      let how: Decisiveness | undefined;
      await judgeStable(
        ctx,
        baselines,
        register,
        'REST.QUERY.OFFSET',
        async () => {
          const all = (await baselines.all(ctx, register)) ?? [];
          const sorted = await baselines.sorted(ctx, register, sort);
          const records = await page(ctx, register, { sort, offset }, 'REST.QUERY.OFFSET');
          how = parameterSeparates(register, 'offset', { sort, offset }, all, sorted);
          return compareWithModel(register, { sort, offset }, records, all, sorted);
        },
        3,
        () => how,
      );
    },
    // first in every run: skip one record of a register with at least two
    { examples: async (ctx) => [[{ ...sortedBy(await registers.get(ctx)) }, 1]] },
  );

  ruleProperty(
    'REST.QUERY.OFFSET_LIMIT_PAGING',
    'walking offset 0, k, 2k... with limit k yields every record once, in the order of the unpaged read',
    async (ctx) => [
      (await registerArb(ctx)).chain((r) =>
        fc.record({
          register: fc.constant(r.register),
          sort: fc.option(fc.constantFrom(...r.fields), { nil: undefined }),
        }),
      ),
      fc.integer({ min: 1, max: 10 }),
    ],
    async (ctx, { register, sort }, pages) => {
      let how: Decisiveness | undefined;
      const decided = () => how;
      await judgeStable(
        ctx,
        baselines,
        register,
        'REST.QUERY.OFFSET_LIMIT_PAGING',
        async () => {
          const all = (await baselines.all(ctx, register)) ?? [];
          // k so that the walk takes about `pages` pages (at most 11 requests per run)
          const k = Math.max(1, Math.ceil(all.length / pages));
          // one page holding everything is what a server ignoring offset and limit answers too
          how = parameterSeparates(register, 'paging', { limit: k }, all, undefined);
          const unpaged = sort === undefined ? all : await baselines.sorted(ctx, register, sort);
          const walked: AnyRecord[] = [];
          for (let offset = 0; offset <= all.length + k; offset += k) {
            const query = { ...(sort ? { sort } : {}), offset, limit: k };
            const records = await page(ctx, register, query, 'REST.QUERY.OFFSET_LIMIT_PAGING');
            if (records.length > k) return `${register} ${show(query)}: ${records.length} records on a page of ${k}`;
            walked.push(...records);
            if (records.length < k) break;
          }
          const ids = walked.map((r) => identityOf(register, r));
          const dup = ids.find((id, i) => ids.indexOf(id) !== i);
          if (dup) return `pages of ${k}${sort ? ` sorted by ${sort}` : ''}: ${dup} comes twice`;
          const want = new Set(unpaged.map((r) => identityOf(register, r)));
          const missing = [...want].find((id) => !ids.includes(id));
          if (missing)
            return `pages of ${k}${sort ? ` sorted by ${sort}` : ''}: ${missing} of the unpaged read is on no page`;
          const extra = ids.find((id) => !want.has(id));
          if (extra) return `pages of ${k}: ${extra} is not in the unpaged read`;
          if (sort) {
            // ties may come in any order; the sort values must run as in the unpaged read
            const byId = new Map(unpaged.map((r) => [identityOf(register, r), r]));
            const got = ids.map((id) => fieldValue(byId.get(id)!, sort));
            const exp = unpaged.map((r) => fieldValue(r, sort));
            const at = got.findIndex((v, i) => v !== exp[i]);
            if (at >= 0)
              return `pages of ${k} sorted by ${sort}: position ${at} has ${show(got[at])}, the unpaged read ${show(exp[at])}`;
          }
          return undefined;
        },
        3,
        decided,
      );
    },
    {
      numRuns: 15,
      // first in every run: three pages, sorted and in the server's own order
      examples: async (ctx) => {
        const d = sortedBy(await registers.get(ctx));
        return [
          [d, 3],
          [{ register: d.register, sort: undefined }, 3],
        ];
      },
    },
  );

  ruleTest(
    ['REST.LIMITS.BATCH_SIZE', 'REST.LIMITS.PAGINATION_GUIDANCE'],
    'a read paged with limit 1,000 (the suggested batch size), about one second apart, is served in full',
    async (ctx) => {
      for (const { register } of await registers.get(ctx, 1)) {
        const all = (await baselines.all(ctx, register)) ?? [];
        const want = new Set(all.map((r) => identityOf(register, r)));
        // BATCH_SIZE: one request of 1,000 holds the first 1,000 records, or every record of a smaller register
        const first = await page(ctx, register, { offset: 0, limit: BATCH }, 'REST.LIMITS.BATCH_SIZE');
        const short = Math.min(BATCH, all.length) - first.length;
        const firstMissing =
          all.length <= BATCH ? [...want].filter((id) => !first.some((r) => identityOf(register, r) === id)) : [];
        if (short <= 0 && firstMissing.length === 0) ctx.observe('REST.LIMITS.BATCH_SIZE');
        else if (!(await baselines.refresh(ctx, register)))
          violated(
            'REST.LIMITS.BATCH_SIZE',
            `${register}?offset=0&limit=${BATCH} returned ${first.length} of ${all.length} records${firstMissing.length > 0 ? `; missing ${firstMissing.slice(0, 3).join(', ')}` : ''}`,
          );
        // PAGINATION_GUIDANCE: pages of 1,000 at offsets 0, 1000, ... about one second apart, up to MAX_PAGES
        // (a staging register may be large: beyond them the read is only checked as far as it went)
        const got = new Set(first.map((r) => identityOf(register, r)));
        let last = first;
        let pages = 1;
        while (last.length === BATCH && pages < MAX_PAGES) {
          await new Promise((done) => setTimeout(done, PAUSE_MS));
          last = await page(ctx, register, { offset: pages * BATCH, limit: BATCH }, 'REST.LIMITS.PAGINATION_GUIDANCE');
          for (const r of last) got.add(identityOf(register, r));
          pages++;
        }
        const complete = last.length < BATCH; // the read reached the end of the register
        const missing = complete ? [...want].filter((id) => !got.has(id)) : [];
        const foreign = [...got].filter((id) => !want.has(id));
        if (missing.length === 0 && foreign.length === 0) ctx.observe('REST.LIMITS.PAGINATION_GUIDANCE');
        else if (!(await baselines.refresh(ctx, register)))
          violated(
            'REST.LIMITS.PAGINATION_GUIDANCE',
            `${pages} page(s) of ${register} with limit=${BATCH}, ${PAUSE_MS} ms apart, returned ${got.size} distinct records of ${all.length}${missing.length > 0 ? `; missing ${missing.slice(0, 3).join(', ')}` : ''}${foreign.length > 0 ? `; not in the register: ${foreign.slice(0, 3).join(', ')}` : ''}`,
          );
      }
    },
  );
});
