import { BodyPathPatternError, compileCoverPattern } from './body-paths.js';
import type { Rule, RuleApi, RuleParamValue } from './rules-types.js';
import { parseYamlCached } from './yaml-cache.js';
import { readContractSchema, type YamlPath, yamlLineOf, yamlSchemaCheck } from './yaml-schema.js';

/** A rule catalogue that cannot be used; names the file, the line and, where there is one, the offending rule. */
export class RuleCatalogueError extends Error {
  override readonly name = 'RuleCatalogueError';
  constructor(
    readonly source: string,
    readonly ruleId: string | undefined,
    readonly problem: string,
    readonly line?: number,
  ) {
    super(
      `${source}${line === undefined ? '' : `:${line}`}: ${ruleId === undefined ? '' : `rule ${ruleId}: `}${problem}`,
    );
  }
}

/** `<API>.<AREA>.<NAME>`: upper case letters, digits and `_`. */
export const RULE_ID_PATTERN = /^(REST|PORTAL)\.([A-Z][A-Z0-9_]*)\.([A-Z0-9][A-Z0-9_]*)$/;

/** An entry as schemas/rules.schema.json holds it (checked before anything here reads it). */
type RawRule = Omit<Rule, 'api' | 'area' | 'observable'> & { readonly observable?: boolean };

const checkShape = yamlSchemaCheck(readContractSchema('rules.schema.json'));

const frozen = <T>(list: readonly T[] | undefined) => (list === undefined ? undefined : Object.freeze([...list]));

/** Builds the frozen rule of an entry the schema holds; the cover patterns are checked here. */
function buildRule(raw: RawRule, bad: (problem: string, path: YamlPath) => never): Rule {
  const m = RULE_ID_PATTERN.exec(raw.id)!;
  const api = m[1] as RuleApi;
  for (const [i, c] of (raw.covers ?? []).entries()) {
    try {
      compileCoverPattern(c);
    } catch (e) {
      if (!(e instanceof BodyPathPatternError)) throw e;
      bad(`covers: ${JSON.stringify(c)} is not a body path pattern (see the header of rules.yaml): ${e.message}`, [
        'covers',
        i,
      ]);
    }
  }
  const params =
    raw.params === undefined
      ? undefined
      : Object.freeze(
          Object.fromEntries(
            Object.entries(raw.params).map(([k, v]) => [k, Array.isArray(v) ? Object.freeze([...v]) : v]),
          ) as Record<string, RuleParamValue>,
        );
  const registers = frozen(raw.registers);
  const appliesTo = frozen(raw.appliesTo);
  const covers = frozen(raw.covers);
  const reliesOn = frozen(raw.reliesOn);
  if (reliesOn?.includes(raw.id)) bad('reliesOn names the rule itself', ['reliesOn']);
  return Object.freeze({
    id: raw.id,
    api,
    area: `${api}.${m[2]}`,
    title: raw.title,
    doc: raw.doc,
    section: raw.section,
    quote: raw.quote,
    kind: raw.kind,
    standing: raw.standing,
    ...(raw.inferredFrom === undefined ? {} : { inferredFrom: raw.inferredFrom }),
    observable: raw.observable ?? true,
    ...(raw.why === undefined ? {} : { why: raw.why }),
    ...(registers === undefined ? {} : { registers }),
    ...(appliesTo === undefined ? {} : { appliesTo }),
    ...(params === undefined ? {} : { params }),
    ...(covers === undefined ? {} : { covers }),
    ...(reliesOn === undefined ? {} : { reliesOn }),
  });
}

/**
 * Parses and checks the text of a rule catalogue (the format of specs/rules.yaml): its shape by
 * schemas/rules.schema.json, the cover patterns and the ids used once here. Throws {@link RuleCatalogueError}
 * naming the line and the rule id on the first malformed entry or repeated id.
 */
export function parseRules(yamlText: string, source = 'rules.yaml'): readonly Rule[] {
  let doc: unknown;
  try {
    doc = parseYamlCached(yamlText);
  } catch (e) {
    const line = (e as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    throw new RuleCatalogueError(source, undefined, `not valid YAML: ${(e as Error).message.split('\n')[0]}`, line);
  }
  const entries = (doc as { rules?: unknown[] } | null)?.rules;
  const idOf = (path: YamlPath): string | undefined => {
    const id =
      path[0] === 'rules' && Array.isArray(entries) ? (entries[Number(path[1])] as { id?: unknown })?.id : undefined;
    return typeof id === 'string' ? id : undefined;
  };
  const problem = checkShape(yamlText, doc);
  if (problem) throw new RuleCatalogueError(source, idOf(problem.path), problem.message, problem.line);
  const seen = new Set<string>();
  const out = (entries as RawRule[]).map((raw, i) => {
    const bad = (message: string, path: YamlPath): never => {
      throw new RuleCatalogueError(source, raw.id, message, yamlLineOf(yamlText, ['rules', i, ...path]));
    };
    const rule = buildRule(raw, bad);
    if (seen.has(rule.id)) bad('id is used twice', ['id']);
    seen.add(rule.id);
    return rule;
  });
  const indexOf = new Map(out.map((r, i) => [r.id, i]));
  checkReliesOn(out, (id, problem) => {
    const at = id === undefined ? undefined : indexOf.get(id);
    throw new RuleCatalogueError(
      source,
      id,
      problem,
      at === undefined ? undefined : yamlLineOf(yamlText, ['rules', at, 'reliesOn']),
    );
  });
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
