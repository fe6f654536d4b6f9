import type { RuleStanding } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import type { ConformanceMeta } from '../harness/meta.js';
import { combineVerdicts, type Profile, type TestOutcome, type Verdict, verdictsOf, violatedRules } from './verdict.js';

const standings: Record<string, RuleStanding> = { D: 'documented', I: 'inferred', U: 'unspecified' };
const standingOf = (rule: string) => standings[rule];

const failure = { message: 'page 2 holds 101 records', exchanges: [] };
const meta = (m: Partial<ConformanceMeta>): ConformanceMeta => ({ rules: ['D'], ...m });

describe('verdictsOf (the mapping of src/harness/meta.ts)', () => {
  const cases: [string, readonly string[], TestOutcome, Profile, (Verdict | null)[], string | undefined][] = [
    ['passed', ['D', 'I'], { state: 'passed', meta: meta({}), errors: [] }, 'full', ['PASS', 'PASS'], undefined],
    [
      'passed with an advisory in strict',
      ['U'],
      { state: 'passed', meta: meta({ advisory: 'differs' }), errors: [] },
      'strict',
      ['WARN'],
      'differs',
    ],
    [
      'passed with an advisory outside strict',
      ['U'],
      { state: 'passed', meta: meta({ advisory: 'differs' }), errors: [] },
      'full',
      ['PASS'],
      undefined,
    ],
    [
      'skipped with skipReason',
      ['D'],
      { state: 'skipped', meta: meta({ skipReason: 'no IVVc data' }), note: 'other', errors: [] },
      'full',
      ['SKIP'],
      'no IVVc data',
    ],
    [
      'skipped with only a note',
      ['D'],
      { state: 'skipped', note: 'readonly profile', errors: [] },
      'readonly',
      ['SKIP'],
      'readonly profile',
    ],
    [
      'failed, documented and inferred',
      ['D', 'I'],
      { state: 'failed', meta: meta({ failure }), errors: ['AssertionError'] },
      'full',
      ['FAIL', 'FAIL'],
      failure.message,
    ],
    [
      'failed, mixed with unspecified outside strict',
      ['D', 'U'],
      { state: 'failed', meta: meta({ failure }), errors: [] },
      'full',
      ['FAIL', null],
      failure.message,
    ],
    ['failed, only unspecified, full: never a FAIL', ['U'], { state: 'failed', errors: ['x'] }, 'full', [null], 'x'],
    ['failed, only unspecified, strict: WARN', ['U'], { state: 'failed', errors: ['x'] }, 'strict', ['WARN'], 'x'],
    [
      'failed without meta: the vitest error is the reason',
      ['D'],
      { state: 'failed', errors: ['expected 1 to be 2'] },
      'full',
      ['FAIL'],
      'expected 1 to be 2',
    ],
    [
      'a rule the catalogue does not know gets no verdict',
      ['D', 'X'],
      { state: 'passed', errors: [] },
      'full',
      ['PASS', null],
      undefined,
    ],
  ];
  it.each(cases)('%s', (_name, rules, outcome, profile, want, reason) => {
    const got = verdictsOf(rules, outcome, standingOf, profile);
    expect(got.verdicts.map((v) => v.verdict)).toEqual(want);
    expect(got.verdicts.map((v) => v.rule)).toEqual(rules);
    expect(got.reason).toBe(reason);
  });
});

describe('violatedRules', () => {
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
    [undefined, ['REST.QUERY.LIMIT'], []],
  ])('%s', (message, rules, want) => {
    expect(violatedRules(message, rules)).toEqual(want);
  });
});

describe('combineVerdicts', () => {
  it.each<[(Verdict | null)[], Verdict | null]>([
    [[], null],
    [[null, null], null],
    [['SKIP', 'PASS'], 'PASS'],
    [['PASS', 'WARN', 'SKIP'], 'WARN'],
    [['PASS', 'FAIL', 'WARN'], 'FAIL'],
    [['SKIP', null], 'SKIP'],
  ])('%j -> %s', (input, want) => {
    expect(combineVerdicts(input)).toBe(want);
  });
});
