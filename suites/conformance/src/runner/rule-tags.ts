/**
 * Rule ids in test names. Every conformance test is named `[RULE.ID, RULE.ID] what it checks`
 * (issue 5 "Run mechanics": every test names its rule ids); the runner selects tests by these ids
 * (`erpcert conform --only`) before they run, and reads them back from `task.meta.erpcert.rules` after.
 */

import { escapeRegExp } from '@erpcert/contract/text';

/** One rule id as it may appear in a name: `<API>.<AREA>.<NAME>` (specs/rules.yaml "Id scheme"). */
const ID_IN_NAME = /(?:REST|PORTAL)\.[A-Z0-9_]+\.[A-Z0-9_]+/gi;

/** The bracketed prefix of a test name, e.g. `[REST.QUERY.SORT_ASC, REST.QUERY.RANGE]`. */
const PREFIX = /^\s*\[([^\]]*)\]/;

/** The rule ids of a test name's `[...]` prefix, upper-cased, in order, without duplicates; empty without one. */
export function rulesInName(name: string): string[] {
  const prefix = PREFIX.exec(name);
  if (!prefix) return [];
  const ids = (prefix[1]!.match(ID_IN_NAME) ?? []).map((id) => id.toUpperCase());
  return [...new Set(ids)];
}

/**
 * A vitest `testNamePattern` that keeps the tests tagged with any of `ruleIds`, and the tests whose name
 * carries no rule id at all (their rules are known only from `task.meta.erpcert` once they ran; the
 * runner drops them afterwards when those are outside the selection).
 *
 * @remarks vitest matches the pattern against the full name (suite names and test name joined by spaces),
 * so the pattern looks for a bracket group anywhere in it; ids match case-insensitively and whole
 * (`REST.QUERY.SORT` does not select `REST.QUERY.SORT_ASC`).
 */
export function namePatternFor(ruleIds: readonly string[]): RegExp {
  if (ruleIds.length === 0) return /(?!)/; // nothing selected: match no test
  const ids = ruleIds.map(escapeRegExp).join('|');
  const tagged = `\\[[^\\]]*(?<![A-Za-z0-9_.])(?:${ids})(?![A-Za-z0-9_.])[^\\]]*\\]`;
  const untagged = `^(?![\\s\\S]*\\[[^\\]]*(?:REST|PORTAL)\\.[A-Za-z0-9_]+\\.[A-Za-z0-9_]+)`;
  return new RegExp(`${tagged}|${untagged}`, 'i');
}
