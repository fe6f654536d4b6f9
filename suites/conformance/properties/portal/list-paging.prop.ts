// Portal list queries: shapes and paging bounds (issue 5 "Paging bounds"; portal-action-api.md §1 "A list
// query has no action parameter", §2 "Paged list", "ARVc/APVc record fields", §4 "List query", rule 8, §8).
import type { PortalList, PortalRecord } from '@erpcert/client';
import fc from 'fast-check';
import { describe } from 'vitest';
import {
  ContractViolation,
  type Decisiveness,
  decisiveWhen,
  expectRule,
  type RuleContext,
  ruleProperty,
  show,
  violated,
} from '../../src/harness/index.js';
import {
  assertPortalXml,
  attempt,
  dataChildNames,
  describeOutcome,
  expectErrorShape,
  expectSuccess,
  hasField,
  isArAp,
  judgeQuiet,
  LIST_FIELDS,
  LIST_REGISTERS,
  type ListRegister,
  listIdentity,
  type Outcome,
  pagedBy,
  recordsOnPage,
  statedCount,
  textOf,
} from '../../src/harness/portal.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Lists bigger than this are walked only part of the way (a staging ERP's invoice list). */
const WALK_MAX_PAGES = 12;
/**
 * The gate profile's walk: at most this many pages, each at least count / this (the whole list still, in
 * bigger pages: fewer requests). @defaultValue 4
 */
const GATE_WALK_MAX_PAGES = 4;

/** What the target holds per list register: its stated record count (page 1, perpage {@link FIRST_PERPAGE}). */
let discovered: Promise<{ register: ListRegister; count: number }[]> | undefined;

/** The perpage of the discovery's reads: the first page the shape property's example of each register reads. */
const FIRST_PERPAGE = 20;

/**
 * The discovery's answers, each taken once by the shape property's example that asks the same (page 1,
 * perpage {@link FIRST_PERPAGE}) instead of asking again: one read of a register serves both.
 */
const firstPages = new Map<ListRegister, Outcome<PortalList>>();

/** The discovery's answer to `register` page 1 by {@link FIRST_PERPAGE}, once; undefined for other pages. */
function takeFirstPage(register: ListRegister, page: number, perpage: number): Outcome<PortalList> | undefined {
  if (page !== 1 || perpage !== FIRST_PERPAGE) return undefined;
  const o = firstPages.get(register);
  firstPages.delete(register);
  return o;
}

/** The list registers with records and their counts (empty when the target has none). */
function discoverLists(ctx: RuleContext) {
  discovered ??= (async () => {
    const out: { register: ListRegister; count: number }[] = [];
    for (const register of LIST_REGISTERS) {
      const o = await attempt(ctx.client.portal.list(register, { page: 1, perpage: FIRST_PERPAGE }));
      firstPages.set(register, o);
      const count = o.ok ? statedCount(register, o.value) : undefined;
      if (count !== undefined && count > 0) out.push({ register, count });
    }
    return out;
  })();
  return discovered;
}

/** {@link discoverLists}, skipping the test when the target has no list with a record in it. */
async function listsWithData(ctx: RuleContext) {
  const found = await discoverLists(ctx);
  if (found.length === 0) ctx.skip(`the target has no list (${LIST_REGISTERS.join(', ')}) with a record in it`);
  return found;
}

function shapeRule(register: string): string {
  return isArAp(register) ? 'PORTAL.LIST.ARAP_PAGED_SHAPE' : 'PORTAL.LIST.PAGED_SHAPE';
}

/** The documented attributes of `<data>` are there and echo the request (§2 "Paged list"). */
function checkPageAttributes(register: string, list: PortalList, page: number, perpage: number): void {
  const rule = shapeRule(register);
  const names = isArAp(register) ? ['page', 'total'] : ['count', 'page', 'perpage', 'totalpages'];
  for (const a of names)
    expectRule(
      list.attrs[a] !== undefined && /^\d+$/.test(list.attrs[a]!),
      rule,
      () => `${register} page ${page}: <data ${a}> is ${show(list.attrs[a])}, not a whole number`,
    );
  expectRule(list.page === page, rule, () => `${register}: asked page ${page}, <data page="${list.attrs.page}">`);
  // a server that pages by another size than asked and says so in <data perpage> answers a sound paged list:
  // whether perpage is honoured is PORTAL.LIST.PERPAGE_1_100's check, a page over perpage PORTAL.LIMITS.PAGE_SIZE's;
  // a perpage that neither echoes the request nor describes the page contradicts the answer's own records
  if (!isArAp(register) && list.perpage !== perpage)
    expectRule(
      list.perpage !== undefined && pagedBy(register, list, list.perpage),
      rule,
      () =>
        `${register} page ${page}: asked perpage ${perpage}, <data perpage="${list.attrs.perpage}" count="${list.attrs.count}" totalpages="${list.attrs.totalpages}"> with ${list.records.length} records, which follow neither`,
    );
}

/**
 * The page size a list answer shows: `<data perpage>` (ARVc/APVc state none: the records of page 1 when it
 * holds fewer than `perpage` of `count`), else the `perpage` asked.
 */
function pageSizeShown(register: string, list: PortalList, perpage: number, count: number): number {
  if (!isArAp(register)) return list.perpage !== undefined && list.perpage >= 1 ? list.perpage : perpage;
  const n = list.records.length;
  return n > 0 && n < recordsOnPage(count, 1, perpage) ? n : perpage;
}

/** Each documented field is present in every record; ARVc/APVc DueDate is YYYY-MM-DD (§2). */
function checkDocumentedFields(register: ListRegister, records: readonly PortalRecord[]): void {
  const fields = LIST_FIELDS[register];
  if (!fields) return;
  const rule = `PORTAL.LIST.${register.toUpperCase()}_FIELDS`;
  for (const [i, r] of records.entries()) {
    const missing = fields.filter((f) => !hasField(r, f));
    expectRule(missing.length === 0, rule, () => `${register} record ${i + 1} lacks ${missing.join(', ')}: ${show(r)}`);
    if (register !== 'IVVc')
      expectRule(
        DATE.test(textOf(r, 'DueDate')),
        rule,
        () => `${register} record ${i + 1} DueDate is ${show(r.DueDate)}, not YYYY-MM-DD`,
      );
  }
}

/** The shape rules judged on one list answer (page `page` by `perpage` of `register`). */
async function judgePage(
  ctx: RuleContext,
  register: ListRegister,
  page: number,
  perpage: number,
  o: Outcome<PortalList>,
): Promise<void> {
  if (!o.ok) {
    // a refusal asked apart before the register is blamed: the same page by another perpage (from 1 to 100)
    // served shows the register served and this perpage refused (§4 rule 8: "perpage an integer from 1 to 100")
    const other = perpage === 1 ? 2 : 1;
    const again = await attempt(ctx.client.portal.list(register, { page, perpage: other }));
    if (again.ok)
      violated(
        'PORTAL.LIST.PERPAGE_1_100',
        `list query register=${register}&page=${page}&perpage=${perpage} was refused (${describeOutcome(o)}), while perpage=${other} was served`,
      );
  }
  const list = expectSuccess(o, 'PORTAL.LIST.REGISTERS', `list query register=${register}&page=${page}`);
  await assertPortalXml(
    ctx,
    list.raw.text,
    isArAp(register) ? 'portal-arap-list' : 'portal-list',
    shapeRule(register),
    register === 'IVVc' ? register : '', // only IVVc rows have a declaration of their own in portal-list.xsd
  );
  const strangers = dataChildNames(list.raw).filter((n) => n !== register && n !== 'res' && n !== 'message');
  expectRule(
    strangers.length === 0,
    shapeRule(register),
    () => `${register} list holds elements ${strangers.join(', ')}, not records named ${register}`,
  );
  // a request without action listed the register it named, wrapped in <data> (the schema above)
  ctx.observe(['PORTAL.DISPATCH.LIST_QUERY', 'PORTAL.LIST.QUERY', 'PORTAL.DISPATCH.XML_SUCCESS']);
  checkPageAttributes(register, list, page, perpage);
  const stated = statedCount(register, list);
  expectRule(
    list.records.length <= perpage,
    'PORTAL.LIMITS.PAGE_SIZE',
    () => `${register} page ${page} with perpage=${perpage} holds ${list.records.length} records`,
    // only a list with more records from this page on than perpage can show a page that is too long
    decisiveWhen(
      'PORTAL.LIMITS.PAGE_SIZE',
      stated !== undefined && stated - (page - 1) * perpage > perpage,
      `the ${register} list states ${stated ?? 'no'} records, no more than page ${page} of ${perpage} holds`,
    ),
  );
  checkDocumentedFields(register, list.records);
}

describe('portal list queries: shapes and paging', () => {
  ruleProperty(
    [
      'PORTAL.LIST.REGISTERS',
      'PORTAL.DISPATCH.LIST_QUERY',
      'PORTAL.LIST.QUERY',
      'PORTAL.LIST.PAGED_SHAPE',
      'PORTAL.LIST.ARAP_PAGED_SHAPE',
      'PORTAL.LIST.IVVC_FIELDS',
      'PORTAL.LIST.ARVC_FIELDS',
      'PORTAL.LIST.APVC_FIELDS',
      'PORTAL.LIMITS.PAGE_SIZE',
      'PORTAL.DISPATCH.XML_SUCCESS',
    ],
    'every list register answers a page of records named after it, in its documented shape',
    [fc.constantFrom(...LIST_REGISTERS), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 100 })],
    async (ctx, register, page, perpage) => {
      const taken = takeFirstPage(register, page, perpage);
      if (taken !== undefined)
        try {
          return await judgePage(ctx, register, page, perpage, taken);
        } catch (err) {
          // the discovery's answer broke a rule: judged again on an answer of this run, whose exchange the
          // failure then carries
          if (!(err instanceof ContractViolation)) throw err;
        }
      await judgePage(ctx, register, page, perpage, await attempt(ctx.client.portal.list(register, { page, perpage })));
    },
    {
      numRuns: 15,
      // every list register once (its shape rule and its fields rule); then perpage 1 on the biggest list, whose
      // first page must hold one record (PORTAL.LIMITS.PAGE_SIZE judged on a page that could be too long in
      // every run); then random pages
      examples: async (ctx) => {
        const biggest = (await discoverLists(ctx)).reduce<{ register: ListRegister; count: number } | undefined>(
          (a, b) => (a === undefined || b.count > a.count ? b : a),
          undefined,
        );
        return [
          ...LIST_REGISTERS.map((r) => [r, 1, FIRST_PERPAGE] as [ListRegister, number, number]),
          ...(biggest !== undefined && biggest.count >= 2
            ? [[biggest.register, 1, 1] as [ListRegister, number, number]]
            : []),
        ];
      },
    },
  );

  ruleProperty(
    'PORTAL.LIST.PERPAGE_1_100',
    'a perpage from 1 to 100 is the page size: page 1 holds min(perpage, count) records and <data perpage> says perpage',
    async (ctx) => [fc.constantFrom(...(await listsWithData(ctx))), fc.integer({ min: 1, max: 100 })],
    async (ctx, { register }, perpage) => {
      let how: Decisiveness | undefined;
      await judgeQuiet(
        ctx,
        'PORTAL.LIST.PERPAGE_1_100',
        async () => {
          const o = await attempt(ctx.client.portal.list(register, { page: 1, perpage }));
          if (!o.ok) return `register=${register}&page=1&perpage=${perpage} was refused: ${describeOutcome(o)}`;
          const list = o.value;
          const count = statedCount(register, list);
          const n = list.records.length;
          // a list of more records than perpage: a server paging by its own size answers another number there
          how = decisiveWhen(
            'PORTAL.LIST.PERPAGE_1_100',
            count !== undefined && count > perpage,
            `the ${register} list states ${count ?? 'no'} records, no more than perpage ${perpage}`,
          );
          // no count, or a page over perpage: the paged shape's and PORTAL.LIMITS.PAGE_SIZE's checks judge those
          if (count === undefined || n > perpage) return null;
          if (
            !isArAp(register) &&
            list.perpage !== undefined &&
            list.perpage !== perpage &&
            pagedBy(register, list, list.perpage)
          )
            return `register=${register}&page=1&perpage=${perpage} was paged by ${list.perpage} (<data perpage="${list.attrs.perpage}">, ${n} of ${count} records)`;
          if (n !== recordsOnPage(count, 1, perpage))
            return `register=${register}&page=1&perpage=${perpage} holds ${n} of ${count} records, not ${recordsOnPage(count, 1, perpage)}`;
          return undefined;
        },
        4,
        () => how,
      );
    },
    {
      numRuns: 8,
      // perpage 1 and 100 on the first two lists with records, in every run (a smaller and a bigger page than
      // a server's own default size, whatever it is)
      examples: async (ctx) => {
        const found = await discoverLists(ctx);
        return found
          .slice(0, 2)
          .flatMap((f) => [[f, 1] as [(typeof found)[number], number], [f, 100] as [(typeof found)[number], number]]);
      },
    },
  );

  ruleProperty(
    ['PORTAL.LIST.PAGE_MIN_1', 'PORTAL.LIST.PERPAGE_1_100', 'PORTAL.ERRORS.SHAPE'],
    'a page below 1 or a perpage outside 1 to 100 (or not whole numbers) is refused with an error',
    [
      fc.constantFrom(...LIST_REGISTERS),
      fc.oneof(
        fc.record({
          param: fc.constant('page' as const),
          value: fc.oneof(fc.integer({ min: -1000, max: 0 }).map(String), fc.constantFrom('abc', '1.5', '-', '1e2x')),
        }),
        fc.record({
          param: fc.constant('perpage' as const),
          value: fc.oneof(
            fc.integer({ min: 101, max: 100_000 }).map(String),
            fc.integer({ min: -1000, max: 0 }).map(String),
            fc.constantFrom('x', '2.5', '50a'),
          ),
        }),
      ),
    ],
    async (ctx, register, { param, value }) => {
      const query = { page: '1', perpage: '10', [param]: value };
      const o = await attempt(ctx.client.portal.list(register, query));
      const rule = param === 'page' ? 'PORTAL.LIST.PAGE_MIN_1' : 'PORTAL.LIST.PERPAGE_1_100';
      expectRule(
        !o.ok,
        rule,
        () =>
          `register=${register}&${param}=${value} was answered as a list (${o.ok ? `${o.value.records.length} records` : ''}) instead of being refused`,
        // a value outside the range: a server that takes any value answers a list here
        { decisive: true },
      );
      expectErrorShape(o, 'PORTAL.ERRORS.SHAPE', `register=${register}&${param}=${value}`);
    },
    {
      numRuns: 20,
      // a bad page and a bad perpage in every run
      examples: [
        ['IVVc', { param: 'page', value: '0' }],
        ['CUVc', { param: 'perpage', value: '101' }],
      ],
    },
  );

  ruleProperty(
    [
      'PORTAL.LIST.PAGED_SHAPE',
      'PORTAL.LIST.ARAP_PAGED_SHAPE',
      'PORTAL.LIMITS.PAGE_SIZE',
      'PORTAL.LIST.PAGE_MIN_1',
      'PORTAL.LIST.PERPAGE_1_100',
    ],
    'walking pages 1, 2, ... yields every record once: no page over perpage, count/totalpages agree with the pages',
    async (ctx) => [fc.constantFrom(...(await listsWithData(ctx))), fc.integer({ min: 1, max: 100 })],
    async (ctx, { register }, perpageSeed) => {
      const walkMax = ctx.profile === 'gate' ? GATE_WALK_MAX_PAGES : WALK_MAX_PAGES;
      await judgeQuiet(ctx, shapeRule(register), async () => {
        const first = await attempt(ctx.client.portal.list(register, { page: 1, perpage: 1 }));
        const count = first.ok ? statedCount(register, first.value) : undefined;
        if (count === undefined) return `${register} page 1 states no count: ${describeOutcome(first)}`;
        // about 1 to 12 pages (gate: 4): perpage from the generated seed, at least count / 12 (gate: 4)
        const perpage = Math.min(100, Math.max(Math.ceil(count / walkMax), 1 + (perpageSeed % Math.max(1, count))));
        // the walk follows the page size the server shows on page 1: paging by another size than asked is the
        // perpage checks' business (a page over perpage is PORTAL.LIMITS.PAGE_SIZE's, judged on every page);
        // the pages contradicting their own attributes or losing records is the paged shape's
        let size = perpage;
        let pages = Math.max(1, Math.ceil(count / perpage));
        let walkTo = Math.min(pages + 1, walkMax + 1);
        const seen = new Map<string, number>();
        let total = 0;
        let keyless = 0;
        for (let page = 1; page <= walkTo; page++) {
          const o = await attempt(ctx.client.portal.list(register, { page, perpage }));
          // page 1 by perpage 1 was served above: page 1 refused by this perpage is the perpage refused (§4 rule 8)
          if (!o.ok && page === 1 && perpage !== 1)
            return {
              rule: 'PORTAL.LIST.PERPAGE_1_100',
              detail: `${register} page 1 with perpage ${perpage} was refused (${describeOutcome(o)}), while perpage 1 was served`,
            };
          if (!o.ok)
            return `${register} page ${page} of ${pages} (perpage ${perpage}) was refused: ${describeOutcome(o)}`;
          const list = o.value;
          const n = list.records.length;
          expectRule(
            n <= perpage,
            'PORTAL.LIMITS.PAGE_SIZE',
            () => `${register} page ${page}: ${n} records, perpage ${perpage}`,
            decisiveWhen(
              'PORTAL.LIMITS.PAGE_SIZE',
              count - (page - 1) * perpage > perpage,
              `${count} records, no more than page ${page} of ${perpage} holds`,
            ),
          );
          const stated = statedCount(register, list);
          if (stated !== count) return `${register}: page 1 says ${count} records, page ${page} says ${stated}`;
          if (page === 1) {
            size = pageSizeShown(register, list, perpage, count);
            pages = Math.max(1, Math.ceil(count / size));
            walkTo = Math.min(pages + 1, walkMax + 1);
          }
          const by =
            size === perpage
              ? `perpage ${perpage}`
              : `the page size ${size} the server shows (perpage ${perpage} asked)`;
          if (!isArAp(register) && list.totalpages !== pages)
            return `${register}: count ${count} with ${by} makes ${pages} pages, <data totalpages="${list.attrs.totalpages}">`;
          const want = recordsOnPage(count, page, size);
          if (n !== want)
            return `${register} page ${page} of ${pages} (count ${count}, ${by}) holds ${n} records, expected ${want}`;
          for (const r of list.records) {
            const id = listIdentity(register, r);
            if (id === undefined) {
              keyless++;
              continue;
            }
            if (seen.has(id)) return `${register} record ${id} is on page ${seen.get(id)} and again on page ${page}`;
            seen.set(id, page);
          }
          total += n;
        }
        if (pages <= walkMax && total !== count)
          return `${register}: the pages hold ${total} records, count says ${count}`;
        if (keyless > 0 && keyless === total)
          ctx.advise(`${register} list records carry no ${register} key field: duplicates could not be told`);
        return undefined;
      });
    },
    {
      numRuns: 15,
      // a list of each shape (ARVc/APVc and the others) with records, in every run
      examples: async (ctx) => {
        const found = await listsWithData(ctx);
        const picks = [found.find((f) => isArAp(f.register)), found.find((f) => !isArAp(f.register))];
        return picks.filter((p) => p !== undefined).map((p) => [p, 7] as [(typeof found)[number], number]);
      },
    },
  );
});
