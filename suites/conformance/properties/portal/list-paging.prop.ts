// Portal list queries: shapes and paging bounds (issue 5 "Paging bounds"; portal-action-api.md §1 "A list
// query has no action parameter", §2 "Paged list", "ARVc/APVc record fields", §4 "List query", rule 8, §8).
import type { PortalList, PortalRecord } from '@erpcert/client';
import fc from 'fast-check';
import { describe } from 'vitest';
import { expectRule, type RuleContext, ruleProperty, show } from '../../src/harness/index.js';
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
  statedCount,
  textOf,
} from '../../src/harness/portal.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Lists bigger than this are walked only part of the way (a staging ERP's invoice list). */
const WALK_MAX_PAGES = 12;

/** What the target holds per list register: its stated record count (page 1, perpage 1). */
let discovered: Promise<{ register: ListRegister; count: number }[]> | undefined;

async function listsWithData(ctx: RuleContext) {
  discovered ??= (async () => {
    const out: { register: ListRegister; count: number }[] = [];
    for (const register of LIST_REGISTERS) {
      const o = await attempt(ctx.client.portal.list(register, { page: 1, perpage: 1 }));
      const count = o.ok ? statedCount(register, o.value) : undefined;
      if (count !== undefined && count > 0) out.push({ register, count });
    }
    return out;
  })();
  const found = await discovered;
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
  if (!isArAp(register))
    expectRule(
      list.perpage === perpage,
      rule,
      () => `${register} page ${page}: asked perpage ${perpage}, <data perpage="${list.attrs.perpage}">`,
    );
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
      const o = await attempt(ctx.client.portal.list(register, { page, perpage }));
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
      expectRule(
        list.records.length <= perpage,
        'PORTAL.LIMITS.PAGE_SIZE',
        () => `${register} page ${page} with perpage=${perpage} holds ${list.records.length} records`,
      );
      checkDocumentedFields(register, list.records);
    },
    // every list register once (its shape rule and its fields rule), then random pages
    { numRuns: 15, examples: LIST_REGISTERS.map((r) => [r, 1, 20] as [ListRegister, number, number]) },
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
      await judgeQuiet(ctx, shapeRule(register), async () => {
        const first = await attempt(ctx.client.portal.list(register, { page: 1, perpage: 1 }));
        const count = first.ok ? statedCount(register, first.value) : undefined;
        if (count === undefined) return `${register} page 1 states no count: ${describeOutcome(first)}`;
        // about 1 to 12 pages: perpage from the generated seed, at least count / 12
        const perpage = Math.min(
          100,
          Math.max(Math.ceil(count / WALK_MAX_PAGES), 1 + (perpageSeed % Math.max(1, count))),
        );
        const pages = Math.max(1, Math.ceil(count / perpage));
        const walkTo = Math.min(pages + 1, WALK_MAX_PAGES + 1);
        const seen = new Map<string, number>();
        let total = 0;
        let keyless = 0;
        for (let page = 1; page <= walkTo; page++) {
          const o = await attempt(ctx.client.portal.list(register, { page, perpage }));
          if (!o.ok)
            return `${register} page ${page} of ${pages} (perpage ${perpage}) was refused: ${describeOutcome(o)}`;
          const list = o.value;
          const n = list.records.length;
          expectRule(
            n <= perpage,
            'PORTAL.LIMITS.PAGE_SIZE',
            () => `${register} page ${page}: ${n} records, perpage ${perpage}`,
          );
          const stated = statedCount(register, list);
          if (stated !== count) return `${register}: page 1 says ${count} records, page ${page} says ${stated}`;
          if (!isArAp(register) && list.totalpages !== pages)
            return `${register}: count ${count} with perpage ${perpage} makes ${pages} pages, <data totalpages="${list.attrs.totalpages}">`;
          const want = page < pages ? perpage : page === pages ? count - perpage * (pages - 1) : 0;
          if (n !== want)
            return `${register} page ${page} of ${pages} (count ${count}, perpage ${perpage}) holds ${n} records, expected ${want}`;
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
        if (pages <= WALK_MAX_PAGES && total !== count)
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
