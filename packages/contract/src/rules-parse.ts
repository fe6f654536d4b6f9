import { BodyPathPatternError, compileCoverPattern } from './body-paths.js';
import {
  API_DOC,
  REST_OPERATIONS,
  RULE_DOCS,
  RULE_KINDS,
  RULE_STANDINGS,
  type Rule,
  type RuleApi,
  type RuleParamValue,
} from './rules-types.js';
import { parseYamlCached } from './yaml-cache.js';

/** A rule catalogue that cannot be used; names the file and, where there is one, the offending rule. */
export class RuleCatalogueError extends Error {
  override readonly name = 'RuleCatalogueError';
  constructor(
    readonly source: string,
    readonly ruleId: string | undefined,
    readonly problem: string,
  ) {
    super(`${source}: ${ruleId === undefined ? '' : `rule ${ruleId}: `}${problem}`);
  }
}

/** `<API>.<AREA>.<NAME>`: upper case letters, digits and `_`. */
export const RULE_ID_PATTERN = /^(REST|PORTAL)\.([A-Z][A-Z0-9_]*)\.([A-Z0-9][A-Z0-9_]*)$/;

const KEYS = new Set([
  'id',
  'title',
  'doc',
  'section',
  'quote',
  'kind',
  'standing',
  'inferredFrom',
  'observable',
  'why',
  'registers',
  'appliesTo',
  'params',
  'covers',
  'reliesOn',
]);
const REGISTER_NAME = /^[A-Za-z][A-Za-z0-9]*$/;
const PORTAL_OPERATION = /^[a-z]+$/;

type Raw = Record<string, unknown>;

function isRecord(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks one raw entry and builds the frozen rule; `fail` throws. */
function buildRule(raw: unknown, index: number, fail: (id: string | undefined, problem: string) => never): Rule {
  if (!isRecord(raw)) return fail(undefined, `entry ${index} is not a mapping`);
  const id = raw.id;
  if (typeof id !== 'string') return fail(undefined, `entry ${index} has no string id`);
  const bad = (problem: string): never => fail(id, problem);
  const m = RULE_ID_PATTERN.exec(id);
  if (!m) bad('id must be <REST|PORTAL>.<AREA>.<NAME> in upper case letters, digits and "_"');
  const api = m![1] as RuleApi;

  const unknown = Object.keys(raw).filter((k) => !KEYS.has(k));
  if (unknown.length > 0) bad(`unknown field(s) ${unknown.join(', ')}`);

  const text = (key: string, required: boolean): string | undefined => {
    const v = raw[key];
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string' || v.trim() === '') return bad(`${key} must be a non-empty string`);
    if (/[\r\n]/.test(v)) bad(`${key} must be one line`);
    return v;
  };
  const oneOf = <T extends string>(key: string, allowed: readonly T[]): T => {
    const v = raw[key];
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
      return bad(`${key} must be one of ${allowed.join(', ')} (got ${JSON.stringify(v)})`);
    }
    return v as T;
  };
  const names = (key: string, valid: (s: string) => boolean, what: string): readonly string[] | undefined => {
    const v = raw[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.length === 0) return bad(`${key} must be a non-empty list`);
    const wrong = v.find((x) => typeof x !== 'string' || !valid(x));
    if (wrong !== undefined) bad(`${key}: ${JSON.stringify(wrong)} is not ${what}`);
    if (new Set(v).size !== v.length) bad(`${key} repeats an entry`);
    return Object.freeze([...(v as string[])]);
  };

  const title = text('title', true)!;
  const doc = oneOf('doc', RULE_DOCS);
  if (doc !== API_DOC[api]) bad(`${api} rules come from ${API_DOC[api]}, not ${doc}`);
  const section = text('section', true)!;
  const quote = text('quote', true)!;
  const kind = oneOf('kind', RULE_KINDS);
  const standing = oneOf('standing', RULE_STANDINGS);

  const inferredFrom = text('inferredFrom', false);
  if (standing === 'inferred' && inferredFrom === undefined) bad('an inferred rule needs inferredFrom');
  if (standing !== 'inferred' && inferredFrom !== undefined) bad('inferredFrom belongs to inferred rules only');
  const unspecified = standing === 'unspecified';
  if (unspecified !== id.endsWith('_NOT_SHOWN')) bad('unspecified rules, and only they, end in _NOT_SHOWN');
  if (unspecified && !quote.includes('not shown')) bad('an unspecified rule must quote a "not shown" statement');

  const observable = raw.observable ?? true;
  if (typeof observable !== 'boolean') bad('observable must be true or false');
  const why = text('why', false);
  if (observable === false && why === undefined) bad('observable: false needs why');
  if (observable === true && why !== undefined) bad('why belongs to rules with observable: false');

  const registers = names('registers', (s) => REGISTER_NAME.test(s), 'a register name');
  const appliesTo = names(
    'appliesTo',
    api === 'REST' ? (s) => (REST_OPERATIONS as readonly string[]).includes(s) : (s) => PORTAL_OPERATION.test(s),
    api === 'REST' ? `one of ${REST_OPERATIONS.join(', ')}` : 'a lower-case action or sub-action name',
  );
  const params = raw.params === undefined ? undefined : buildParams(raw.params, bad);
  const covers = names('covers', (s) => isCoverPattern(s), 'a body path pattern (see the header of rules.yaml)');
  const reliesOn = names('reliesOn', (s) => RULE_ID_PATTERN.test(s), 'a rule id');
  if (reliesOn?.includes(id)) bad('reliesOn names the rule itself');

  return Object.freeze({
    id,
    api,
    area: `${api}.${m![2]}`,
    title,
    doc,
    section,
    quote,
    kind,
    standing,
    ...(inferredFrom === undefined ? {} : { inferredFrom }),
    observable: observable as boolean,
    ...(why === undefined ? {} : { why }),
    ...(registers === undefined ? {} : { registers }),
    ...(appliesTo === undefined ? {} : { appliesTo }),
    ...(params === undefined ? {} : { params }),
    ...(covers === undefined ? {} : { covers }),
    ...(reliesOn === undefined ? {} : { reliesOn }),
  });
}

function isCoverPattern(s: string): boolean {
  try {
    compileCoverPattern(s);
    return true;
  } catch (e) {
    if (e instanceof BodyPathPatternError) return false;
    throw e;
  }
}

function buildParams(v: unknown, bad: (problem: string) => never): Readonly<Record<string, RuleParamValue>> {
  if (!isRecord(v) || Object.keys(v).length === 0) return bad('params must be a non-empty mapping');
  const out: Record<string, RuleParamValue> = {};
  for (const [key, value] of Object.entries(v)) {
    const scalar = (x: unknown) => ['string', 'number', 'boolean'].includes(typeof x);
    if (scalar(value)) out[key] = value as string | number | boolean;
    else if (
      Array.isArray(value) &&
      (value.every((x) => typeof x === 'string') || value.every((x) => typeof x === 'number'))
    ) {
      out[key] = Object.freeze([...value]) as readonly string[] | readonly number[];
    } else bad(`params.${key} must be a string, number, boolean, or a list of only strings or only numbers`);
  }
  return Object.freeze(out);
}

/**
 * Parses and checks the text of a rule catalogue (the format of specs/rules.yaml).
 * Throws {@link RuleCatalogueError} naming the rule id on the first malformed entry or repeated id.
 */
export function parseRules(yamlText: string, source = 'rules.yaml'): readonly Rule[] {
  const fail = (id: string | undefined, problem: string): never => {
    throw new RuleCatalogueError(source, id, problem);
  };
  let doc: unknown;
  try {
    doc = parseYamlCached(yamlText);
  } catch (e) {
    return fail(undefined, `not valid YAML: ${(e as Error).message}`);
  }
  if (!isRecord(doc) || !Array.isArray(doc.rules)) return fail(undefined, 'no "rules" list at the top level');
  const seen = new Set<string>();
  const out = doc.rules.map((raw, i) => {
    const rule = buildRule(raw, i, fail);
    if (seen.has(rule.id)) fail(rule.id, 'id is used twice');
    seen.add(rule.id);
    return rule;
  });
  checkReliesOn(out, fail);
  return Object.freeze(out);
}

/**
 * `reliesOn:` across the catalogue: every id names a rule of it that can FAIL (documented or inferred, observable:
 * an unspecified rule never FAILs, so nothing can follow from it), and the links have no cycle (a cause cannot
 * follow from its own follower).
 */
function checkReliesOn(list: readonly Rule[], fail: (id: string | undefined, problem: string) => never): void {
  const byId = new Map(list.map((r) => [r.id, r]));
  for (const r of list) {
    for (const c of r.reliesOn ?? []) {
      const cause = byId.get(c);
      if (cause === undefined) fail(r.id, `reliesOn: ${c} is no rule of the catalogue`);
      if (cause!.standing === 'unspecified') fail(r.id, `reliesOn: ${c} is unspecified and never FAILs`);
      if (!cause!.observable) fail(r.id, `reliesOn: ${c} is not observable and never FAILs`);
    }
  }
  // depth-first over the links: a rule met again while still on the path closes a cycle
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string, path: readonly string[]): void => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'open')
      fail(id, `reliesOn makes a cycle: ${[...path.slice(path.indexOf(id)), id].join(' -> ')}`);
    state.set(id, 'open');
    for (const c of byId.get(id)?.reliesOn ?? []) visit(c, [...path, id]);
    state.set(id, 'done');
  };
  for (const r of list) visit(r.id, []);
}
