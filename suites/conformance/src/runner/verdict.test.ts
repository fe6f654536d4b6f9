import type { RuleStanding } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import type { ConformanceMeta, FailureDetail, TargetFault } from '../harness/meta.js';
import {
  combineVerdicts,
  INDECISIVE,
  NOT_EXERCISED,
  namedRules,
  type Profile,
  type RuleVerdict,
  type TestOutcome,
  UNCONFIRMED,
  type Verdict,
  verdictsOf,
  violatedRules,
} from './verdict.js';

// D, E: documented; I: inferred; S: a shape rule; T: a transport rule; U: unspecified; X: unknown
const standings: Record<string, RuleStanding> = {
  'REST.A.D': 'documented',
  'REST.A.E': 'documented',
  'REST.A.I': 'inferred',
  'REST.A.S': 'documented',
  'REST.A.T': 'inferred',
  'REST.A.U': 'unspecified',
};
const standingOf = (rule: string) => standings[rule];
const [D, E, I, S, T, U, X] = ['REST.A.D', 'REST.A.E', 'REST.A.I', 'REST.A.S', 'REST.A.T', 'REST.A.U', 'REST.A.X'];

const observed = (...rules: string[]) => Object.fromEntries(rules.map((r) => [r, 2]));
const meta = (m: Partial<ConformanceMeta>): ConformanceMeta => ({ rules: [D], ...m });
const failure = (message: string, f: Partial<FailureDetail> = {}): FailureDetail => ({ message, exchanges: [], ...f });
const fault = (rule: string | null, detail = 'GET list X: HTTP 500: <html>'): TargetFault => ({ rule, detail });
const passed = (m: Partial<ConformanceMeta>): TestOutcome => ({ state: 'passed', meta: meta(m), errors: [] });
const failed = (m: Partial<ConformanceMeta>, errors: string[] = []): TestOutcome => ({
  state: 'failed',
  meta: meta(m),
  errors,
});

type Want = Record<string, Verdict | null>;

describe('verdictsOf (the mapping of src/harness/meta.ts)', () => {
  const cases: [string, readonly string[], TestOutcome, Profile, Want, string | undefined][] = [
    // passing: a PASS rests on an observation
    [
      'passed, every rule observed',
      [D, I],
      passed({ observations: observed(D, I) }),
      'full',
      { [D]: 'PASS', [I]: 'PASS' },
      undefined,
    ],
    [
      'passed, one rule never observed: SKIP',
      [D, I],
      passed({ observations: observed(D) }),
      'full',
      { [D]: 'PASS', [I]: 'SKIP' },
      undefined,
    ],
    [
      'passed without any observation (no harness meta)',
      [D],
      { state: 'passed', errors: [] },
      'full',
      { [D]: 'SKIP' },
      undefined,
    ],
    [
      'passed, an untagged rule observed holding PASSes too',
      [D],
      passed({ observations: observed(D, E) }),
      'full',
      { [D]: 'PASS', [E]: 'PASS' },
      undefined,
    ],
    [
      'passed, an unknown untagged rule observed gets nothing',
      [D],
      passed({ observations: observed(D, X) }),
      'full',
      { [D]: 'PASS' },
      undefined,
    ],
    [
      'passed with an advisory in strict',
      [U],
      passed({ rules: [U], advisory: 'differs', observations: observed(U) }),
      'strict',
      { [U]: 'WARN' },
      'differs',
    ],
    [
      'passed with an advisory outside strict',
      [U],
      passed({ rules: [U], advisory: 'differs', observations: observed(U) }),
      'full',
      { [U]: 'PASS' },
      undefined,
    ],
    // skipping
    [
      'skipped with skipReason',
      [D],
      { state: 'skipped', meta: meta({ skipReason: 'no IVVc data' }), note: 'other', errors: [] },
      'full',
      { [D]: 'SKIP' },
      'no IVVc data',
    ],
    [
      'skipped with only a note',
      [D],
      { state: 'skipped', note: 'readonly profile', errors: [] },
      'readonly',
      { [D]: 'SKIP' },
      'readonly profile',
    ],
    // blame only what was observed
    [
      'a violation FAILs its rule only, tagged or not (the INVC_FIELDS example)',
      [D, E, I],
      failed({
        failure: failure(`[${T}] t: INVc result lacks UPrice1`, { kind: 'violation', rules: [T] }),
        observations: observed(D, T),
      }),
      'full',
      { [T]: 'FAIL', [D]: null, [E]: null, [I]: null },
      `[${T}] t: INVc result lacks UPrice1`,
    ],
    [
      'a violation read from the message alone (no kind)',
      [D, E],
      failed({ failure: failure(`[${E}] t: broke`) }),
      'full',
      { [E]: 'FAIL', [D]: null },
      `[${E}] t: broke`,
    ],
    [
      "a violation named only in vitest's error",
      [D],
      { state: 'failed', errors: [`[${I}] t: broke`] },
      'full',
      { [I]: 'FAIL', [D]: null },
      `[${I}] t: broke`,
    ],
    [
      'a violation of an unspecified rule: nothing outside strict',
      [D, U],
      failed({ failure: failure(`[${U}] u`, { kind: 'violation', rules: [U] }) }),
      'full',
      { [U]: null, [D]: null },
      `[${U}] u`,
    ],
    [
      'a violation of an unspecified rule: WARN in strict',
      [U],
      failed({ rules: [U], failure: failure(`[${U}] u`, { kind: 'violation', rules: [U] }) }),
      'strict',
      { [U]: 'WARN' },
      `[${U}] u`,
    ],
    // no rule named: a defect, ERROR never FAIL
    [
      'a plain assertion error: ERROR',
      [D, I],
      failed({ failure: failure('expected 1 to be 2', { kind: 'defect', rules: [] }) }),
      'full',
      { [D]: 'ERROR', [I]: 'ERROR' },
      'expected 1 to be 2',
    ],
    [
      "a TypeError without meta: ERROR with vitest's message",
      [D],
      { state: 'failed', errors: ["TypeError: cannot read 'x'"] },
      'full',
      { [D]: 'ERROR' },
      "TypeError: cannot read 'x'",
    ],
    [
      'a defect of an unspecified rule: never ERROR',
      [D, U],
      failed({ failure: failure('boom') }),
      'full',
      { [D]: 'ERROR', [U]: null },
      'boom',
    ],
    [
      'a rule id the catalogue does not know blames nothing: a defect',
      [D],
      failed({ failure: failure(`[${X}] x`, { kind: 'violation', rules: [X] }) }),
      'full',
      { [D]: 'ERROR' },
      `[${X}] x`,
    ],
    [
      'a rule the catalogue does not know gets no verdict',
      [D, X],
      passed({ observations: observed(D, X) }),
      'full',
      { [D]: 'PASS', [X]: null },
      undefined,
    ],
    // a precondition is not a verdict
    [
      'a precondition FAILs the shape rule once and gives the others ERROR',
      [D, I],
      failed({ failure: failure(`[${S}] s: no records array`, { kind: 'precondition', rules: [S] }) }),
      'full',
      { [S]: 'FAIL', [D]: 'ERROR', [I]: 'ERROR' },
      `[${S}] s: no records array`,
    ],
    [
      'a precondition on a tagged shape rule: FAIL, not ERROR',
      [S, D],
      failed({ failure: failure(`[${S}] s`, { kind: 'precondition', rules: [S] }) }),
      'full',
      { [S]: 'FAIL', [D]: 'ERROR' },
      `[${S}] s`,
    ],
    // target faults: the transport rule FAILs, the cut-short rules ERROR
    [
      'a 5xx cut the test short',
      [D, I],
      failed({ failure: failure('HTTP 500', { kind: 'target-fault', rules: [T] }), faults: [fault(T)] }),
      'full',
      { [T]: 'FAIL', [D]: 'ERROR', [I]: 'ERROR' },
      'HTTP 500',
    ],
    [
      'a timeout: no rule to blame, ERROR',
      [D],
      failed({
        failure: failure('transport timeout', { kind: 'target-fault', rules: [] }),
        faults: [fault(null, 'no answer')],
      }),
      'full',
      { [D]: 'ERROR' },
      'transport timeout',
    ],
    [
      'a passed test that tolerated a 5xx: its rules PASS, the transport rule FAILs',
      [D],
      passed({ observations: observed(D), faults: [fault(T)] }),
      'full',
      { [D]: 'PASS', [T]: 'FAIL' },
      undefined,
    ],
    [
      'a skipped test whose target faulted: ERROR, not SKIP',
      [D],
      { state: 'skipped', meta: meta({ skipReason: 'no data', faults: [fault(T)] }), errors: [] },
      'full',
      { [D]: 'ERROR', [T]: 'FAIL' },
      'the target faulted before the test could judge: GET list X: HTTP 500: <html> (skip: no data)',
    ],
  ];
  it.each(cases)('%s', (_name, rules, outcome, profile, want, reason) => {
    const got = verdictsOf(rules, outcome, standingOf, profile);
    expect(Object.fromEntries(got.verdicts.map((v) => [v.rule, v.verdict]))).toEqual(want);
    expect(got.verdicts).toHaveLength(Object.keys(want).length);
    expect(got.reason).toBe(reason);
  });

  it('a rule not exercised says so, and a transport FAIL carries the fault', () => {
    const got = verdictsOf([D, I], passed({ observations: observed(D), faults: [fault(T)] }), standingOf, 'full');
    expect(got.verdicts).toEqual<RuleVerdict[]>([
      { rule: D, verdict: 'PASS' },
      { rule: I, verdict: 'SKIP', reason: NOT_EXERCISED },
      { rule: T, verdict: 'FAIL', reason: 'GET list X: HTTP 500: <html>' },
    ]);
  });
});

describe('preconditions first: cases left without a verdict', () => {
  it('a rule no case judged SKIPs with the unconfirmed reason; a rule judged elsewhere in the test still PASSes', () => {
    const got = verdictsOf(
      [D, I],
      passed({
        observations: observed(D),
        unconfirmed: { [D]: 'the delete changed nothing', [I]: 'the read misreports stp' },
      }),
      standingOf,
      'full',
    );
    expect(got.verdicts).toEqual<RuleVerdict[]>([
      { rule: D, verdict: 'PASS' },
      { rule: I, verdict: 'SKIP', reason: `${UNCONFIRMED}: the read misreports stp` },
    ]);
  });
});

describe('namedRules and violatedRules', () => {
  it.each<[string | undefined, string[], string[]]>([
    [
      '[REST.QUERY.LIMIT] limit=N returns at most N records: got 6',
      ['REST.QUERY.LIMIT', 'REST.QUERY.OFFSET'],
      ['REST.QUERY.LIMIT'],
    ],
    [
      '[rest.query.limit, REST.QUERY.OFFSET] both',
      ['REST.QUERY.LIMIT', 'REST.QUERY.OFFSET'],
      ['REST.QUERY.LIMIT', 'REST.QUERY.OFFSET'],
    ],
    ['expected 1 to be 2', ['REST.QUERY.LIMIT'], []],
    ['see [REST.QUERY.LIMIT] later', ['REST.QUERY.LIMIT'], []],
    ['[0] is not an id', ['REST.QUERY.LIMIT'], []],
    [undefined, ['REST.QUERY.LIMIT'], []],
  ])('%s', (message, rules, want) => {
    expect(violatedRules(message, rules)).toEqual(want);
  });

  it('names rules outside the given ones', () => {
    expect(namedRules('[PORTAL.LOOKUP.INVC_FIELDS] t: INVc result lacks UPrice1')).toEqual([
      'PORTAL.LOOKUP.INVC_FIELDS',
    ]);
    expect(violatedRules('[PORTAL.LOOKUP.INVC_FIELDS] t', ['PORTAL.LOOKUP.CAP50'])).toEqual([]);
  });
});

describe('combineVerdicts: FAIL > ERROR > WARN > PASS > SKIP', () => {
  it.each<[(Verdict | null)[], Verdict | null]>([
    [[], null],
    [[null, null], null],
    [['SKIP', 'PASS'], 'PASS'],
    [['PASS', 'WARN', 'SKIP'], 'WARN'],
    [['PASS', 'FAIL', 'WARN'], 'FAIL'],
    [['PASS', 'ERROR'], 'ERROR'],
    [['ERROR', 'WARN', 'SKIP'], 'ERROR'],
    [['ERROR', 'FAIL'], 'FAIL'],
    [['SKIP', null], 'SKIP'],
  ])('%j -> %s', (input, want) => {
    expect(combineVerdicts(input)).toBe(want);
  });
});

describe('every PASS could have failed: decisive observations (issue 28)', () => {
  it.each<[string, Partial<ConformanceMeta>, RuleVerdict[]]>([
    [
      'observed only where a right and a wrong server answer alike: SKIP with what was missing',
      { observations: observed(D), decisive: {}, undecided: { [D]: 'no column held more cards than maxsize 1' } },
      [{ rule: D, verdict: 'SKIP', reason: `${INDECISIVE}: no column held more cards than maxsize 1` }],
    ],
    [
      'one decisive observation among indecisive ones: PASS',
      { observations: observed(D), decisive: { [D]: 1 }, undecided: { [D]: 'a filter every record passes' } },
      [{ rule: D, verdict: 'PASS' }],
    ],
    [
      'observations that stated nothing (a shape check): PASS',
      { observations: observed(D), decisive: observed(D), undecided: {} },
      [{ rule: D, verdict: 'PASS' }],
    ],
    [
      'an untagged rule observed only indecisively: SKIP, never PASS',
      {
        observations: observed(D, E),
        decisive: observed(D),
        undecided: { [E]: 'records on one side of the filter only' },
      },
      [
        { rule: D, verdict: 'PASS' },
        { rule: E, verdict: 'SKIP', reason: `${INDECISIVE}: records on one side of the filter only` },
      ],
    ],
  ])('%s', (_name, m, want) => {
    expect(verdictsOf([D], passed(m), standingOf, 'full').verdicts).toEqual(want);
  });

  it('combined over tests, a decisive PASS in one test wins over the indecisive SKIP of another', () => {
    expect(combineVerdicts(['SKIP', 'PASS'])).toBe('PASS');
  });
});

describe('a refusal is a FAIL of the rule that allows the request', () => {
  it('a RequestRefused of the allowing rule FAILs that rule, not the rule the test is tagged with', () => {
    const got = verdictsOf(
      [D],
      failed({
        failure: failure(`[${E}] title: JSON POST: the docs accept this request; the target refused it: HTTP 400`, {
          kind: 'violation',
          rules: [E],
        }),
      }),
      standingOf,
      'full',
    );
    expect(got.verdicts).toEqual<RuleVerdict[]>([
      { rule: E, verdict: 'FAIL' },
      { rule: D, verdict: null },
    ]);
  });
});
