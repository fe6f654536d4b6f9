/**
 * The behaviour family of the self-test (issue 28): mutants generated from specs/behaviours.yaml, the catalogue of
 * what each operation does linked to the rule that states it. Every operator is applied to every entry of the kind
 * it fits, per register where the rule (or the operation's REGISTERS rule) names registers; each mutant breaks the
 * entry's rule. What an operator cannot express through the proxy is listed by {@link behaviourGaps}.
 */
import { type BehaviourCatalogue, behaviours, getRule, specOperations } from '@erpcert/contract';
import { acceptedRefused, computedKept, decoyUsed, feedForgets, parameterIgnored } from './behaviour-operators.js';
import { operationRegisters, singleKey } from './behaviour-wire.js';
import { transitionLost, writeDoesNothing, writeSpills } from './behaviour-writes.js';
import type { GeneratedMutant } from './generated-mutant.js';

/** The registers an entry is mutated on one by one: its rule's, else its operation's; undefined for all at once. */
function registersOf(entry: { api: 'REST' | 'PORTAL'; operation: string; rule: string }, perOperation: boolean) {
  const own = getRule(entry.rule)?.registers;
  if (own && own.length > 0) return own;
  return perOperation ? operationRegisters(entry.api, entry.operation) : undefined;
}

/** Every behaviour mutant of `catalogue`, in a stable order (operator by operator, entry by entry). */
export function behaviourMutants(catalogue: BehaviourCatalogue = behaviours()): GeneratedMutant[] {
  const out: GeneratedMutant[] = [];
  const each = <T>(list: readonly (T | undefined)[]) => {
    for (const m of list) if (m !== undefined) out.push(m as GeneratedMutant);
  };
  for (const p of catalogue.parameters) {
    const regs = registersOf(p, false);
    each(regs ? regs.map((r) => parameterIgnored(p, r)) : [parameterIgnored(p)]);
  }
  each(catalogue.decoys.map(decoyUsed));
  for (const w of catalogue.writes) {
    const regs = registersOf(w, true);
    each(regs ? regs.map((r) => writeDoesNothing(w, r)) : [writeDoesNothing(w)]);
  }
  for (const w of catalogue.writes) {
    if (w.names === undefined) continue;
    // a record's neighbour is found over REST: registers with one REST key field only
    const regs = registersOf(w, true)?.filter((r) => w.names !== 'record' || singleKey(r) !== undefined);
    for (const variant of ['one-more', 'neighbour'] as const)
      each(regs ? regs.map((r) => writeSpills(w, variant, r)) : [writeSpills(w, variant)]);
  }
  each(catalogue.accepts.map(acceptedRefused));
  each(catalogue.feeds.map(feedForgets));
  for (const t of catalogue.transitions) {
    const regs = (registersOf(t, true) ?? []).filter((r) => t.trigger !== undefined || singleKey(r) !== undefined);
    for (const variant of ['not-made', 'undone'] as const) each(regs.map((r) => transitionLost(t, variant, r)));
  }
  for (const c of catalogue.computed) each(c.triggers.map((tr) => computedKept(c, tr)));
  return out;
}

/**
 * What the family does not reach, with the reason: documented parameters of the OpenAPI operations that no entry
 * of specs/behaviours.yaml links to a rule, and operator fits the proxy cannot express.
 */
export function behaviourGaps(catalogue: BehaviourCatalogue = behaviours()): { what: string; reason: string }[] {
  const linked = new Set(
    catalogue.parameters.map((p) => `${p.api} ${p.operation} ${p.in === 'body' ? 'body:' : ''}${p.name}`),
  );
  const selectors = new Set(['action', 'register', 'regname', 'compcode', 'id']);
  const gaps: { what: string; reason: string }[] = [];
  for (const [op, params] of specOperations())
    for (const name of params)
      if (!selectors.has(name) && !linked.has(`${op} ${name}`))
        gaps.push({
          what: `${op} ${name}`,
          reason:
            'parameter-ignored: no rule of specs/rules.yaml states what it does (specs/behaviours.yaml links none)',
        });
  for (const t of catalogue.transitions) {
    const regs = registersOf(t, true) ?? [];
    if (t.trigger !== undefined)
      gaps.push({
        what: `${t.api} ${t.operation} ${t.field} undone`,
        reason: 'transition-lost undone: a confirmed record refuses every change, so no request can set it back',
      });
    else
      for (const r of regs.filter((x) => singleKey(x) === undefined))
        gaps.push({
          what: `${t.api} ${t.operation} of ${r}`,
          reason: 'transition-lost: the register has no REST key through which the proxy could set the field back',
        });
  }
  for (const w of catalogue.writes)
    if (w.names === 'record')
      for (const r of (registersOf(w, true) ?? []).filter((x) => singleKey(x) === undefined))
        gaps.push({
          what: `${w.api} ${w.operation} of ${r}`,
          reason:
            'write-spills: the register has no REST key through which the proxy could find the neighbouring record',
        });
  return gaps;
}
