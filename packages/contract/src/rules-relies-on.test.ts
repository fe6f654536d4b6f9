/**
 * `reliesOn:` of specs/rules.yaml (issue 28 "Causes before symptoms"), held to the docs like `covers:` is: a rule may
 * rely only on a behaviour its check's data can pass through (PASSABLE_BEHAVIOURS, recognised by the harness in the
 * requests it sends), and only where the docs make that behaviour produce what the rule is judged on.
 */
import { describe, expect, it } from 'vitest';
import { getRule, parseRules, RuleCatalogueError, rules } from './rules.js';
import { PASSABLE_BEHAVIOURS, type Rule } from './rules-types.js';

/** Operations that write or change a record (REST §4, portal §2 "Registers per operation" and §4). */
const WRITES = new Set([
  'create-form',
  'create-json',
  'update',
  'delete',
  'deleterow',
  'insertrow',
  'unokrecord',
  'copyrecord',
  'createslinvoicefromorder',
  'createsalesorderfromquotation',
  'createslinvoicefromquotation',
]);
/** Registers with lines (record-rest-api.md §2: "rows:" in the register table). */
const WITH_ROWS = new Set(['INVc', 'IVVc', 'VIVc', 'AccVc', 'ORVc', 'POVc', 'PUVc', 'QTVc', 'ExpVc', 'EmplVc', 'TRVc']);

const ops = (r: Rule) => r.appliesTo ?? ['(every)'];
const anyOp = (r: Rule, set: ReadonlySet<string>) => r.appliesTo === undefined || r.appliesTo.some((o) => set.has(o));

/**
 * What the docs make each behaviour produce, and so which rules can be judged on its output:
 * - set_row_field.<N> places the rows of a form POST or PATCH (§4 "Create records, form", "Update record"): rules
 *   judged on rows: of registers with lines, or of the form writes and the row operations;
 * - filter.<Field> finds the records a check reads back: rules judged on what a write did;
 * - set_field.OKFlag=1 on the POST makes a confirmed record (§3): rules judged on a confirmed record: unokrecord
 *   ("a record with OKFlag=1", portal §4 rule 6) and what the model does with one (update);
 * - unokrecord makes the record a draft again (portal §3): rules judged on what follows with that record: its
 *   update, its delete (drafts only), the feed that reports the change (list);
 * - rowindex 0 or more makes a trigger one of a row field (portal §2 "Field-trigger request body"): rules judged on
 *   what a row field's trigger answers (windowactions);
 * - sort names the field a range selects on (REST §4 "Query parameters": range "requires sort"): the range rules.
 */
const PRODUCES: Readonly<Record<(typeof PASSABLE_BEHAVIOURS)[number], (r: Rule) => boolean>> = {
  'REST.WRITE.FORM_ROW_INDEX': (r) =>
    (r.registers ?? []).some((g) => WITH_ROWS.has(g)) ||
    (r.appliesTo ?? []).some((o) => ['create-form', 'update', 'deleterow', 'insertrow'].includes(o)),
  'REST.QUERY.FILTER_EXACT': (r) => anyOp(r, WRITES),
  'REST.STATE.OKFLAG_CONFIRM_ON_POST': (r) => (r.appliesTo ?? []).some((o) => ['unokrecord', 'update'].includes(o)),
  'PORTAL.UNOK.TO_DRAFT': (r) => (r.appliesTo ?? []).some((o) => ['update', 'delete', 'list'].includes(o)),
  'PORTAL.TRIGGER.ROWINDEX': (r) => (r.appliesTo ?? []).includes('windowactions'),
  // "range | requires `sort`. Forms: ..." and "sort | field to sort by ... Required when `range` is used": the range
  // is read on the sort field, so only the range rules are judged on what sort produces
  'REST.QUERY.SORT_ASCENDING': (r) => (r.appliesTo ?? []).includes('list') && /^REST\.QUERY\.RANGE_/.test(r.id),
};

const links = rules.flatMap((r) => (r.reliesOn ?? []).map((c) => [r.id, c, r] as const));

describe('reliesOn: of specs/rules.yaml', () => {
  it('links the rules whose tests pass their data through another rule’s behaviour (issue 28)', () => {
    // the examples of the issue: rows written through the form POST; the model's record made a draft by unokrecord
    for (const id of [
      'REST.RECORD.ROW_TYPES',
      'REST.WRITE.CREATE_FORM',
      'REST.WRITE.CREDIT_INVOICE',
      'REST.WRITE.PURCHASE_INVOICE_VAT',
    ])
      expect(getRule(id)?.reliesOn, id).toContain('REST.WRITE.FORM_ROW_INDEX');
    expect(getRule('REST.WRITE.UPDATE_PATCH')?.reliesOn).toContain('PORTAL.UNOK.TO_DRAFT');
    // the row field triggers send their row through rowindex
    for (const id of [
      'PORTAL.TRIGGER.IVVC_ROW_SUM_FORMULA',
      'PORTAL.TRIGGER.ORVC_RECEPY',
      'PORTAL.TRIGGER.FIELDS_IVVC',
    ])
      expect(getRule(id)?.reliesOn, id).toContain('PORTAL.TRIGGER.ROWINDEX');
    expect(links.length).toBeGreaterThan(30);
  });

  it('names only behaviours a check’s data can pass through', () => {
    const other = links.filter(([, c]) => !(PASSABLE_BEHAVIOURS as readonly string[]).includes(c));
    expect(other.map(([r, c]) => `${r} -> ${c}`)).toEqual([]);
  });

  it('links a rule only to a behaviour whose output the docs make it judged on', () => {
    const wrong = links.filter(([, c, r]) => !PRODUCES[c as keyof typeof PRODUCES](r));
    expect(wrong.map(([id, c, r]) => `${id} (${ops(r).join(',')}) -> ${c}`)).toEqual([]);
  });

  it('is relied on only by rules that can FAIL (an unspecified rule never follows from anything)', () => {
    expect(links.filter(([, , r]) => r.standing === 'unspecified').map(([id]) => id)).toEqual([]);
  });

  const entry = (id: string, extra = '') =>
    `  - {id: ${id}, title: a rule of the test catalogue, doc: record-rest-api.md, section: Rules, quote: x, kind: semantic, standing: documented${extra}}`;
  it.each([
    ['an id that is no rule', [entry('REST.QUERY.A', ', reliesOn: [REST.QUERY.NOPE]')], 'no rule of the catalogue'],
    ['the rule itself', [entry('REST.QUERY.A', ', reliesOn: [REST.QUERY.A]')], 'names the rule itself'],
    [
      'a cycle',
      [entry('REST.QUERY.A', ', reliesOn: [REST.QUERY.B]'), entry('REST.QUERY.B', ', reliesOn: [REST.QUERY.A]')],
      'cycle: REST.QUERY.A -> REST.QUERY.B -> REST.QUERY.A',
    ],
    ['not a rule id', [entry('REST.QUERY.A', ', reliesOn: [lower.case]')], 'must be a rule id'],
  ])('parseRules refuses %s', (_what, entries, problem) => {
    const text = `rules:\n${entries.join('\n')}\n`;
    expect(() => parseRules(text)).toThrow(RuleCatalogueError);
    expect(() => parseRules(text)).toThrow(problem);
  });

  it('parseRules refuses a rule relied on that never FAILs (unspecified)', () => {
    const text = `rules:\n${entry('REST.QUERY.A', ', reliesOn: [REST.QUERY.X_NOT_SHOWN]')}\n  - {id: REST.QUERY.X_NOT_SHOWN, title: a rule of the test catalogue, doc: record-rest-api.md, section: Rules, quote: x not shown, kind: semantic, standing: unspecified}\n`;
    expect(() => parseRules(text)).toThrow('is unspecified and never FAILs');
  });

  it('parseRules keeps the links in order', () => {
    const text = `rules:\n${entry('REST.QUERY.A', ', reliesOn: [REST.QUERY.C, REST.QUERY.B]')}\n${entry('REST.QUERY.B')}\n${entry('REST.QUERY.C')}\n`;
    expect(parseRules(text)[0]!.reliesOn).toEqual(['REST.QUERY.C', 'REST.QUERY.B']);
  });
});
