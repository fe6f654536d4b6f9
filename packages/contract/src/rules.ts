import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { specsDir } from './paths.js';
import { compileRuleGlob } from './rules-glob.js';
import { headingSlug } from './rules-markdown.js';
import { parseRules } from './rules-parse.js';
import type { Rule, RuleId } from './rules-types.js';

export { RuleGlobError } from './rules-glob.js';
export { headingSlug } from './rules-markdown.js';
export { parseRules, RULE_ID_PATTERN, RuleCatalogueError } from './rules-parse.js';
export * from './rules-types.js';

/** Reads and checks specs/rules.yaml (or `file`). Throws a RuleCatalogueError naming the rule on a malformed entry. */
export function loadRules(file: string = join(specsDir, 'rules.yaml')): readonly Rule[] {
  return parseRules(readFileSync(file, 'utf8'), file);
}

/** The rule catalogue, in catalogue order (each document in its own order, REST first). */
export const rules: readonly Rule[] = loadRules();

const byId = new Map(rules.map((r) => [r.id, r]));

/** The rule with this id, or undefined. */
export function getRule(id: RuleId): Rule | undefined {
  return byId.get(id);
}

/**
 * The rules whose id matches `glob`, in catalogue order (`erpcert conform --only`).
 *
 * @remarks `*` spans dots (`PORTAL.*`, `REST.*.RANGE*`), `?` is one character, `,` separates
 * alternatives, case is ignored. Throws RuleGlobError for an unusable glob; an empty result is not an error.
 */
export function matchRules(glob: string, list: readonly Rule[] = rules): readonly Rule[] {
  const match = compileRuleGlob(glob);
  return list.filter((r) => match(r.id));
}

/** The `<API>.<AREA>` groups of `list`, in order of first appearance (for the report's per-area summary). */
export function ruleAreas(list: readonly Rule[] = rules): readonly string[] {
  return [...new Set(list.map((r) => r.area))];
}

/** The link to the rule's section in its document, GitHub style: `record-rest-api.md#4-endpoints`. */
export function docAnchor(rule: Pick<Rule, 'doc' | 'section'>): string {
  return `${rule.doc}#${headingSlug(rule.section)}`;
}
