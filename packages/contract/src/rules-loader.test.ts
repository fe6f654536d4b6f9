import { describe, expect, it } from 'vitest';
import {
  docAnchor,
  getRule,
  matchRules,
  parseRules,
  type Rule,
  RuleCatalogueError,
  RuleGlobError,
  ruleAreas,
  rules,
} from './rules.js';

/** One valid entry in YAML flow form, with `over` replacing or (with undefined) removing fields. */
function entry(over: Record<string, unknown> = {}): string {
  const base: Record<string, unknown> = {
    id: 'PORTAL.LOOKUP.CAP50',
    title: 'pastespecial returns at most 50 results',
    doc: 'portal-action-api.md',
    section: 'Operation rules',
    quote: 'at most 50 results are returned with no pagination',
    kind: 'limit',
    standing: 'documented',
    appliesTo: ['pastespecial'],
    params: { max: 50 },
  };
  const merged = Object.fromEntries(Object.entries({ ...base, ...over }).filter(([, v]) => v !== undefined));
  return JSON.stringify(merged);
}
const catalogue = (...entries: string[]) => `rules:\n${entries.map((e) => `  - ${e}`).join('\n')}\n`;

describe('parseRules', () => {
  it('builds a frozen rule with api, area and the default observable', () => {
    const [rule] = parseRules(catalogue(entry()));
    expect(rule).toEqual({
      id: 'PORTAL.LOOKUP.CAP50',
      api: 'PORTAL',
      area: 'PORTAL.LOOKUP',
      title: 'pastespecial returns at most 50 results',
      doc: 'portal-action-api.md',
      section: 'Operation rules',
      quote: 'at most 50 results are returned with no pagination',
      kind: 'limit',
      standing: 'documented',
      observable: true,
      appliesTo: ['pastespecial'],
      params: { max: 50 },
    });
    expect(Object.isFrozen(rule)).toBe(true);
    expect(Object.isFrozen(rule?.appliesTo)).toBe(true);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a lower-case id', { id: 'portal.lookup.cap50' }, 'id must be'],
    ['a two-part id', { id: 'PORTAL.CAP50' }, 'id must be'],
    ['an unknown API', { id: 'SOAP.LOOKUP.CAP50' }, 'id must be'],
    ['an unknown field', { inferedFrom: 'typo' }, 'unknown key "inferedFrom" in a rule: the keys are id, title, doc'],
    ['no title', { title: undefined }, 'a rule needs "title": one line: the behaviour as a checkable statement'],
    ['a two-line quote', { quote: 'a\nb' }, '"quote" must be one line of text, not empty (got "a\\nb")'],
    [
      'an unknown kind',
      { kind: 'speed' },
      '"kind" must be one of shape, semantic, limit, state, auth, performance (got "speed")',
    ],
    ['an unknown standing', { standing: 'assumed' }, '"standing" must be one of documented, inferred, unspecified'],
    ['a doc of the other API', { doc: 'record-rest-api.md' }, 'PORTAL rules come from portal-action-api.md'],
    [
      'an unknown doc',
      { doc: 'soap.md' },
      '"doc" must be one of record-rest-api.md, portal-action-api.md (got "soap.md")',
    ],
    ['inferred without inferredFrom', { standing: 'inferred' }, 'an inferred rule needs inferredFrom'],
    ['inferredFrom on a documented rule', { inferredFrom: 'something' }, 'inferredFrom belongs to inferred rules only'],
    ['unspecified without _NOT_SHOWN', { standing: 'unspecified', quote: 'x: not shown.' }, 'end in _NOT_SHOWN'],
    ['_NOT_SHOWN on a documented rule', { id: 'PORTAL.LOOKUP.CAP_NOT_SHOWN' }, 'end in _NOT_SHOWN'],
    [
      'unspecified quoting no "not shown"',
      { id: 'PORTAL.LOOKUP.X_NOT_SHOWN', standing: 'unspecified' },
      'must quote a "not shown" statement',
    ],
    ['observable: false without why', { observable: false }, 'observable: false needs why'],
    ['why on an observable rule', { why: 'because' }, 'why belongs to rules with observable: false'],
    ['a non-boolean observable', { observable: 'no' }, '"observable" must be true or false (got "no")'],
    ['an empty registers list', { registers: [] }, '"registers" is empty: list at least one'],
    [
      'a bad register name',
      { registers: ['IV Vc'] },
      'a register name is one word of letters and digits, as the docs spell it (got "IV Vc")',
    ],
    ['a repeated register', { registers: ['IVVc', 'IVVc'] }, '"registers" lists "IVVc" twice: give it once'],
    [
      'an upper-case portal operation',
      { appliesTo: ['PasteSpecial'] },
      'lower-case action or sub-action name (got "PasteSpecial")',
    ],
    [
      'a nested param',
      { params: { max: { value: 50 } } },
      '"max" must be a string, number, boolean, or a list of only strings or only numbers',
    ],
    [
      'a mixed param list',
      { params: { codes: [1, 'two'] } },
      '"codes" must be a string, number, boolean, or a list of only strings or only numbers',
    ],
    ['empty params', { params: {} }, '"params" is empty: give at least one key'],
  ])('rejects %s, naming the rule', (_what, over, problem) => {
    const id = typeof over.id === 'string' ? over.id : 'PORTAL.LOOKUP.CAP50';
    const run = () => parseRules(catalogue(entry(over)), 'fixture.yaml');
    expect(run).toThrow(RuleCatalogueError);
    expect(run).toThrow(`fixture.yaml:2: rule ${id}: `);
    expect(run).toThrow(problem);
  });

  it('rejects a REST operation outside the REST vocabulary', () => {
    const rest = entry({ id: 'REST.QUERY.LIMIT', doc: 'record-rest-api.md', appliesTo: ['pastespecial'] });
    expect(() => parseRules(catalogue(rest))).toThrow(
      'rules.yaml:2: rule REST.QUERY.LIMIT: item 1 of "appliesTo" must be one of root, list, create-form, create-json, update, get-by-key (got "pastespecial")',
    );
  });

  it('rejects an id used twice', () => {
    expect(() => parseRules(catalogue(entry(), entry()))).toThrow(
      'rules.yaml:3: rule PORTAL.LOOKUP.CAP50: id is used twice',
    );
  });

  it.each([
    ['text that is not YAML', 'rules: [', 'rules.yaml:1: not valid YAML'],
    [
      'a document without a rules list',
      'rule: []',
      'rules.yaml:1: unknown key "rule" in the file: the keys are source, rules',
    ],
    ['a document whose rules are no list', 'rules: {}', 'rules.yaml:1: "rules" must be a list (got a map)'],
    ['an entry without id', 'rules:\n  - {title: x}', 'rules.yaml:2: a rule needs "id": <API>.<AREA>.<NAME>'],
    [
      'an entry that is not a mapping',
      'rules:\n  - just text',
      'rules.yaml:2: a rule must be a map (key: value) with the keys id, title',
    ],
    [
      'a cover that is no pattern',
      `rules:\n  - ${entry({ covers: ['no colon'] })}`,
      'rules.yaml:2: rule PORTAL.LOOKUP.CAP50: covers: "no colon" is not a body path pattern',
    ],
  ])('rejects %s', (_what, text, problem) => {
    expect(() => parseRules(text)).toThrow(problem);
  });
});

describe('matchRules', () => {
  const fixture = parseRules(
    catalogue(
      entry(),
      entry({ id: 'PORTAL.LOOKUP.TERMS_AND' }),
      entry({ id: 'PORTAL.LIST.PERPAGE_1_100' }),
      entry({ id: 'REST.QUERY.RANGE_EXACT', doc: 'record-rest-api.md', appliesTo: ['list'] }),
      entry({ id: 'REST.QUERY.SORT_ASCENDING', doc: 'record-rest-api.md', appliesTo: ['list'] }),
      entry({ id: 'REST.SEQ.RANGE_X', doc: 'record-rest-api.md', appliesTo: ['list'] }),
    ),
  );
  it.each([
    ['PORTAL.LOOKUP.*', ['PORTAL.LOOKUP.CAP50', 'PORTAL.LOOKUP.TERMS_AND']],
    ['REST.*.RANGE*', ['REST.QUERY.RANGE_EXACT', 'REST.SEQ.RANGE_X']],
    ['PORTAL.*', ['PORTAL.LOOKUP.CAP50', 'PORTAL.LOOKUP.TERMS_AND', 'PORTAL.LIST.PERPAGE_1_100']],
    ['*', fixture.map((r) => r.id)],
    ['PORTAL.LOOKUP.CAP50', ['PORTAL.LOOKUP.CAP50']],
    ['portal.lookup.cap50', ['PORTAL.LOOKUP.CAP50']],
    ['PORTAL.LOOKUP.CAP5', []],
    ['PORTAL.LOOKUP.CAP5?', ['PORTAL.LOOKUP.CAP50']],
    ['PORTAL.L*', ['PORTAL.LOOKUP.CAP50', 'PORTAL.LOOKUP.TERMS_AND', 'PORTAL.LIST.PERPAGE_1_100']],
    ['PORTAL.LIST.*, REST.QUERY.SORT*', ['PORTAL.LIST.PERPAGE_1_100', 'REST.QUERY.SORT_ASCENDING']],
    ['PORTALXLOOKUP.CAP50', []],
    ['*.*.*_AND', ['PORTAL.LOOKUP.TERMS_AND']],
  ])('%s matches %j', (glob, want) => {
    expect(matchRules(glob, fixture).map((r) => r.id)).toEqual(want);
  });

  it.each([
    ['', 'empty pattern'],
    ['PORTAL.LOOKUP.*,', 'empty pattern'],
    ['PORTAL.(LOOKUP)', 'may hold only'],
    ['REST.QUERY.[A-Z]*', 'may hold only'],
  ])('rejects the glob %j', (glob, problem) => {
    expect(() => matchRules(glob, fixture)).toThrow(RuleGlobError);
    expect(() => matchRules(glob, fixture)).toThrow(problem);
  });

  it('finds the range rules and the lookup rules in the real catalogue', () => {
    expect(matchRules('REST.*.RANGE*').map((r) => r.id)).toEqual([
      'REST.QUERY.RANGE_REQUIRES_SORT',
      'REST.QUERY.RANGE_FROM_TO',
      'REST.QUERY.RANGE_FROM_OPEN',
      'REST.QUERY.RANGE_EXACT',
    ]);
    const lookup = matchRules('PORTAL.LOOKUP.*');
    expect(lookup.map((r) => r.id)).toContain('PORTAL.LOOKUP.CAP50');
    expect(lookup.every((r) => r.area === 'PORTAL.LOOKUP')).toBe(true);
  });
});

describe('getRule, ruleAreas, docAnchor', () => {
  it('gets a rule by id, and undefined for an unknown id', () => {
    expect(getRule('PORTAL.LOOKUP.CAP50')?.params).toEqual({ max: 50 });
    expect(getRule('PORTAL.LOOKUP.NOPE')).toBeUndefined();
  });

  it('lists areas in order of first appearance, once each', () => {
    const list = [
      { area: 'REST.QUERY' },
      { area: 'REST.SEQ' },
      { area: 'REST.QUERY' },
      { area: 'PORTAL.LOOKUP' },
    ] as unknown as Rule[];
    expect(ruleAreas(list)).toEqual(['REST.QUERY', 'REST.SEQ', 'PORTAL.LOOKUP']);
    const areas = ruleAreas();
    expect(new Set(areas).size).toBe(areas.length);
    expect(areas).toEqual(expect.arrayContaining(['REST.QUERY', 'REST.REGISTER', 'PORTAL.LOOKUP', 'PORTAL.TRIGGER']));
    expect(areas.every((a) => rules.some((r) => r.area === a))).toBe(true);
  });

  it.each([
    [{ doc: 'record-rest-api.md', section: '4. Endpoints' }, 'record-rest-api.md#4-endpoints'],
    [{ doc: 'record-rest-api.md', section: 'Row types (`stp`)' }, 'record-rest-api.md#row-types-stp'],
    [
      { doc: 'portal-action-api.md', section: 'Confirmation flag (`OKFlag`: 0 draft, 1 confirmed)' },
      'portal-action-api.md#confirmation-flag-okflag-0-draft-1-confirmed',
    ],
    [
      { doc: 'portal-action-api.md', section: 'Global parameters (valid on every action)' },
      'portal-action-api.md#global-parameters-valid-on-every-action',
    ],
  ] as const)('docAnchor(%j) is %s', (rule, want) => {
    expect(docAnchor(rule)).toBe(want);
  });
});
