// Query semantics (issue 5 "REST query semantics"; record-rest-api.md §4 "Query parameters"): each answer
// is checked against a model computed from unfiltered reads of the same register (src/harness/query-model.ts).
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  type AnyRecord,
  ascendingOrder,
  assertJsonStrings,
  combinationSeparates,
  compareWithModel,
  type Decisiveness,
  describeQuery,
  type FilterChoice,
  fieldSubset,
  fieldValue,
  filterChoice,
  identityOf,
  isAscending,
  judgeStable,
  offsetLimit,
  parameterSeparates,
  probe,
  type QueryParameter,
  type QuerySpec,
  queryRegisters,
  type RangeSpec,
  type RegisterData,
  type RuleContext,
  rangeableValues,
  rangeChoice,
  resolveFilters,
  resolveRange,
  ruleProperty,
  show,
  singleParameters,
  toListQuery,
  violated,
} from '../../src/harness/index.js';

const registers = queryRegisters();
const { baselines } = registers;

const registerArb = async (ctx: RuleContext) => {
  const list = await registers.get(ctx);
  return fc.constantFrom(...list.map((d) => ({ register: d.register, fields: d.fields })));
};

/** The first query register with the field whose values differ most, to sort by. */
function widest(list: readonly RegisterData[]): { register: string; sort: string } {
  const d = list[0]!;
  const distinct = (f: string) => new Set(d.records.map((r) => fieldValue(r, f))).size;
  return { register: d.register, sort: d.fields.reduce((best, f) => (distinct(f) > distinct(best) ? f : best)) };
}

/**
 * The SORT_ASCENDING example: a register and field whose unsorted read is not in ascending order (so that a server
 * ignoring sort answers otherwise: a decisive case), the one with the most distinct values; else {@link widest}.
 */
function unsorted(list: readonly RegisterData[]): { register: string; sort: string } {
  let best: { register: string; sort: string; distinct: number } | undefined;
  for (const d of list)
    for (const f of d.fields) {
      const values = d.records.map((r) => fieldValue(r, f));
      const distinct = new Set(values).size;
      if (!isAscending(values) && (best === undefined || distinct > best.distinct))
        best = { register: d.register, sort: f, distinct };
    }
  return best ? { register: best.register, sort: best.sort } : widest(list);
}

/**
 * The FILTER_AND example: the first register whose records 0 and 1 differ in two of its fields, with those two
 * fields (record 0's value of the first, record 1's of the second); none when no register has such records.
 */
function andExamples(list: readonly RegisterData[]): [{ register: string; fields: readonly string[] }, FilterChoice][] {
  for (const d of list) {
    const [a, b] = d.records;
    if (!a || !b) continue;
    const differ = d.fields.flatMap((f, i) => (fieldValue(a, f) !== fieldValue(b, f) ? [i] : []));
    if (differ.length >= 2)
      return [
        [
          { register: d.register, fields: d.fields },
          { record: 0, fields: differ.slice(0, 2), mutation: null },
        ],
      ];
  }
  return [];
}

/**
 * Reads `spec` and compares it with the model; reports a difference as a violation of `rule`. An agreement is
 * decisive where a server ignoring `parameter` would have answered otherwise (query-decisive.ts).
 */
async function checkQuery(
  ctx: RuleContext,
  register: string,
  rule: string,
  parameter: QueryParameter,
  build: () => Promise<QuerySpec | undefined>,
  /** On a miss: whether a part of the combined query is broken alone (its own rule's), so this case judges nothing. */
  brokenPart?: (spec: QuerySpec, all: readonly AnyRecord[]) => Promise<boolean>,
) {
  let how: Decisiveness | undefined;
  await judgeStable(
    ctx,
    baselines,
    register,
    rule,
    async () => {
      const all = (await baselines.all(ctx, register)) ?? [];
      const spec = await build();
      if (!spec) return null; // nothing to judge
      const sorted = spec.sort !== undefined ? await baselines.sorted(ctx, register, spec.sort) : undefined;
      const p = await probe(ctx, register, toListQuery(spec));
      if (!p.ok) violated(rule, `${register}?${describeQuery(spec)} was refused: ${p.why}`);
      assertJsonStrings(register, p.envelope); // the representation first: values compare as strings
      how = parameterSeparates(register, parameter, spec, all, sorted);
      const problem = compareWithModel(register, spec, p.records, all, sorted);
      if (problem === undefined || brokenPart === undefined) return problem;
      return (await brokenPart(spec, all)) ? null : problem;
    },
    3,
    () => how,
  );
}

/**
 * A range over the server's own order of `sort`, read ascending (`from` never above `to`, whichever direction
 * the server sorts in); undefined when the field has no value to bound it or the server's order runs neither
 * way (which records a range selects cannot be told then: SORT_ASCENDING judges that order).
 */
async function rangeFor(ctx: RuleContext, register: string, sort: string, choice: Parameters<typeof resolveRange>[0]) {
  const ascending = ascendingOrder(await baselines.sorted(ctx, register, sort), sort);
  return ascending ? resolveRange(choice, rangeableValues(ascending, sort)) : undefined;
}

/**
 * The first parameter of a combined query that does not hold on its own (its answer alone differs from the
 * model, or is refused), as text; undefined when each holds. `sort` holds when the server's sorted read is
 * ascending and has every record.
 */
async function brokenAlone(
  ctx: RuleContext,
  register: string,
  spec: QuerySpec,
  all: readonly AnyRecord[],
  sorted: readonly AnyRecord[] | undefined,
): Promise<string | undefined> {
  const sort = spec.sort;
  if (sort !== undefined && sorted) {
    if (!isAscending(sorted.map((r) => fieldValue(r, sort)))) return `sort=${sort} is not ascending`;
    const problem = compareWithModel(register, { sort }, sorted, all, sorted);
    if (problem) return problem;
  }
  for (const single of singleParameters(spec)) {
    const p = await probe(ctx, register, toListQuery(single.spec));
    if (!p.ok) return `${single.parameter}: ${describeQuery(single.spec)} was refused`;
    const problem = compareWithModel(register, single.spec, p.records, all, sorted);
    if (problem) return `${single.parameter}: ${problem}`;
  }
  return undefined;
}

/** Whether one filter of `spec`, asked alone, differs from the model or is refused (issue 28: probes apart). */
async function filterBrokenAlone(
  ctx: RuleContext,
  register: string,
  spec: QuerySpec,
  all: readonly AnyRecord[],
): Promise<boolean> {
  for (const filter of spec.filters ?? []) {
    const alone: QuerySpec = { filters: [filter] };
    const p = await probe(ctx, register, toListQuery(alone));
    if (!p.ok || compareWithModel(register, alone, p.records, all, undefined) !== undefined) return true;
  }
  return false;
}

describe('REST query semantics against a model of the unfiltered read', () => {
  ruleProperty(
    'REST.QUERY.FILTER_EXACT',
    'filter.<Field>=v returns exactly the records whose field equals v (a cut, extended or re-cased v matches no more)',
    async (ctx) => [await registerArb(ctx), filterChoice(1)],
    async (ctx, { register, fields }, choice) => {
      await checkQuery(ctx, register, 'REST.QUERY.FILTER_EXACT', 'filter', async () => {
        const all = (await baselines.all(ctx, register)) ?? [];
        const filters = resolveFilters(choice, all, fields);
        return filters.length > 0 ? { filters } : undefined;
      });
    },
  );

  ruleProperty(
    'REST.QUERY.FILTER_AND',
    'several filter.<Field> parameters return the records matching every one of them',
    async (ctx) => [await registerArb(ctx), filterChoice(3).map((c) => ({ ...c, mutation: null }))],
    async (ctx, { register, fields }, choice) => {
      await checkQuery(
        ctx,
        register,
        'REST.QUERY.FILTER_AND',
        'filterAnd',
        async () => {
          const all = (await baselines.all(ctx, register)) ?? [];
          // the values of two records mixed: each filter matches some records, together maybe none
          const other = resolveFilters({ ...choice, record: choice.record + 1 }, all, fields);
          const filters = resolveFilters(choice, all, fields).map((f, i) => (i % 2 === 1 && other[i] ? other[i]! : f));
          return filters.length > 0 ? { filters } : undefined;
        },
        // several filters are several probes: each is asked alone before their combination is blamed. One that is
        // broken alone is FILTER_EXACT's (judged by its own property); the case gets no verdict here
        async (spec, all) => (spec.filters?.length ?? 0) >= 2 && (await filterBrokenAlone(ctx, register, spec, all)),
      );
    },
    // first in every run: two fields in which records 0 and 1 of the first register differ, one value of each,
    // so that every filter matches a record and all of them together fewer (a server that ORs them is seen)
    { examples: async (ctx) => andExamples(await registers.get(ctx)) },
  );

  ruleProperty(
    'REST.QUERY.SORT_ASCENDING',
    'sort=<field> returns every record, in ascending order of the field',
    async (ctx) => [
      await registerArb(ctx).then((a) =>
        a.chain((r) => fc.record({ register: fc.constant(r.register), sort: fc.constantFrom(...r.fields) })),
      ),
    ],
    async (ctx, { register, sort }) => {
      let how: Decisiveness | undefined;
      const decided = () => how;
      await judgeStable(
        ctx,
        baselines,
        register,
        'REST.QUERY.SORT_ASCENDING',
        async () => {
          const all = (await baselines.all(ctx, register)) ?? [];
          how = parameterSeparates(register, 'sort', { sort }, all, undefined);
          const p = await probe(ctx, register, { sort });
          if (!p.ok) violated('REST.QUERY.SORT_ASCENDING', `${register}?sort=${sort} was refused: ${p.why}`);
          const values = p.records.map((r) => fieldValue(r, sort));
          if (!isAscending(values))
            return `${register}?sort=${sort} is not ascending: ${show(values.slice(0, 12))}${values.length > 12 ? '...' : ''}`;
          const got = new Set(p.records.map((r) => identityOf(register, r)));
          const missing = all.find((r) => !got.has(identityOf(register, r)));
          if (missing || got.size !== all.length || p.records.length !== all.length)
            return `${register}?sort=${sort} returned ${p.records.length} records, the unfiltered read ${all.length}${missing ? `; ${identityOf(register, missing)} is missing` : ''}`;
          return undefined;
        },
        3,
        decided,
      );
    },
    // first in every run: a field whose unsorted read is out of order, with the most distinct values (an order a
    // server ignoring sort would not show; the gate profile runs the examples only)
    { examples: async (ctx) => [[unsorted(await registers.get(ctx))]] },
  );

  for (const [rule, form, title] of [
    [
      'REST.QUERY.RANGE_FROM_TO',
      'from:to',
      'range=from:to returns the records from "from" through "to", both inclusive',
    ],
    ['REST.QUERY.RANGE_FROM_OPEN', 'from:', 'range=from: returns the records from "from" onwards'],
    ['REST.QUERY.RANGE_EXACT', 'exact', 'range=value returns the records equal to value'],
  ] as const) {
    ruleProperty(
      rule,
      title,
      async (ctx) => [
        (await registerArb(ctx)).chain((r) =>
          fc.record({ register: fc.constant(r.register), sort: fc.constantFrom(...r.fields) }),
        ),
        rangeChoice().map((c) => ({ ...c, form })),
      ],
      async (ctx, { register, sort }, choice) => {
        await checkQuery(ctx, register, rule, 'range', async () => {
          const range = await rangeFor(ctx, register, sort, choice);
          return range ? { sort, range } : undefined;
        });
      },
      // first in every run: the field of the first register with the most distinct values, whose order bounds a
      // range (a random field may have none, and a run that judges nothing ends the gate's runs)
      { examples: async (ctx) => [[widest(await registers.get(ctx)), { form, a: 1, b: 0 }]] },
    );
  }

  ruleProperty(
    'REST.QUERY.RANGE_REQUIRES_SORT',
    'range without sort does not take effect as a range',
    async (ctx) => [
      (await registerArb(ctx)).chain((r) =>
        fc.record({ register: fc.constant(r.register), field: fc.constantFrom(...r.fields) }),
      ),
      rangeChoice(),
    ],
    async (ctx, { register, field }, choice) => {
      let how: Decisiveness | undefined;
      const decided = () => how;
      await judgeStable(
        ctx,
        baselines,
        register,
        'REST.QUERY.RANGE_REQUIRES_SORT',
        async () => {
          const all = (await baselines.all(ctx, register)) ?? [];
          const range: RangeSpec | undefined = await rangeFor(ctx, register, field, choice);
          if (!range) return null; // nothing to judge
          const spec: QuerySpec = { range };
          // a range that, applied, leaves no record out cannot show whether it took effect
          const applied = parameterSeparates(
            register,
            'range',
            { sort: field, range },
            all,
            await baselines.sorted(ctx, register, field),
          );
          how = applied.decisive
            ? applied
            : { decisive: false, missing: `the range ${describeQuery(spec)} covers every record of ${register}` };
          const p = await probe(ctx, register, toListQuery(spec));
          // §4: "Required when range is used". Refusing the request is the reading the docs give; an answer
          // that ignores the range is tolerated (advisory); a range applied without sort breaks the rule.
          if (!p.ok) return undefined;
          const got = new Set(p.records.map((r) => identityOf(register, r)));
          if (got.size === all.length && all.every((r) => got.has(identityOf(register, r)))) {
            ctx.advise(
              `${register}?${describeQuery(spec)} without sort was answered with every record instead of being refused`,
            );
            return undefined;
          }
          return `${register}?${describeQuery(spec)} without sort returned ${p.records.length} of ${all.length} records: the range took effect without sort`;
        },
        3,
        decided,
      );
    },
    {
      numRuns: 10,
      // first in every run: a from:to range over the field with the most distinct values (see the range rules)
      examples: async (ctx) => {
        const { register, sort } = widest(await registers.get(ctx));
        return [
          [
            { register, field: sort },
            { form: 'from:to' as const, a: 0, b: 1 },
          ],
        ];
      },
    },
  );

  ruleProperty(
    'REST.QUERY.FIELDS',
    'fields=A,B returns those fields only, with the values of the full record',
    async (ctx) => [
      (await registerArb(ctx)).chain((r) =>
        fc.record({ register: fc.constant(r.register), fields: fieldSubset(r.fields, 4) }),
      ),
    ],
    async (ctx, { register, fields }) => {
      await checkQuery(ctx, register, 'REST.QUERY.FIELDS', 'fields', async () => ({ fields }));
    },
  );

  ruleProperty(
    'REST.QUERY.COMBINABLE',
    'filter, sort, range, fields, offset and limit combined keep each their meaning',
    async (ctx) => {
      const list = await registers.get(ctx);
      const max = Math.max(...list.map((d) => d.records.length));
      return [
        fc.constantFrom(...list).chain((d) =>
          fc.record({
            register: fc.constant(d.register),
            all: fc.constant(d.fields),
            sort: fc.constantFrom(...d.fields),
            fields: fc.option(fieldSubset(d.fields, 3), { nil: undefined }),
          }),
        ),
        fc.option(filterChoice(2), { nil: undefined }),
        fc.option(rangeChoice(), { nil: undefined }),
        fc.option(offsetLimit(max), { nil: undefined }),
      ];
    },
    async (ctx, { register, all: fields, sort, fields: projection }, filterPick, rangePick, paging) => {
      const rule = 'REST.QUERY.COMBINABLE';
      let how: Decisiveness | undefined;
      const decided = () => how;
      // The combination is judged, not its parts: when the combined answer differs from the model, the FAIL is
      // the combination's only if every parameter holds when asked alone; a parameter broken on its own is
      // its own rule's FAIL (FILTER_*, RANGE_*, FIELDS, OFFSET, LIMIT, SORT_ASCENDING) and leaves this case
      // without a verdict.
      await judgeStable(
        ctx,
        baselines,
        register,
        rule,
        async () => {
          const all = (await baselines.all(ctx, register)) ?? [];
          const filters = filterPick ? resolveFilters(filterPick, all, fields) : [];
          const range = rangePick ? await rangeFor(ctx, register, sort, rangePick) : undefined;
          const spec: QuerySpec = {
            ...(filters.length > 0 ? { filters } : {}),
            sort,
            ...(range ? { range } : {}),
            ...(projection ? { fields: projection } : {}),
            ...(paging ?? {}),
          };
          const sorted = await baselines.sorted(ctx, register, sort);
          how = combinationSeparates(register, spec, all, sorted);
          const p = await probe(ctx, register, toListQuery(spec));
          if (!p.ok) {
            if (await brokenAlone(ctx, register, spec, all, sorted)) return null;
            violated(rule, `${register}?${describeQuery(spec)} was refused: ${p.why}`);
          }
          assertJsonStrings(register, p.envelope); // the representation first: values compare as strings
          const problem = compareWithModel(register, spec, p.records, all, sorted);
          if (problem === undefined) return undefined;
          return (await brokenAlone(ctx, register, spec, all, sorted)) ? null : problem;
        },
        3,
        decided,
      );
    },
    {
      numRuns: 20,
      // every parameter at once, first in every run: a filter on the field with the most distinct values (so
      // that it narrows), the range from the lowest value on, a page of two
      examples: async (ctx) => {
        const list = await registers.get(ctx);
        const d = list[0]!;
        const narrowest = d.fields.indexOf(widest(list).sort);
        return [
          [
            { register: d.register, all: d.fields, sort: d.fields[0]!, fields: d.fields.slice(0, 2) },
            { record: 0, fields: [narrowest], mutation: null },
            { form: 'from:', a: 0, b: 0 },
            { offset: 0, limit: 2 },
          ],
        ];
      },
    },
  );
});
