import { behaviours, getRule } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import { behaviourGaps, behaviourMutants } from './behaviour-mutants.js';
import { operationRegisters, singleKey } from './behaviour-wire.js';
import { BEHAVIOUR_OPERATORS, type GeneratedMutant } from './generated-mutant.js';
import { sampleByOperator } from './sample.js';

const all = behaviourMutants();
const catalogue = behaviours();
/** The one rule a mutant breaks, or leaves undecided where the docs show no answer that could FAIL it. */
const ruleOf = (m: GeneratedMutant) => m.breaks[0] ?? m.undecided?.[0];
const of = (operator: string, rule: string) => all.filter((m) => m.operator === operator && ruleOf(m) === rule);

describe('the behaviour family', () => {
  it('has at least 200 mutants with unique ids, every operator among them', () => {
    expect(all.length).toBeGreaterThanOrEqual(200);
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    expect(new Set(all.map((m) => m.operator))).toEqual(new Set(BEHAVIOUR_OPERATORS));
  });

  it('names for every mutant one broken rule of the catalogue, documented or inferred and observable, and its area', () => {
    for (const m of all) {
      expect(m.family, m.id).toBe('behaviour');
      expect([...m.breaks, ...(m.undecided ?? [])], m.id).toHaveLength(1);
      const rule = getRule(ruleOf(m)!);
      expect(rule, m.id).toBeDefined();
      expect(rule!.standing, m.id).not.toBe('unspecified');
      expect(rule!.observable, m.id).toBe(true);
      expect(m.area, m.id).toBe(rule!.area);
      for (const also of m.alsoBreaks ?? []) expect(getRule(also), `${m.id} alsoBreaks ${also}`).toBeDefined();
    }
  });

  // each operator where it fits: the counts follow from specs/behaviours.yaml and the catalogue's registers
  it('ignores each documented parameter, per register where its rule names registers', () => {
    for (const p of catalogue.parameters) {
      const made = of('parameter-ignored', p.rule).filter((m) => m.id.includes(`:${p.operation}.${p.name}`));
      expect(made.length, `${p.rule} ${p.name}`).toBe(getRule(p.rule)!.registers?.length ?? 1);
    }
  });

  it('makes every write do nothing, per register of its operation', () => {
    for (const w of catalogue.writes) {
      const regs = getRule(w.rule)!.registers ?? operationRegisters(w.api, w.operation);
      const made = of('write-does-nothing', w.rule).filter((m) => m.id.includes(`:${w.operation}`));
      expect(made.length, `${w.operation}`).toBe(regs?.length ?? 1);
    }
  });

  it('spills every write that names a record or rows, both ways, where a neighbour can be found', () => {
    for (const w of catalogue.writes.filter((x) => x.names !== undefined)) {
      const regs = (getRule(w.rule)!.registers ?? operationRegisters(w.api, w.operation))?.filter(
        (r) => w.names !== 'record' || singleKey(r) !== undefined,
      );
      const made = [w.rule, w.neighbourBreaks]
        .flatMap((r) => (r === undefined ? [] : of('write-spills', r)))
        .filter((m) => m.id.includes(`:${w.operation}:`));
      expect(made.length, w.operation).toBe(2 * (regs?.length ?? 1));
    }
  });

  it('blames deleterow rows each taken one off on their numbering, as the hand-written deleterow-0-based', () => {
    const one = all.find(
      (m) => m.id === 'behaviour:write-spills:PORTAL.ROWS.DELETEROW_ROWS_1_BASED:deleterow:neighbour:IVVc',
    );
    expect(one?.breaks).toEqual(['PORTAL.ROWS.DELETEROW_ROWS_1_BASED']);
    expect(one?.alsoBreaks).toEqual(['PORTAL.ROWS.DELETEROW_REMOVES']);
    const more = all.find(
      (m) => m.id === 'behaviour:write-spills:PORTAL.ROWS.DELETEROW_REMOVES:deleterow:one-more:IVVc',
    );
    expect(more?.breaks).toEqual(['PORTAL.ROWS.DELETEROW_REMOVES']);
    expect(more?.alsoBreaks).toBeUndefined();
  });

  it('refuses every accepted request, loses every feed change, keeps every computed field per trigger', () => {
    for (const a of catalogue.accepts) expect(of('accepted-refused', a.rule).length, a.rule).toBeGreaterThan(0);
    expect(all.filter((m) => m.operator === 'accepted-refused')).toHaveLength(catalogue.accepts.length);
    expect(all.filter((m) => m.operator === 'feed-forgets')).toHaveLength(catalogue.feeds.length);
    expect(all.filter((m) => m.operator === 'decoy-used')).toHaveLength(catalogue.decoys.length);
    for (const c of catalogue.computed)
      expect(of('computed-kept', c.rule).filter((m) => m.id.includes(`:${c.register}.`)).length, c.rule).toBe(
        c.triggers.length,
      );
  });

  it('loses each transition where the proxy can express it, and lists where it cannot', () => {
    const unok = of('transition-lost', 'PORTAL.UNOK.TO_DRAFT').map((m) => m.id);
    // IVVc and ORVc have a REST key to set OKFlag back through; PlanAbsenceVc has none
    for (const r of ['IVVc', 'ORVc'])
      for (const v of ['not-made', 'undone'])
        expect(unok).toContain(`behaviour:transition-lost:PORTAL.UNOK.TO_DRAFT:unokrecord:${v}:${r}`);
    expect(unok.some((id) => id.endsWith('PlanAbsenceVc'))).toBe(false);
    const post = of('transition-lost', 'REST.STATE.OKFLAG_CONFIRM_ON_POST');
    expect(post).toHaveLength(getRule('REST.STATE.OKFLAG_CONFIRM_ON_POST')!.registers!.length);
    const gaps = behaviourGaps().map((g) => g.what);
    expect(gaps).toContain('PORTAL unokrecord of PlanAbsenceVc');
    expect(gaps).toContain('REST create-form OKFlag undone');
    // a documented parameter no rule states the effect of is a gap, not a mutant
    expect(gaps).toContain('PORTAL document language');
  });
});

describe('sampleByOperator', () => {
  const ids = (n: number, seed: number) => sampleByOperator(all, n, seed).map((m) => m.id);
  it('is the same for the same seed and differs for another', () => {
    expect(ids(40, 1)).toEqual(ids(40, 1));
    expect(ids(40, 1)).not.toEqual(ids(40, 2));
  });
  it('takes every operator in a sample of eight, and every operator and area in one of 200', () => {
    const ops = (ms: readonly GeneratedMutant[]) => new Set(ms.map((m) => m.operator));
    expect(ops(sampleByOperator(all, 8, 3))).toEqual(new Set(BEHAVIOUR_OPERATORS));
    for (const seed of [1, 2, 3]) {
      const s = sampleByOperator(all, 200, seed);
      expect(new Set(s.map((m) => m.id)).size).toBe(200);
      expect(ops(s)).toEqual(new Set(BEHAVIOUR_OPERATORS));
      expect(new Set(s.map((m) => m.area))).toEqual(new Set(all.map((m) => m.area)));
    }
  });
});
