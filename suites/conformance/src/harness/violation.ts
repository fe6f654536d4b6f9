/**
 * Typed failures of the conformance tests. A {@link ContractViolation} names the rule it breaks and quotes
 * its title from specs/rules.yaml, so a FAIL in the report reads in the docs' words.
 */
import { getRule } from '@erpcert/contract';

/** A rule id that specs/rules.yaml does not know: a defect of the suite, thrown when the test is collected. */
export class UnknownRuleError extends Error {
  override readonly name = 'UnknownRuleError';
  constructor(readonly rule: string) {
    super(`unknown rule id "${rule}": not in specs/rules.yaml (ids look like REST.QUERY.SORT_ASCENDING)`);
  }
}

/** Throws {@link UnknownRuleError} for an id the catalogue does not know. */
export function requireRule(rule: string): void {
  if (!getRule(rule)) throw new UnknownRuleError(rule);
}

/** The target broke a documented or inferred rule. `message` is `[RULE] title: what was seen`. */
export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
  readonly rule: string;
  readonly detail: string;

  constructor(rule: string, detail: string) {
    const title = getRule(rule)?.title;
    super(`[${rule}] ${title ?? '(rule not in the catalogue)'}: ${detail}`);
    this.rule = rule;
    this.detail = detail;
  }
}

/** Throws a {@link ContractViolation} of `rule`. */
export function violated(rule: string, detail: string): never {
  throw new ContractViolation(rule, detail);
}

/** Throws a {@link ContractViolation} of `rule` unless `condition` holds; `detail` is built only on failure. */
export function expectRule(condition: unknown, rule: string, detail: () => string): asserts condition {
  if (!condition) throw new ContractViolation(rule, detail());
}

/** A short, stable rendering of a value for messages (strings quoted, long values cut). */
export function show(value: unknown, max = 300): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
