import type { ResultsDocument } from '@erpcert/runs';
import { validateResults } from '@erpcert/runs';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from './runner.js';
import { sampleResults, testEvent } from './testing.js';

const start: RunEvent = { type: 'run-start', at: '2025-03-01T10:00:00.000Z', files: ['f.prop.ts'] };
const end: RunEvent = { type: 'run-end', at: '2025-03-01T10:00:01.000Z', reason: 'passed', errors: [] };
const pass = (rule: string) => testEvent({ rules: [rule], state: 'passed', verdicts: [{ rule, verdict: 'PASS' }] });
const fail = (rule: string) =>
  testEvent({ rules: [rule], state: 'failed', verdicts: [{ rule, verdict: 'FAIL' }], reason: 'broken' });
const skip = (rule: string) =>
  testEvent({ rules: [rule], state: 'skipped', verdicts: [{ rule, verdict: 'SKIP' }], reason: 'no data' });

const error = (rule: string) =>
  testEvent({ rules: [rule], state: 'failed', verdicts: [{ rule, verdict: 'ERROR' }], reason: 'TypeError: x' });

const verdict = (doc: ResultsDocument, id: string) => doc.rules.find((r) => r.id === id)?.verdict;

describe('ResultsCollector', () => {
  it.each<[string, RunEvent[], 0 | 1 | 2, Record<string, string>]>([
    ['no test at all: every rule not judged, exit 0', [start, end], 0, { 'REST.QUERY.LIMIT': 'NONE' }],
    ['a PASS', [start, pass('REST.QUERY.LIMIT'), end], 0, { 'REST.QUERY.LIMIT': 'PASS' }],
    ['a FAIL exits 1', [start, fail('REST.QUERY.LIMIT'), end], 1, { 'REST.QUERY.LIMIT': 'FAIL' }],
    ['an ERROR exits 1 like a FAIL', [start, error('REST.QUERY.LIMIT'), end], 1, { 'REST.QUERY.LIMIT': 'ERROR' }],
    [
      'ERROR and PASS of one rule: ERROR',
      [start, pass('REST.QUERY.LIMIT'), error('REST.QUERY.LIMIT'), end],
      1,
      { 'REST.QUERY.LIMIT': 'ERROR' },
    ],
    [
      'ERROR and FAIL of one rule: FAIL',
      [start, error('REST.QUERY.LIMIT'), fail('REST.QUERY.LIMIT'), end],
      1,
      { 'REST.QUERY.LIMIT': 'FAIL' },
    ],
    [
      'SKIP and PASS of one rule: PASS',
      [start, skip('REST.QUERY.LIMIT'), pass('REST.QUERY.LIMIT'), end],
      0,
      { 'REST.QUERY.LIMIT': 'PASS' },
    ],
    [
      'PASS and FAIL of one rule: FAIL',
      [start, pass('REST.QUERY.LIMIT'), fail('REST.QUERY.LIMIT'), end],
      1,
      { 'REST.QUERY.LIMIT': 'FAIL' },
    ],
    [
      'a test file that did not load: exit 2 even with a FAIL',
      [start, fail('REST.QUERY.LIMIT'), { type: 'module-end', file: 'g.prop.ts', errors: ['SyntaxError: x'] }, end],
      2,
      { 'REST.QUERY.LIMIT': 'FAIL' },
    ],
    [
      'vitest never reported the end: exit 0 but a problem',
      [start, pass('REST.QUERY.LIMIT')],
      0,
      { 'REST.QUERY.LIMIT': 'PASS' },
    ],
  ])('%s', (_name, events, exitCode, want) => {
    const doc = sampleResults({ events, scope: 'REST.QUERY.*' });
    expect(doc.run.exitCode).toBe(exitCode);
    for (const [id, v] of Object.entries(want)) expect(verdict(doc, id)).toBe(v);
    expect(validateResults(doc).errors).toEqual([]);
  });

  it('throttled answers: summed over the tests into run.throttling; absent when the target throttled none', () => {
    const a = testEvent({
      rules: ['REST.QUERY.LIMIT'],
      state: 'passed',
      verdicts: [{ rule: 'REST.QUERY.LIMIT', verdict: 'PASS' }],
      throttling: { retried: 2, waitedMs: 3000, gaveUp: 0 },
    });
    const b = testEvent({
      rules: ['REST.QUERY.OFFSET'],
      state: 'failed',
      verdicts: [{ rule: 'REST.QUERY.OFFSET', verdict: 'ERROR' }],
      throttling: { retried: 3, waitedMs: 3000, gaveUp: 1 },
    });
    const doc = sampleResults({ events: [start, a, b, end], scope: 'REST.QUERY.*' });
    expect(doc.run.throttling).toEqual({ retried: 5, waitedMs: 6000, gaveUp: 1 });
    expect(validateResults(doc).errors).toEqual([]);
    const quiet = sampleResults({ events: [start, pass('REST.QUERY.LIMIT'), end], scope: 'REST.QUERY.*' });
    expect(quiet.run).not.toHaveProperty('throttling');
    expect(validateResults(quiet).errors).toEqual([]);
  });

  it('counts per area and in total agree with the rule verdicts', () => {
    const doc = sampleResults();
    expect(doc.areas.map((a) => a.area)).toEqual(['REST.QUERY', 'REST.ERRORS']);
    const q = doc.areas[0]!;
    expect([q.PASS, q.FAIL, q.ERROR, q.WARN, q.SKIP]).toEqual([1, 1, 1, 0, 1]);
    expect(q.rules).toBe(doc.rules.filter((r) => r.area === 'REST.QUERY').length);
    expect(doc.totals).toMatchObject({ PASS: 1, FAIL: 1, ERROR: 1, WARN: 1, SKIP: 1, rules: doc.rules.length });
    expect(doc.totals.NONE).toBe(doc.rules.length - 5);
  });

  it('observations: summed per rule over every test, tagged or not; a rule never observed counts 0', () => {
    const a = testEvent({
      rules: ['REST.QUERY.LIMIT'],
      state: 'passed',
      verdicts: [{ rule: 'REST.QUERY.LIMIT', verdict: 'PASS' }],
      observations: { 'REST.QUERY.LIMIT': 3, 'REST.QUERY.OFFSET': 1 },
    });
    const b = testEvent({
      rules: ['REST.QUERY.OFFSET'],
      state: 'passed',
      verdicts: [{ rule: 'REST.QUERY.OFFSET', verdict: 'SKIP', reason: 'not exercised: no check' }],
      observations: { 'REST.QUERY.LIMIT': 2 },
    });
    const doc = sampleResults({ events: [start, a, b, end], scope: 'REST.QUERY.*' });
    const rule = (id: string) => doc.rules.find((r) => r.id === id)!;
    expect(rule('REST.QUERY.LIMIT')).toMatchObject({ verdict: 'PASS', observations: 5 });
    // the verdict's own reason, not the test's
    expect(rule('REST.QUERY.OFFSET')).toMatchObject({
      verdict: 'SKIP',
      observations: 1,
      reason: 'not exercised: no check',
    });
    expect(rule('REST.QUERY.SORT_ASCENDING').observations).toBe(0);
    expect(doc.tests[0]!.observations).toEqual({ 'REST.QUERY.LIMIT': 3, 'REST.QUERY.OFFSET': 1 });
    expect(validateResults(doc).errors).toEqual([]);
  });

  it('a transport FAIL carries its fault and exchange; the cut-short rules an ERROR entry', () => {
    const exchange = {
      request: { method: 'GET', url: 'https://erp.example.com/api/1/IVVc?compcode=1', headers: {} },
      response: { status: 500, headers: { 'content-type': 'text/html' }, body: '<html>oops</html>' },
    };
    const t = testEvent({
      rules: ['REST.QUERY.LIMIT'],
      state: 'failed',
      verdicts: [
        { rule: 'REST.QUERY.LIMIT', verdict: 'ERROR' },
        { rule: 'REST.ENVELOPE.FAILURE_XML_OR_JSON', verdict: 'FAIL', reason: 'GET list IVVc: HTTP 500' },
      ],
      reason: 'HttpStatusError: list IVVc: HTTP 500: <html>oops</html>',
      faults: [{ rule: 'REST.ENVELOPE.FAILURE_XML_OR_JSON', detail: 'GET list IVVc: HTTP 500', exchange }],
      failure: {
        message: 'HttpStatusError: list IVVc: HTTP 500',
        kind: 'target-fault',
        rules: [],
        exchanges: [exchange],
      },
    });
    const doc = sampleResults({ events: [start, t, end], scope: 'REST.QUERY.*' });
    expect(doc.failures.map((f) => [f.verdict, f.rules, f.message])).toEqual([
      ['FAIL', ['REST.ENVELOPE.FAILURE_XML_OR_JSON'], 'GET list IVVc: HTTP 500'],
      ['ERROR', ['REST.QUERY.LIMIT'], 'HttpStatusError: list IVVc: HTTP 500: <html>oops</html>'],
    ]);
    expect(doc.failures[0]!.exchanges).toEqual([exchange]);
    expect(doc.failures[0]!.curl).toMatch(/^curl /);
    // the transport rule lies outside the selection: a FAIL is never dropped
    const transport = doc.rules.find((r) => r.id === 'REST.ENVELOPE.FAILURE_XML_OR_JSON')!;
    expect(transport).toMatchObject({ verdict: 'FAIL', failures: [0], reason: 'GET list IVVc: HTTP 500' });
    expect(doc.rules.find((r) => r.id === 'REST.QUERY.LIMIT')).toMatchObject({ verdict: 'ERROR', failures: [1] });
    expect(doc.run).toMatchObject({ exitCode: 1, outcome: 'fail' });
    expect(validateResults(doc).errors).toEqual([]);
  });

  it('a failure links to its rule, with replay command and curl line', () => {
    const doc = sampleResults();
    const rule = doc.rules.find((r) => r.id === 'REST.QUERY.FILTER_AND')!;
    expect(rule.failures).toEqual([0]);
    expect(doc.failures[0]).toMatchObject({
      verdict: 'FAIL',
      rules: ['REST.QUERY.FILTER_AND'],
      seed: -1_234_567,
      path: '3:1:0',
      replay: 'erpcert conform --user ci --only REST.QUERY.FILTER_AND --seed -1234567 --path 3:1:0',
    });
    expect(doc.failures[0]!.curl).toMatch(/^curl -sS -i 'https:\/\/erp\.example\.com\/api\/1\/IVVc\?/);
  });

  it('coverage: a test outside the selection still counts as a test of its rule', () => {
    const other = testEvent({ rules: ['REST.QUERY.OFFSET'], state: 'skipped', verdicts: [], selected: false });
    const doc = sampleResults({ events: [start, pass('REST.QUERY.LIMIT'), other, end], scope: 'REST.QUERY.*' });
    expect(doc.rules.find((r) => r.id === 'REST.QUERY.OFFSET')).toMatchObject({
      tested: true,
      verdict: 'NONE',
      tests: [],
    });
    expect(doc.coverage.documented.withTests).toEqual(['REST.QUERY.LIMIT', 'REST.QUERY.OFFSET']);
    expect(doc.coverage.documented.withoutTests).toContain('REST.QUERY.SORT_ASCENDING');
    expect(doc.tests.map((t) => t.rules)).toEqual([['REST.QUERY.LIMIT']]);
  });

  it('a FAIL a selected test found outside the selection is reported, not dropped', () => {
    const both = testEvent({
      rules: ['REST.QUERY.LIMIT', 'REST.QUERY.FIELDS'],
      state: 'failed',
      verdicts: [
        { rule: 'REST.QUERY.LIMIT', verdict: null },
        { rule: 'REST.QUERY.FIELDS', verdict: 'FAIL' },
      ],
      reason: '[REST.QUERY.FIELDS] fields: got more',
    });
    const doc = sampleResults({ events: [start, both, end], scope: 'REST.QUERY.LIMIT' });
    expect(doc.rules.map((r) => [r.id, r.verdict])).toEqual([
      ['REST.QUERY.LIMIT', 'NONE'],
      ['REST.QUERY.FIELDS', 'FAIL'],
    ]);
    expect(doc.run.exitCode).toBe(1);
    expect(validateResults(doc).errors).toEqual([]);
  });

  it('lists untagged tests and unknown rule ids as problems', () => {
    const untagged = testEvent({ rules: [], state: 'passed', verdicts: [], name: 'no ids', fullName: 'x > no ids' });
    const unknown = testEvent({
      rules: ['REST.QUERY.NOPE'],
      state: 'passed',
      verdicts: [{ rule: 'REST.QUERY.NOPE', verdict: null }],
    });
    const doc = sampleResults({ events: [start, untagged, unknown, end], scope: 'REST.QUERY.*' });
    expect(doc.problems).toEqual([
      'properties/rest/query.prop.ts > x > no ids: names no rule id, its outcome counts for nothing',
      'properties/rest/query.prop.ts: unknown rule id REST.QUERY.NOPE',
    ]);
    expect(doc.run.exitCode).toBe(0);
  });
});

describe('causes before symptoms (issue 28): causedBy', () => {
  const ROWS = 'REST.WRITE.FORM_ROW_INDEX';
  const CREDIT = 'REST.WRITE.CREDIT_INVOICE';
  const failing = (rule: string, through: string[] | undefined, name = 'x') =>
    testEvent({
      rules: [rule],
      name: `[${rule}] ${name}`,
      fullName: `w > [${rule}] ${name}`,
      state: 'failed',
      verdicts: [{ rule, verdict: 'FAIL' }],
      reason: `[${rule}] broken`,
      failure: {
        message: `[${rule}] broken`,
        exchanges: [],
        kind: 'violation',
        rules: [rule],
        ...(through ? { through } : {}),
      },
    });
  const build = (...events: RunEvent[]) => sampleResults({ events: [start, ...events, end], scope: 'REST.WRITE.*' });
  const rule = (doc: ResultsDocument, id: string) => doc.rules.find((r) => r.id === id)!;

  it.each<[string, RunEvent[], readonly string[] | null]>([
    [
      'a FAIL whose failing run wrote its rows through the broken form POST follows from FORM_ROW_INDEX',
      [failing(ROWS, [ROWS]), failing(CREDIT, [ROWS, 'REST.QUERY.FILTER_EXACT'])],
      [ROWS],
    ],
    [
      'no row went through the form POST: a cause of its own',
      [failing(ROWS, [ROWS]), failing(CREDIT, undefined)],
      null,
    ],
    [
      'the rows went through the form POST, which held: a cause of its own',
      [pass(ROWS), failing(CREDIT, [ROWS])],
      null,
    ],
    [
      'one FAIL follows, another does not: a cause of its own',
      [failing(ROWS, [ROWS]), failing(CREDIT, [ROWS], 'a'), failing(CREDIT, undefined, 'b')],
      null,
    ],
    [
      'a behaviour the rule does not rely on FAILed: a cause of its own',
      [failing('REST.STATE.OKFLAG_CONFIRM_ON_POST', undefined), failing(CREDIT, ['REST.STATE.OKFLAG_CONFIRM_ON_POST'])],
      null,
    ],
  ])('%s', (_name, events, want) => {
    const doc = build(...events);
    expect(rule(doc, CREDIT).verdict).toBe('FAIL');
    expect(rule(doc, CREDIT).causedBy ?? null).toEqual(want);
    expect(rule(doc, ROWS).causedBy ?? null).toBeNull();
    // a follower is still a FAIL: the exit code does not change
    expect(doc.run.exitCode).toBe(1);
    expect(doc.totals.following).toBe(want === null ? 0 : 1);
    expect(validateResults(doc).errors).toEqual([]);
  });

  it('a failure entry says what its own failing run followed from, whatever the rule is overall', () => {
    const doc = build(failing(ROWS, [ROWS]), failing(CREDIT, [ROWS], 'a'), failing(CREDIT, undefined, 'b'));
    const entries = doc.failures.filter((f) => f.rules.includes(CREDIT));
    expect(entries.map((f) => [f.test.split(' > ').at(-1), f.causedBy])).toEqual([
      [`[${CREDIT}] a`, [ROWS]],
      [`[${CREDIT}] b`, null],
    ]);
  });

  it('counts causes and followers apart in the area and in the totals', () => {
    const doc = build(failing(ROWS, [ROWS]), failing(CREDIT, [ROWS]), failing('REST.WRITE.CREATE_FORM', [ROWS]));
    expect(doc.totals).toMatchObject({ FAIL: 3, following: 2 });
    expect(doc.areas.find((a) => a.area === 'REST.WRITE')).toMatchObject({ FAIL: 3, following: 2 });
    expect(doc.failures.filter((f) => f.causedBy?.includes(ROWS)).map((f) => f.rules[0])).toEqual([
      CREDIT,
      'REST.WRITE.CREATE_FORM',
    ]);
  });
});
