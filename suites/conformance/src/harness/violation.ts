/**
 * Typed failures of the conformance tests. A {@link ContractViolation} names the rule it breaks and quotes
 * its title from specs/rules.yaml, so a FAIL in the report reads in the docs' words; a
 * {@link PreconditionFailed} says that an answer lacked the shape a behaviour check needed. Every check
 * here counts one observation of its rule (observations.ts), whether it holds or not.
 */
import { getRule } from '@erpcert/contract';
import { type Decisiveness, observe } from './observations.js';

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
  override readonly name: string = 'ContractViolation';
  readonly rule: string;
  readonly detail: string;

  constructor(rule: string, detail: string) {
    const title = getRule(rule)?.title;
    super(`[${rule}] ${title ?? '(rule not in the catalogue)'}: ${detail}`);
    this.rule = rule;
    this.detail = detail;
  }
}

/** Throws a {@link ContractViolation} of `rule` (one observation of it: it was seen broken). */
export function violated(rule: string, detail: string): never {
  observe(rule, 1, { decisive: true });
  throw new ContractViolation(rule, detail);
}

/**
 * Throws a {@link ContractViolation} of `rule` unless `condition` holds; `detail` is built only on failure.
 * Counts one observation of `rule` either way: call it where the condition was computed from target data.
 * `how` says whether the data reached the case that separates a right server from a wrong one
 * (observations.ts); the checks of parameters, filters, limits and caps (decisive-cases.ts) must say. A check
 * that fails is decisive whatever it says: it saw the rule broken.
 */
export function expectRule(
  condition: unknown,
  rule: string,
  detail: () => string,
  how?: Decisiveness,
): asserts condition {
  if (!condition) {
    observe(rule, 1, { decisive: true });
    throw new ContractViolation(rule, detail());
  }
  observe(rule, 1, how);
}

/**
 * An answer lacked the shape a behaviour check needed: its shape rule FAILs (once, by this error) and the
 * test's other rules get ERROR, not FAIL: their behaviour could not be judged.
 */
export class PreconditionFailed extends ContractViolation {
  override readonly name = 'PreconditionFailed';
}

/**
 * The precondition of a behaviour check: the answer has the shape that `rule` (a shape rule) describes.
 * Counts one observation of `rule`; when `condition` is false, throws {@link PreconditionFailed}, which FAILs
 * `rule` and gives the test's other rules ERROR. `detail` is built only on failure.
 */
export function needShape(rule: string, condition: unknown, detail: () => string): asserts condition {
  observe(rule, 1, condition ? undefined : { decisive: true });
  if (!condition) throw new PreconditionFailed(rule, detail());
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
