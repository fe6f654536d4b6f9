import { getRule } from '@erpcert/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { DECISIVE_CASES } from './decisive-cases.js';
import { beginObservations, endObservations, observationRecords, observe } from './observations.js';
import { expectRule, needShape, violated } from './violation.js';

afterEach(() => endObservations());

const LIMIT = 'REST.QUERY.LIMIT'; // a limit rule: its checks must say whether they were decisive
const SHAPE = 'REST.ENVELOPE.RECORDS_ARRAY'; // a shape check: decisive on any body that exists

describe('observations count decisive ones apart', () => {
  it.each<[string, () => void, { decisive: Record<string, number>; undecided: Record<string, string> }]>([
    [
      'a limit check that says it reached a register bigger than the limit',
      () => expectRule(true, LIMIT, () => 'x', { decisive: true }),
      { decisive: { [LIMIT]: 1 }, undecided: {} },
    ],
    [
      'a limit check on a register no bigger than the limit, with what was missing',
      () => expectRule(true, LIMIT, () => 'x', { decisive: false, missing: 'CUVc holds 3 records, limit 5' }),
      { decisive: {}, undecided: { [LIMIT]: 'CUVc holds 3 records, limit 5' } },
    ],
    [
      'a limit check that says nothing is indecisive: parameters must state it',
      () => observe(LIMIT),
      { decisive: {}, undecided: { [LIMIT]: DECISIVE_CASES[LIMIT]! } },
    ],
    [
      'a failing check is decisive whatever it says: it saw the rule broken',
      () => {
        try {
          expectRule(false, LIMIT, () => 'got 6', { decisive: false, missing: 'x' });
        } catch {}
      },
      { decisive: { [LIMIT]: 1 }, undecided: {} },
    ],
    [
      'violated is decisive',
      () => {
        try {
          violated(LIMIT, 'got 6');
        } catch {}
      },
      { decisive: { [LIMIT]: 1 }, undecided: {} },
    ],
    [
      'a shape check that says nothing is decisive by default',
      () => needShape(SHAPE, true, () => 'x'),
      { decisive: { [SHAPE]: 1 }, undecided: {} },
    ],
  ])('%s', (_name, check, want) => {
    const records = observationRecords();
    beginObservations(records);
    check();
    expect({ decisive: records.decisive, undecided: records.undecided }).toEqual(want);
    expect(Object.values(records.counts).reduce((a, b) => a + b, 0)).toBe(1);
  });
});

describe('decisive-cases.ts is held to the catalogue', () => {
  it('names only documented or inferred rules of kind limit or semantic, or shape rules that name a parameter', () => {
    for (const [id, text] of Object.entries(DECISIVE_CASES)) {
      const rule = getRule(id);
      expect(rule, id).toBeDefined();
      expect(rule!.standing, id).not.toBe('unspecified');
      expect(['limit', 'semantic', 'shape'], id).toContain(rule!.kind);
      if (rule!.kind === 'shape') expect(rule!.title, id).toMatch(/takes|parameter/i);
      expect(text.length, id).toBeGreaterThan(10);
    }
  });
});
