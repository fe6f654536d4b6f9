import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INDECISIVE } from '../reports/runner.js';
import {
  detectionReport,
  judgeMutant,
  type MutantRun,
  outcomeLine,
  selectionOf,
  totalsLines,
  verdictsOf,
  writeDetection,
} from './detection.js';
import type { Mutant } from './proxy.js';

const mutant: Mutant = { id: 'm', description: 'd', breaks: ['REST.QUERY.LIMIT', 'REST.QUERY.OFFSET'] };
const run = (seed: number, failed: string[], extra: Partial<MutantRun> = {}): MutantRun => ({
  seed,
  exitCode: failed.length > 0 ? 1 : 0,
  failed: [...failed].sort(),
  errored: [],
  untested: [],
  proxyHits: { requests: 1, responses: 0 },
  durationMs: 10,
  problems: [],
  ...extra,
});
const selected = new Set(['REST.QUERY.LIMIT', 'REST.QUERY.OFFSET', 'REST.QUERY.FIELDS']);
const both = ['REST.QUERY.LIMIT', 'REST.QUERY.OFFSET'];

describe('judgeMutant', () => {
  it.each<[string, MutantRun[], { caught: boolean; precise: boolean; repeatable: boolean }]>([
    [
      'every seed FAILs exactly its rules',
      [run(1, both), run(2, both), run(3, both)],
      { caught: true, precise: true, repeatable: true },
    ],
    [
      'one seed misses a rule',
      [run(1, both), run(2, ['REST.QUERY.LIMIT'])],
      { caught: false, precise: true, repeatable: false },
    ],
    [
      'a rule that is not its own FAILs (in the selection)',
      [run(1, [...both, 'REST.QUERY.FIELDS']), run(2, [...both, 'REST.QUERY.FIELDS'])],
      { caught: true, precise: false, repeatable: true },
    ],
    [
      'a rule outside the selection FAILs too',
      [run(1, [...both, 'PORTAL.LIST.ORDER']), run(2, [...both, 'PORTAL.LIST.ORDER'])],
      { caught: true, precise: false, repeatable: true },
    ],
    [
      'ERRORs do not count against precision',
      [run(1, both, { errored: ['REST.QUERY.FIELDS'] }), run(2, both)],
      { caught: true, precise: true, repeatable: true },
    ],
    ['nothing FAILs', [run(1, []), run(2, [])], { caught: false, precise: false, repeatable: true }],
    ['one run only: repeatability is unknown', [run(1, both)], { caught: true, precise: true, repeatable: false }],
    [
      'a FAIL that follows from its broken rule in every run is no precision miss (issue 28)',
      [
        run(1, [...both, 'REST.QUERY.FIELDS'], { causedBy: { 'REST.QUERY.FIELDS': ['REST.QUERY.LIMIT'] } }),
        run(2, [...both, 'REST.QUERY.FIELDS'], { causedBy: { 'REST.QUERY.FIELDS': ['REST.QUERY.LIMIT'] } }),
      ],
      { caught: true, precise: true, repeatable: true },
    ],
    [
      'a FAIL that follows from its broken rule in one run only, and on its own in another, is a miss',
      [
        run(1, [...both, 'REST.QUERY.FIELDS'], { causedBy: { 'REST.QUERY.FIELDS': ['REST.QUERY.LIMIT'] } }),
        run(2, [...both, 'REST.QUERY.FIELDS']),
      ],
      { caught: true, precise: false, repeatable: true },
    ],
    [
      'a FAIL that follows from a rule the mutant does not break is a miss',
      [run(1, [...both, 'REST.QUERY.FIELDS'], { causedBy: { 'REST.QUERY.FIELDS': ['REST.QUERY.SORT_ASCENDING'] } })],
      { caught: true, precise: false, repeatable: false },
    ],
  ])('%s', (_name, runs, want) => {
    const o = judgeMutant(mutant, runs, selected);
    expect({ caught: o.caught, precise: o.precise, repeatable: o.repeatable }).toEqual(want);
    expect(o.status).toBe('judged');
  });

  it.each<[string, MutantRun[], { caught: boolean; precise: boolean }]>([
    [
      'no run FAILs anything',
      [run(1, []), run(2, [], { errored: ['REST.QUERY.LIMIT'] })],
      { caught: true, precise: false },
    ],
    ['one run FAILs a rule', [run(1, []), run(2, ['REST.QUERY.LIMIT'])], { caught: false, precise: false }],
  ])('a harmless mutant (a throttling server) is caught when %s', (_name, runs, want) => {
    const harmless: Mutant = { id: 'h', description: 'd', breaks: [], harmless: true, select: 'REST.QUERY.*' };
    const o = judgeMutant(harmless, runs, selected);
    expect({ caught: o.caught, precise: o.precise }).toEqual(want);
  });

  it('tells collateral FAILs inside the selection from those outside it, and lists ERRORs', () => {
    const o = judgeMutant(
      mutant,
      [run(1, [...both, 'REST.QUERY.FIELDS', 'PORTAL.LIST.ORDER'], { errored: ['REST.SEQ.HEADER'] })],
      selected,
    );
    expect(o.collateral).toEqual({ inSelection: ['REST.QUERY.FIELDS'], outside: ['PORTAL.LIST.ORDER'] });
    expect(o.errored).toEqual(['REST.SEQ.HEADER']);
  });

  it('a run that did not complete (exit 2) makes the mutant an error, not caught', () => {
    const o = judgeMutant(mutant, [run(1, both), run(2, [], { exitCode: 2, problems: ['boom'] })], selected);
    expect([o.status, o.caught, o.precise, o.repeatable]).toEqual(['error', false, false, false]);
    expect(o.problems).toContain('boom');
  });

  it('a broken rule that no test names makes the mutant uncovered', () => {
    const o = judgeMutant(
      mutant,
      [run(1, ['REST.QUERY.LIMIT'], { untested: ['REST.QUERY.OFFSET', 'X.Y.Z'] })],
      selected,
    );
    expect(o.status).toBe('uncovered');
    expect(o.problems).toEqual(['no test of the suite names REST.QUERY.OFFSET']);
    expect(o.runs[0]!.untested).toEqual(['REST.QUERY.OFFSET']);
  });

  it('a rule the harness judges on every answer is judged although no test names it', () => {
    const rule = 'PORTAL.ERRORS.FAILURE_FORM';
    const central = { ...mutant, breaks: [rule] };
    const caught = judgeMutant(central, [run(1, [rule], { untested: [rule] })], selected);
    expect(caught.status).toBe('judged');
    expect(caught.caught).toBe(true);
    const missed = judgeMutant(central, [run(1, [], { untested: [rule] })], selected);
    expect(missed.status).toBe('judged');
    expect(missed.caught).toBe(false);
  });
});

describe('the figures', () => {
  const judged = (id: string, runs: MutantRun[]) => judgeMutant({ ...mutant, id }, runs, selected);
  const report = detectionReport(
    new Date('2025-03-01T10:00:00Z'),
    [1, 2],
    { select: 'REST.QUERY.*', runs: [run(1, []), run(2, [])] },
    [
      judged('a', [run(1, both), run(2, both)]),
      judged('b', [run(1, [...both, 'REST.QUERY.FIELDS']), run(2, both)]),
      judged('c', [run(1, []), run(2, [])]),
      judgeMutant({ ...mutant, id: 'd' }, [], new Set(), 'needs', ['needs conform --other-compcode']),
    ],
    new Date('2025-03-01T10:05:00Z'),
  );

  it('detection over all mutants, precision over those that FAILed anything, repeatability over those that ran', () => {
    expect(report.detection).toMatchObject({ count: 2, of: 4, rate: 0.5, met: false });
    expect(report.precision).toMatchObject({ count: 1, of: 2, rate: 0.5, met: false });
    expect(report.repeatability).toMatchObject({ count: 2, of: 3, met: false });
    expect(report.baseline.clean).toBe(true);
  });

  it('of the mutants that FAILed anything: the right rule FAILed, and a rule outside it FAILed (issue 18)', () => {
    // a and b both FAILed LIMIT and OFFSET, the rules they break; b also FAILed FIELDS in its first run
    expect(report.rightRule).toMatchObject({ count: 2, of: 2, rate: 1, met: true });
    expect(report.outside).toMatchObject({ count: 1, of: 2, rate: 0.5, met: false });
  });

  it('counts the FAILs that follow from the broken rule apart from those outside it (issue 28)', () => {
    const follower = judgeMutant(
      { ...mutant, id: 'f' },
      [run(1, [...both, 'REST.QUERY.FIELDS'], { causedBy: { 'REST.QUERY.FIELDS': ['REST.QUERY.OFFSET'] } })],
      selected,
    );
    const outsider = judgeMutant({ ...mutant, id: 'g' }, [run(1, [...both, 'REST.QUERY.FIELDS'])], selected);
    const r = detectionReport(new Date(), [1], { select: 'X', runs: [run(1, [])] }, [follower, outsider]);
    expect(follower.following).toEqual(['REST.QUERY.FIELDS']);
    expect(r.outside).toMatchObject({ count: 1, of: 2 });
    expect(r.following).toEqual({ count: 1, of: 2 });
    expect(outcomeLine(follower)).toContain('following from it (causedBy): REST.QUERY.FIELDS');
    expect(totalsLines(r)).toContain(
      'following:     1/2 of them also FAILed rules that follow from the broken one (causedBy; not counted as outside)',
    );
  });

  it('prints the three totals and the baseline', () => {
    expect(totalsLines(report)).toEqual([
      'detection:     2/4 (50.0%, target 98%)  NOT MET',
      'precision:     1/2 (50.0%, target 95%)  NOT MET',
      'repeatability: 2/3 (66.7%, target 100%)  NOT MET',
      'right rule:    2/2 (100.0%, target 98%) of the mutants that FAILed anything FAILed every rule they break',
      'outside:       1/2 (50.0%, target at most 3%)  NOT MET of them FAILed a rule that is neither one they break nor caused by it',
      'baseline (no mutant, seeds 1, 2, profile full): no FAIL',
    ]);
  });

  it('with one seed repeatability is not measured: no mutant counts, and the line says why', () => {
    const one = detectionReport(new Date(), [1], { select: 'X', runs: [run(1, [])] }, [
      judgeMutant({ ...mutant, id: 'e' }, [run(1, both)], selected),
    ]);
    expect(one.repeatability).toMatchObject({ count: 0, of: 0 });
    expect(totalsLines(one)[2]).toBe('repeatability: not measured (one seed: give --seeds 3)');
    expect(outcomeLine(one.mutants[0]!)).toBe('e: caught, precise, one seed; FAIL REST.QUERY.LIMIT REST.QUERY.OFFSET');
  });

  it('a baseline with a FAIL is not clean and names the rule', () => {
    const r = detectionReport(new Date(), [1], { select: 'X', runs: [run(1, ['REST.QUERY.LIMIT'])] }, []);
    expect(r.baseline.clean).toBe(false);
    expect(totalsLines(r).at(-1)).toBe('baseline (no mutant, seeds 1, profile full): FAIL REST.QUERY.LIMIT');
  });

  it('one line per mutant says what was wrong', () => {
    const [, b, c, d] = report.mutants;
    expect(outcomeLine(b!)).toBe(
      'b: caught, IMPRECISE, NOT REPEATABLE; FAIL REST.QUERY.FIELDS REST.QUERY.LIMIT REST.QUERY.OFFSET; ' +
        'not its own: REST.QUERY.FIELDS; per seed: 1=[REST.QUERY.FIELDS REST.QUERY.LIMIT REST.QUERY.OFFSET] ' +
        '2=[REST.QUERY.LIMIT REST.QUERY.OFFSET]',
    );
    expect(outcomeLine(c!)).toBe(
      'c: MISSED, no FAIL, repeatable; expected but not FAILed in every run: REST.QUERY.LIMIT REST.QUERY.OFFSET',
    );
    expect(outcomeLine(d!)).toBe('d: not judged (needs): needs conform --other-compcode');
  });

  it('is written as detection.json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-detection-'));
    try {
      expect(JSON.parse(readFileSync(writeDetection(report, dir), 'utf8'))).toEqual(report);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('reading a results document and choosing a selection', () => {
  it('takes FAIL and ERROR verdicts of any rule, sorted, and the SKIPs of rules no observation could decide', () => {
    const rules = [
      { id: 'B.B.B', verdict: 'FAIL' },
      { id: 'A.A.A', verdict: 'FAIL' },
      { id: 'C.C.C', verdict: 'ERROR' },
      { id: 'D.D.D', verdict: 'PASS' },
      { id: 'E.E.E', verdict: 'SKIP', reason: `${INDECISIVE}: no column held more cards than maxsize 1` },
      { id: 'F.F.F', verdict: 'SKIP', reason: 'the target has no data' },
    ];
    expect(verdictsOf({ rules } as never)).toEqual({
      failed: ['A.A.A', 'B.B.B'],
      errored: ['C.C.C'],
      causedBy: {},
      indecisive: ['E.E.E'],
    });
  });

  it('a mutant the suite can only decline to judge is caught by the indecisive SKIP, never by a PASS', () => {
    const kanban = { ...mutant, id: 'kanban', breaks: [], undecided: ['PORTAL.LIST.KANBAN_PARAMS'] };
    const run = (indecisive: string[], failed: string[] = []) => ({
      seed: 1,
      exitCode: failed.length > 0 ? 1 : 0,
      failed,
      errored: [],
      indecisive,
      untested: [],
      proxyHits: { requests: 3, responses: 0 },
      durationMs: 1,
      problems: [],
    });
    const selected = new Set(['PORTAL.LIST.KANBAN_PARAMS']);
    const skipped = judgeMutant(
      kanban,
      [run(['PORTAL.LIST.KANBAN_PARAMS']), run(['PORTAL.LIST.KANBAN_PARAMS'])],
      selected,
    );
    expect(skipped).toMatchObject({ caught: true, precise: true, repeatable: true });
    const passed = judgeMutant(kanban, [run([]), run(['PORTAL.LIST.KANBAN_PARAMS'])], selected);
    expect(passed.caught).toBe(false);
    // a FAIL of an undecided rule is its own: caught and precise
    const failed = judgeMutant(
      kanban,
      [run([], ['PORTAL.LIST.KANBAN_PARAMS']), run([], ['PORTAL.LIST.KANBAN_PARAMS'])],
      selected,
    );
    expect(failed).toMatchObject({ caught: true, precise: true });
  });

  it('takes the root causes of the FAILs that follow from others (causedBy, chains walked to their root)', () => {
    const rules = [
      { id: 'A.A.A', verdict: 'FAIL', causedBy: null },
      { id: 'B.B.B', verdict: 'FAIL', causedBy: ['A.A.A'] },
      { id: 'C.C.C', verdict: 'FAIL', causedBy: ['B.B.B'] },
      { id: 'D.D.D', verdict: 'PASS', causedBy: null },
    ];
    expect(verdictsOf({ rules } as never).causedBy).toEqual({ 'B.B.B': ['A.A.A'], 'C.C.C': ['A.A.A'] });
  });

  it('the selection is the mutant select glob, else the families of its rules', () => {
    expect(selectionOf(mutant)).toBe('REST.QUERY.*');
    expect(selectionOf({ ...mutant, breaks: ['REST.QUERY.COMPCODE', 'PORTAL.GLOBAL.COMPNO'] })).toBe(
      'REST.QUERY.*,PORTAL.GLOBAL.*',
    );
    expect(selectionOf({ ...mutant, select: 'REST.QUERY.LIMIT' })).toBe('REST.QUERY.LIMIT');
  });
});

describe('generated families (issue 18)', () => {
  const gen = (id: string, family: 'spec' | 'catalogue'): Mutant =>
    ({ id, description: id, breaks: ['REST.QUERY.LIMIT'], family, area: 'REST.QUERY' }) as Mutant;
  const silent = { proxyHits: { requests: 0, responses: 0 } };

  it('reports a generated mutant the suite never met as not exercised, and counts it neither way', () => {
    const o = judgeMutant(gen('g1', 'spec'), [run(1, [], silent), run(2, [], silent)], selected);
    expect(o.status).toBe('not-exercised');
    expect(o.family).toBe('spec');
    // a hand-written mutant that never fired is still a miss
    const h = judgeMutant(
      { ...mutant, breaks: ['REST.QUERY.LIMIT'] },
      [run(1, [], silent), run(2, [], silent)],
      selected,
    );
    expect(h.status).toBe('judged');
    expect(h.caught).toBe(false);
  });

  it('gives the three figures per family with the whole and sampled sizes', () => {
    const outcomes = [
      judgeMutant(
        { ...mutant, breaks: ['REST.QUERY.LIMIT'] },
        [run(1, ['REST.QUERY.LIMIT']), run(2, ['REST.QUERY.LIMIT'])],
        selected,
      ),
      judgeMutant(gen('g1', 'spec'), [run(1, ['REST.QUERY.LIMIT']), run(2, ['REST.QUERY.LIMIT'])], selected),
      judgeMutant(gen('g2', 'spec'), [run(1, []), run(2, [])], selected),
      judgeMutant(gen('g3', 'spec'), [run(1, [], silent), run(2, [], silent)], selected),
      judgeMutant(gen('g4', 'catalogue'), [], new Set(), 'unobservable', ['why']),
    ];
    const r = detectionReport(new Date(0), [1, 2], { select: 'REST.QUERY.*', runs: [] }, outcomes, new Date(1), {
      hand: 70,
      spec: 3000,
      catalogue: 100,
    });
    const spec = r.families.find((f) => f.family === 'spec')!;
    expect(spec).toMatchObject({ size: 3000, sampled: 3, notObservable: 0, notExercised: 1 });
    expect(spec.detection).toMatchObject({ count: 1, of: 2 });
    expect(r.families.find((f) => f.family === 'catalogue')).toMatchObject({
      size: 100,
      sampled: 1,
      notObservable: 1,
      notExercised: 0,
    });
    expect(r.families.find((f) => f.family === 'catalogue')!.detection.of).toBe(0);
    expect(r.detection).toMatchObject({ count: 2, of: 3 });
    expect(totalsLines(r)).toContain(
      'family spec: 3 of 3000 run, 1 never exercised by the suite (reported, not counted)',
    );
  });
});

describe('the behaviour family (issue 28)', () => {
  const beh = (id: string, operator: string, breaks = 'REST.QUERY.LIMIT'): Mutant =>
    ({ id, description: id, breaks: [breaks], family: 'behaviour', operator, area: 'REST.QUERY' }) as Mutant;

  it('gives the figures per operator, and the family its own detection target of 95 %', () => {
    const outcomes = [
      judgeMutant(
        beh('b1', 'parameter-ignored'),
        [run(1, ['REST.QUERY.LIMIT']), run(2, ['REST.QUERY.LIMIT'])],
        selected,
      ),
      judgeMutant(
        beh('b2', 'parameter-ignored'),
        [run(1, ['REST.QUERY.FIELDS', 'REST.QUERY.LIMIT']), run(2, ['REST.QUERY.FIELDS', 'REST.QUERY.LIMIT'])],
        selected,
      ),
      judgeMutant(beh('b3', 'feed-forgets'), [run(1, []), run(2, [])], selected),
    ];
    const r = detectionReport(new Date(0), [1, 2], { select: 'REST.QUERY.*', runs: [] }, outcomes, new Date(1), {
      behaviour: 204,
    });
    expect(r.mutants.map((o) => o.operator)).toEqual(['parameter-ignored', 'parameter-ignored', 'feed-forgets']);
    const family = r.families.find((f) => f.family === 'behaviour')!;
    expect(family).toMatchObject({ size: 204, sampled: 3 });
    expect(family.detection).toMatchObject({ count: 2, of: 3, target: 0.95 });
    const ignored = r.operators!.find((o) => o.operator === 'parameter-ignored')!;
    expect(ignored.detection).toMatchObject({ count: 2, of: 2 });
    expect(ignored.outside).toMatchObject({ count: 1, of: 2 });
    expect(r.operators!.find((o) => o.operator === 'feed-forgets')!.detection).toMatchObject({ count: 0, of: 1 });
    expect(totalsLines(r)).toContain(
      '  operator parameter-ignored: 2 run; detection 2/2, right rule 2/2, outside 1/2, repeatable 2/2',
    );
  });
});
