import { describe, expect, it } from 'vitest';
import { exampleMember, GateBudget } from './gate-budget.js';

/**
 * Drives a budget through runs: `observes[i]` are the rules run i observes when it is spent. Returns which runs
 * were spent.
 */
function drive(
  rules: string[],
  examples: number,
  observes: string[][],
  options: { patience?: number; examplePatience?: number; patienceAfterExamples?: number } = {},
  failAt?: number,
  members: (string | undefined)[] = [],
): number[] {
  const counts: Record<string, number> = {};
  const budget = new GateBudget(rules, counts, examples, options);
  const spent: number[] = [];
  observes.forEach((rs, i) => {
    if (!budget.wanted(members[i])) return;
    spent.push(i);
    for (const r of rs) counts[r] = (counts[r] ?? 0) + 1;
    budget.ran(i === failAt);
  });
  return spent;
}

describe('GateBudget', () => {
  it('spends no run once every rule of the test is observed', () => {
    expect(drive(['A', 'B'], 0, [['A'], ['B'], ['A', 'B'], ['A']])).toEqual([0, 1]);
  });

  it('runs every example that still observes a new rule (one rule per register)', () => {
    const runs = [['R1'], ['R2'], ['R3'], ['R4'], ['R5']];
    expect(drive(['R1', 'R2', 'R3', 'R4', 'R5'], 5, runs)).toEqual([0, 1, 2, 3, 4]);
  });

  it('stops the examples after examplePatience in a row observe nothing new, and spends no generated run', () => {
    // rule B is named but never observed: without patience every run would be spent
    const runs = [['A'], ['A'], ['A'], ['A'], ['A'], ['A'], ['A'], ['A']];
    expect(drive(['A', 'B'], 6, runs, { examplePatience: 2, patience: 1 })).toEqual([0, 1, 2]);
  });

  it('after the examples, spends generated runs only as patienceAfterExamples allows', () => {
    const runs = [['A'], ['A'], ['A'], ['A'], ['A'], ['A'], ['A'], ['A']];
    const options = { examplePatience: 2, patience: 3, patienceAfterExamples: 1 };
    expect(drive(['A', 'B'], 6, runs, options)).toEqual([0, 1, 2, 6]);
  });

  it('stops generated runs after patience in a row observe nothing new', () => {
    const runs = [['A'], ['C'], ['A'], ['A'], ['A'], ['A']];
    expect(drive(['A', 'B'], 0, runs, { patience: 2 })).toEqual([0, 1, 2, 3]);
  });

  it('a generated run that observes a rule not seen before (any rule) restarts the patience', () => {
    const runs = [['A'], ['A'], ['X'], ['A'], ['A'], ['A']];
    expect(drive(['A', 'B'], 0, runs, { patience: 2 })).toEqual([0, 1, 2, 3, 4]);
  });

  it('after a failure every run is spent (fast-check shrinks by re-running)', () => {
    const runs = [['A'], ['A'], ['A'], ['A'], ['A']];
    expect(drive(['A'], 0, runs, {}, 0)).toEqual([0, 1, 2, 3, 4]);
  });

  it('spends every example of a member not spent before, even once every rule is observed', () => {
    // one rule, one example per searched field: a mutant that breaks field b is caught by b's example only
    const runs = [['A'], ['A'], ['A'], ['A'], ['A']];
    expect(drive(['A'], 5, runs, {}, undefined, ['f.a', 'f.b', 'f.a', 'f.c', undefined])).toEqual([0, 1, 3]);
  });

  it('a new member restarts the example patience; examples of a member already spent follow it', () => {
    const runs = [['A'], ['A'], ['A'], ['A'], ['A'], ['A']];
    const members = ['x', 'x', 'x', 'y', 'y', 'y'];
    expect(drive(['A', 'B'], 6, runs, { examplePatience: 1, patience: 1 }, undefined, members)).toEqual([0, 1, 3, 4]);
  });

  it('ignores the member of a generated run', () => {
    const runs = [['A'], ['A'], ['A'], ['A']];
    expect(drive(['A', 'B'], 0, runs, { patience: 1 }, undefined, ['x', 'y', 'z', 'w'])).toEqual([0, 1]);
  });
});

describe('exampleMember', () => {
  it.each([
    ['a member with its register', [{ register: 'INVc', member: 'Name', record: 0 }], 'INVc.Name'],
    ['a member alone', [1, { member: 'Code' }], 'Code'],
    ['a register of an argument', [{ register: 'CUVc', term: 'x' }, 2], 'CUVc'],
    [
      'a searched field of a register',
      [{ register: 'ARVc', record: {}, field: 'RefStr', upper: false }],
      'ARVc.RefStr',
    ],
    ['a field alone', [{ field: 'Width', width: 1.5 }], 'Width'],
    ['a first argument that is a string', ['IVVc', 0, false], 'IVVc'],
    ['a first argument that is a list of strings', [['ORVc', 'OrderType'], 'X1'], 'ORVc.OrderType'],
    ['nothing that names a member', [3, { stp: '1' }], undefined],
    ['a string that is not the first argument', [3, 'IVVc'], undefined],
  ])('%s', (_name, values, want) => {
    expect(exampleMember(values)).toBe(want);
  });
});
