import { afterEach, describe, expect, it } from 'vitest';
import { beginObservations, endObservations, observationRecords, observe } from './observations.js';
import { classifyFailure } from './rule-test.js';
import { ContractViolation, expectRule, needShape, PreconditionFailed, violated } from './violation.js';

afterEach(() => endObservations());

const LIMIT = 'REST.QUERY.LIMIT';
const SHAPE = 'REST.ENVELOPE.RECORDS_ARRAY';

describe('checks count observations, holding or not', () => {
  it.each<[string, () => void, Record<string, number>, string | undefined]>([
    ['expectRule that holds', () => expectRule(true, LIMIT, () => 'x'), { [LIMIT]: 1 }, undefined],
    ['expectRule that fails', () => expectRule(false, LIMIT, () => 'got 6'), { [LIMIT]: 1 }, 'ContractViolation'],
    ['violated', () => violated(LIMIT, 'got 6'), { [LIMIT]: 1 }, 'ContractViolation'],
    ['needShape that holds', () => needShape(SHAPE, true, () => 'x'), { [SHAPE]: 1 }, undefined],
    ['needShape that fails', () => needShape(SHAPE, false, () => 'no array'), { [SHAPE]: 1 }, 'PreconditionFailed'],
    ['observe n', () => observe(LIMIT, 3), { [LIMIT]: 3 }, undefined],
  ])('%s', (_name, check, want, thrown) => {
    const counts = observationRecords().counts;
    beginObservations({ counts: counts, decisive: {}, undecided: {} });
    let name: string | undefined;
    try {
      check();
    } catch (err) {
      name = (err as Error).name;
    }
    expect(counts).toEqual(want);
    expect(name).toBe(thrown);
  });

  it('outside a test nothing is counted and nothing breaks', () => {
    expect(() => expectRule(true, LIMIT, () => 'x')).not.toThrow();
  });

  it('a precondition is a ContractViolation of the shape rule, read as a precondition', () => {
    const err = new PreconditionFailed(SHAPE, 'no array');
    expect(err).toBeInstanceOf(ContractViolation);
    expect(err.message).toMatch(/^\[REST\.ENVELOPE\.RECORDS_ARRAY\] /);
    expect(classifyFailure(err, [])).toEqual({ kind: 'precondition', rules: [SHAPE] });
  });
});

describe('classifyFailure', () => {
  const fault = { rule: 'REST.ENVELOPE.FAILURE_XML_OR_JSON', detail: 'HTTP 500' };
  it.each<[string, unknown, (typeof fault)[], ReturnType<typeof classifyFailure>]>([
    ['a violation', new ContractViolation(LIMIT, 'x'), [], { kind: 'violation', rules: [LIMIT] }],
    [
      'a violation after a fault: the fault decides',
      new ContractViolation(LIMIT, 'x'),
      [fault],
      { kind: 'target-fault', rules: [fault.rule] },
    ],
    ['a TypeError', new TypeError('x'), [], { kind: 'defect', rules: [] }],
    ['a plain Error naming a rule in its text', new Error(`[${LIMIT}] x`), [], { kind: 'defect', rules: [] }],
    [
      'a fault without a rule',
      new Error('x'),
      [{ rule: null, detail: 'timeout' } as never],
      { kind: 'target-fault', rules: [] },
    ],
  ])('%s', (_name, err, faults, want) => {
    expect(classifyFailure(err, faults)).toEqual(want);
  });
});
