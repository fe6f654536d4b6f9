/**
 * The self-test's account of the suite (issue 9 "The self-test proves all of this"): per mutant, whether
 * it was caught, which rules FAILed and ERRORed, whether every FAIL was one of its own rules (precision)
 * and whether runs with different seeds FAILed the same rules (repeatability); and the three totals.
 * Written to `reports/selftest/<timestamp>/detection.json`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { folderStamp, inCheckout, repoRoot } from '@erpcert/contract';
import type { ResultsDocument } from '@erpcert/runs';
import { rootCauses } from '../reports/causes.js';
import { INDECISIVE, TRANSPORT_RULES } from '../reports/runner.js';
import type { BehaviourOperator, GeneratedMutant, MutantFamily } from './generator/generated-mutant.js';
import type { SelfTestProfile } from './profile.js';
import type { Mutant } from './proxy.js';

/** The family of a mutant: `hand` unless it was generated (generator/). */
export const familyOf = (m: Mutant): MutantFamily => (m as Partial<GeneratedMutant>).family ?? 'hand';

/** The behaviour family's operator of a mutant (generator/behaviour-*.ts), or undefined. */
export const operatorOf = (m: Mutant): BehaviourOperator | undefined => (m as Partial<GeneratedMutant>).operator;

/** The `--only` glob of a mutant: its own `select`, else the rule families (`REST.QUERY.*`) of its rules. */
export const selectionOf = (m: Mutant): string =>
  m.select ??
  [...new Set([...m.breaks, ...(m.undecided ?? [])].map((r) => `${r.split('.').slice(0, 2).join('.')}.*`))].join(',');

/**
 * Rules the harness judges on every answer of every test (suites/conformance/src/harness/target-fault.ts):
 * no test names the failure forms (a correct server cannot be made to fail on demand), yet any selection
 * that sends a request judges them, so a mutant breaking them is judged, never `uncovered`.
 */
export const CENTRALLY_JUDGED: ReadonlySet<string> = new Set(
  Object.values(TRANSPORT_RULES).flatMap((api) => Object.values(api)),
);

/** What one `erpcert conform` run of a mutant showed, read from its results.json. */
export interface MutantRun {
  readonly seed: number;
  readonly exitCode: number;
  /** Rules with verdict FAIL, sorted. */
  readonly failed: readonly string[];
  /** Rules with verdict ERROR (could not be judged), sorted. */
  readonly errored: readonly string[];
  /**
   * The FAILed rules that follow from other FAILed rules (results.json `causedBy`, issue 28), with their root causes.
   * Optional: absent in runs recorded before issue 28.
   */
  readonly causedBy?: Readonly<Record<string, readonly string[]>>;
  /**
   * Rules with verdict SKIP because no observation reached the case that tells right from wrong (a `maxsize`
   * no column exceeded), sorted. Absent in runs recorded before it existed.
   */
  readonly indecisive?: readonly string[];
  /** Rules of the catalogue that no test of the suite names. */
  readonly untested: readonly string[];
  /** How often the proxy changed a request or a response (0: the suite never touched the broken behaviour). */
  readonly proxyHits: { readonly requests: number; readonly responses: number };
  readonly durationMs: number;
  /** Problems and run errors the report lists. */
  readonly problems: readonly string[];
}

/**
 * The FAILed and ERRORed rules of a results document (any rule, inside the selection or not), the root causes
 * of the FAILs that follow from others (`causedBy`), and the rules that SKIPped as indecisive.
 */
export function verdictsOf(doc: Pick<ResultsDocument, 'rules'>): {
  failed: string[];
  errored: string[];
  causedBy: Record<string, string[]>;
  indecisive: string[];
} {
  const ids = (v: string) =>
    doc.rules
      .filter((r) => (r.verdict as string) === v)
      .map((r) => r.id)
      .sort();
  const direct = new Map(doc.rules.map((r) => [r.id, r.verdict === 'FAIL' ? (r.causedBy ?? null) : null]));
  const causedBy: Record<string, string[]> = {};
  for (const r of doc.rules)
    if (r.verdict === 'FAIL' && r.causedBy?.length) causedBy[r.id] = rootCauses(r.id, (id) => direct.get(id));
  const indecisive = doc.rules
    .filter((r) => r.verdict === 'SKIP' && (r.reason ?? '').startsWith(INDECISIVE))
    .map((r) => r.id)
    .sort();
  return { failed: ids('FAIL'), errored: ids('ERROR'), causedBy, indecisive };
}

/**
 * The FAILs of `runs` that are not the mutant's own but follow from them (issue 28): in every run where such a rule
 * FAILed, its root causes include one of `own`. Not a precision miss: the broken behaviour's data went through them.
 */
export function followingOwn(runs: readonly MutantRun[], own: ReadonlySet<string>): string[] {
  const failedSomewhere = union(runs.map((r) => r.failed)).filter((f) => !own.has(f));
  return failedSomewhere.filter((f) =>
    runs.every((r) => !r.failed.includes(f) || (r.causedBy?.[f] ?? []).some((c) => own.has(c))),
  );
}

/** What the self-test concluded about one mutant over its runs. */
export interface MutantOutcome {
  readonly id: string;
  readonly family: MutantFamily;
  /** The behaviour family's operator that made it. */
  readonly operator?: BehaviourOperator;
  readonly description: string;
  readonly breaks: readonly string[];
  readonly select: string;
  /**
   * `judged`: it ran; `uncovered`: no test of the suite names one of its rules (other than the rules the
   * harness judges on every answer, `CENTRALLY_JUDGED`), so it did not run (counts as
   * not caught); `needs`: the CLI lacks an option the mutant needs (counts as not caught); `error`: a run
   * did not complete (exit 2; counts as not caught). Generated mutants only (issue 18: reported, counted neither
   * detected nor missed): `unobservable`: its rule is one no black-box test can observe (`observable: false`), or
   * no test names it (`uncovered`); `not-exercised`: no run made the proxy change anything (the suite never
   * asked for the body or behaviour it breaks), so the target behaved exactly as the unbroken server.
   */
  readonly status: 'judged' | 'uncovered' | 'needs' | 'error' | 'unobservable' | 'not-exercised';
  /**
   * Every run FAILed every one of its rules, and gave each of its `undecided` rules a FAIL or the SKIP "no
   * observation reached the case that tells right from wrong" (never a PASS).
   */
  readonly caught: boolean;
  /** At least one run FAILed something, and no run FAILed a rule that is not one of its own (`breaks`, `alsoBreaks`). */
  readonly precise: boolean;
  /** Every run FAILed the same set of rules (and there were at least two runs). */
  readonly repeatable: boolean;
  /** Rules that FAILed in some run (union over the runs). */
  readonly failed: readonly string[];
  /** Rules that ERRORed in some run (listed; they do not count against precision). */
  readonly errored: readonly string[];
  /**
   * FAILed rules that are not the mutant's own but follow from them in every run (`causedBy`, issue 28): counted
   * apart, not against precision. Optional: absent in reports before issue 28.
   */
  readonly following?: readonly string[];
  /** FAILed rules that are not the mutant's own: inside its selection, and outside it (found by a selected test). */
  readonly collateral: { readonly inSelection: readonly string[]; readonly outside: readonly string[] };
  readonly runs: readonly MutantRun[];
  readonly problems: readonly string[];
}

const union = (lists: readonly (readonly string[])[]) => [...new Set(lists.flat())].sort();
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Judges a mutant from its runs. `selected` is the set of rule ids its `--only` selection covers (to tell
 * collateral FAILs inside the selection from FAILs a selected test found outside it).
 */
export function judgeMutant(
  m: Mutant,
  runs: readonly MutantRun[],
  selected: ReadonlySet<string>,
  given: MutantOutcome['status'] = 'judged',
  givenProblems: readonly string[] = [],
): MutantOutcome {
  const untested = m.breaks.filter((b) => !CENTRALLY_JUDGED.has(b) && runs.some((r) => r.untested.includes(b)));
  const broke = runs.some((r) => r.exitCode === 2);
  const status = given === 'judged' && !broke && untested.length > 0 ? 'uncovered' : given;
  const problems =
    status === given ? givenProblems : [...givenProblems, `no test of the suite names ${untested.join(', ')}`];
  const family = familyOf(m);
  const silent =
    family !== 'hand' && runs.length > 0 && runs.every((r) => r.proxyHits.requests + r.proxyHits.responses === 0);
  if (status === 'judged' && silent && !broke) return notJudged(m, 'not-exercised', runs, problems, selected);
  const completed = status === 'judged' && runs.length > 0 && runs.every((r) => r.exitCode !== 2);
  const failed = union(runs.map((r) => r.failed));
  const own = new Set([...m.breaks, ...(m.alsoBreaks ?? []), ...(m.undecided ?? [])]);
  // a FAIL that follows from the broken rule (its data went through the broken behaviour) is not a miss
  const following = followingOwn(runs, own);
  const extra = failed.filter((r) => !own.has(r) && !following.includes(r));
  const operator = operatorOf(m);
  return {
    id: m.id,
    family,
    ...(operator ? { operator } : {}),
    description: m.description,
    breaks: m.breaks,
    select: selectionOf(m),
    status: status === 'judged' && !completed ? 'error' : status,
    caught:
      completed &&
      (m.harmless
        ? runs.every((r) => r.failed.length === 0)
        : runs.every(
            (r) =>
              m.breaks.every((b) => r.failed.includes(b)) &&
              (m.undecided ?? []).every((u) => r.failed.includes(u) || (r.indecisive ?? []).includes(u)),
          )),
    // a mutant whose deviation the suite can only decline to judge (its data never reaches the case) is precise
    // when nothing else FAILs
    precise: completed && (failed.length > 0 || (m.undecided?.length ?? 0) > 0) && extra.length === 0,
    repeatable: completed && runs.length >= 2 && runs.every((r) => sameSet(r.failed, runs[0]!.failed)),
    failed,
    errored: union(runs.map((r) => r.errored)),
    following,
    collateral: {
      inSelection: extra.filter((r) => selected.has(r)),
      outside: extra.filter((r) => !selected.has(r)),
    },
    runs: runs.map((r) => ({ ...r, untested: r.untested.filter((u) => m.breaks.includes(u)) })),
    problems: [...problems, ...new Set(runs.flatMap((r) => r.problems))],
  };
}

/** An outcome that is reported but counted neither detected nor missed (generated mutants only). */
function notJudged(
  m: Mutant,
  status: 'not-exercised',
  runs: readonly MutantRun[],
  problems: readonly string[],
  _selected: ReadonlySet<string>,
): MutantOutcome {
  const operator = operatorOf(m);
  return {
    id: m.id,
    family: familyOf(m),
    ...(operator ? { operator } : {}),
    description: m.description,
    breaks: m.breaks,
    select: selectionOf(m),
    status,
    caught: false,
    precise: false,
    repeatable: false,
    failed: union(runs.map((r) => r.failed)),
    errored: union(runs.map((r) => r.errored)),
    collateral: { inSelection: [], outside: [] },
    runs,
    problems: [...problems, 'the proxy changed nothing in any run: the suite never met the broken behaviour'],
  };
}

/** Whether an outcome counts in the figures: every hand-written one; a generated one only when it could be seen. */
export function counted(o: Pick<MutantOutcome, 'family' | 'status'>): boolean {
  return o.family === 'hand' || !['unobservable', 'uncovered', 'not-exercised'].includes(o.status);
}

/** A total: how many of how many, and the rate. */
export interface Figure {
  readonly count: number;
  readonly of: number;
  readonly rate: number;
  /** The figure the issue asks for (issue 9 "Figures"). */
  readonly target: number;
  readonly met: boolean;
}

/** detection.json. */
export interface DetectionReport {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly seeds: readonly number[];
  /** The conform profile every run used (`erpcert self-test --profile`). */
  readonly profile: SelfTestProfile;
  /** Runs through an unchanged proxy, one per seed, over the union of the mutants' selections: must FAIL nothing. */
  readonly baseline: { readonly select: string; readonly runs: readonly MutantRun[]; readonly clean: boolean };
  readonly mutants: readonly MutantOutcome[];
  /** Caught mutants over all mutants (uncovered and broken runs count as not caught). */
  readonly detection: Figure;
  /** Mutants whose FAILs are all their own rules, over the mutants that FAILed anything. */
  readonly precision: Figure;
  /** Mutants whose runs FAILed the same rules, over the mutants that ran to the end with two seeds or more. */
  readonly repeatability: Figure;
  /** Issue 18: of the mutants that FAILed anything, those that FAILed every rule they break (target >= 98 %). */
  readonly rightRule: Figure;
  /**
   * Issue 18: of the mutants that FAILed anything, those that FAILed a rule they do not break (target <= 3 %). Issue
   * 28: a FAIL that follows from the broken rule (`causedBy`) is not counted here but in {@link following}.
   */
  readonly outside: Figure;
  /** Issue 28: of the mutants that FAILed anything, those with FAILs that follow from their broken rule. */
  readonly following?: { readonly count: number; readonly of: number };
  /** The same figures per family, with the size of the whole family and of its sample. */
  readonly families: readonly FamilyFigures[];
  /** The same figures per operator of the behaviour family (issue 28), when behaviour mutants ran. */
  readonly operators?: readonly OperatorFigures[];
}

/** The figures of one operator of the behaviour family. */
export interface OperatorFigures extends Omit<FamilyFigures, 'family' | 'size'> {
  readonly operator: BehaviourOperator;
}

/** The figures of one family (hand, spec, catalogue, behaviour) of a self-test. */
export interface FamilyFigures {
  readonly family: MutantFamily;
  /** Mutants of the family in the whole set. */
  readonly size: number;
  /** Mutants of the family in this run (the sample). */
  readonly sampled: number;
  /** Of the sample: reported but not counted because no test can observe their rule (`unobservable`, `uncovered`). */
  readonly notObservable: number;
  /**
   * Of the sample: reported but not counted because no run made the proxy change anything (`not-exercised`):
   * the suite never asked for what they break. A coverage gap of the suite's requests, listed apart.
   */
  readonly notExercised: number;
  readonly detection: Figure;
  readonly precision: Figure;
  readonly repeatability: Figure;
  readonly rightRule: Figure;
  readonly outside: Figure;
  readonly following?: { readonly count: number; readonly of: number };
}

/** The figures of issue 9: detection >= 98 %, precision >= 95 %, repeatability 100 %. */
export const TARGETS = { detection: 0.98, precision: 0.95, repeatability: 1 } as const;
/**
 * The figures of issue 18, over the mutants that FAILed anything: a right rule FAILed for >= 98 % of them, and a
 * rule outside the broken one FAILed for <= 3 %.
 */
export const BLAME_TARGETS = { rightRule: 0.98, outside: 0.03 } as const;

/** Issue 28: over the behaviour family, detection >= 95 % (the blame figures as for every family). */
export const BEHAVIOUR_DETECTION_TARGET = 0.95;

function figure(count: number, of: number, target: number): Figure {
  const rate = of === 0 ? 0 : count / of;
  return { count, of, rate, target, met: of > 0 && rate >= target };
}

/** A figure whose rate must stay at or below its target (the FAILs outside the broken rule). */
function ceiling(count: number, of: number, target: number): Figure {
  const rate = of === 0 ? 0 : count / of;
  return { count, of, rate, target, met: of > 0 && rate <= target };
}

/** Sums the outcomes up into the three figures. */
export function detectionReport(
  startedAt: Date,
  seeds: readonly number[],
  baseline: Omit<DetectionReport['baseline'], 'clean'>,
  outcomes: readonly MutantOutcome[],
  finishedAt: Date = new Date(),
  sizes: Readonly<Partial<Record<MutantFamily, number>>> = {},
  profile: SelfTestProfile = 'full',
): DetectionReport {
  const figures = (list: readonly MutantOutcome[], detectionTarget: number = TARGETS.detection) => {
    const considered = list.filter(counted);
    const ran = considered.filter((o) => o.status === 'judged');
    const failedAny = ran.filter((o) => o.failed.length > 0);
    // a mutant run with one seed says nothing of repeatability: only those with two runs or more count
    const repeated = ran.filter((o) => o.runs.length >= 2);
    const blamed = failedAny.filter((o) => o.breaks.length > 0);
    return {
      detection: figure(considered.filter((o) => o.caught).length, considered.length, detectionTarget),
      precision: figure(failedAny.filter((o) => o.precise).length, failedAny.length, TARGETS.precision),
      repeatability: figure(repeated.filter((o) => o.repeatable).length, repeated.length, TARGETS.repeatability),
      rightRule: figure(
        blamed.filter((o) => o.breaks.every((b) => o.failed.includes(b))).length,
        blamed.length,
        BLAME_TARGETS.rightRule,
      ),
      outside: ceiling(
        blamed.filter((o) => o.collateral.inSelection.length + o.collateral.outside.length > 0).length,
        blamed.length,
        BLAME_TARGETS.outside,
      ),
      following: { count: blamed.filter((o) => (o.following?.length ?? 0) > 0).length, of: blamed.length },
    };
  };
  const families = (['hand', 'spec', 'catalogue', 'behaviour'] as const).flatMap((family) => {
    const mine = outcomes.filter((o) => o.family === family);
    if (mine.length === 0) return [];
    const size = sizes[family] ?? mine.length;
    return [
      {
        family,
        size,
        sampled: mine.length,
        notObservable: mine.filter((o) => !counted(o) && o.status !== 'not-exercised').length,
        notExercised: mine.filter((o) => o.status === 'not-exercised').length,
        ...figures(mine, family === 'behaviour' ? BEHAVIOUR_DETECTION_TARGET : TARGETS.detection),
      },
    ];
  });
  const operators = [...new Set(outcomes.flatMap((o) => (o.operator ? [o.operator] : [])))].sort().map((operator) => {
    const mine = outcomes.filter((o) => o.operator === operator);
    return {
      operator,
      sampled: mine.length,
      notObservable: mine.filter((o) => !counted(o) && o.status !== 'not-exercised').length,
      notExercised: mine.filter((o) => o.status === 'not-exercised').length,
      ...figures(mine, BEHAVIOUR_DETECTION_TARGET),
    };
  });
  return {
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    seeds,
    profile,
    baseline: {
      ...baseline,
      clean: baseline.runs.length > 0 && baseline.runs.every((r) => r.exitCode === 0 && r.failed.length === 0),
    },
    mutants: outcomes,
    ...figures(outcomes),
    families,
    ...(operators.length > 0 ? { operators } : {}),
  };
}

const pct = (f: Figure) => `${f.count}/${f.of} (${(100 * f.rate).toFixed(1)}%, target ${100 * f.target}%)`;
const pctAtMost = (f: Figure) =>
  `${f.count}/${f.of} (${(100 * f.rate).toFixed(1)}%, target at most ${100 * f.target}%)`;
const notMet = (f: Figure) => (f.met ? '' : '  NOT MET');

/** The five figure lines of a family or of the whole run (repeatability only when two seeds or more ran). */
function figureLines(
  f: Omit<FamilyFigures, 'family' | 'size' | 'sampled' | 'notObservable' | 'notExercised'>,
  indent: string,
): string[] {
  return [
    `${indent}detection:     ${pct(f.detection)}${notMet(f.detection)}`,
    `${indent}precision:     ${pct(f.precision)}${notMet(f.precision)}`,
    f.repeatability.of === 0
      ? `${indent}repeatability: not measured (one seed: give --seeds 3)`
      : `${indent}repeatability: ${pct(f.repeatability)}${notMet(f.repeatability)}`,
    `${indent}right rule:    ${pct(f.rightRule)}${notMet(f.rightRule)} of the mutants that FAILed anything FAILed every rule they break`,
    `${indent}outside:       ${pctAtMost(f.outside)}${notMet(f.outside)} of them FAILed a rule that is neither one they break nor caused by it`,
    ...(f.following && f.following.count > 0
      ? [
          `${indent}following:     ${f.following.count}/${f.following.of} of them also FAILed rules that follow from the broken one (causedBy; not counted as outside)`,
        ]
      : []),
  ];
}

/** One line per mutant, for the terminal. */
export function outcomeLine(o: MutantOutcome): string {
  if (o.status !== 'judged') return `${o.id}: not judged (${o.status}): ${o.problems.join('; ')}`;
  const marks = [
    o.caught ? 'caught' : 'MISSED',
    o.precise ? 'precise' : o.failed.length === 0 ? 'no FAIL' : 'IMPRECISE',
    o.runs.length < 2 ? 'one seed' : o.repeatable ? 'repeatable' : 'NOT REPEATABLE',
  ].join(', ');
  const extra = [...o.collateral.inSelection, ...o.collateral.outside];
  const missing = o.breaks.filter((b) => !o.runs.every((r) => r.failed.includes(b)));
  return [
    `${o.id}: ${marks}`,
    o.failed.length > 0 ? `FAIL ${o.failed.join(' ')}` : undefined,
    o.errored.length > 0 ? `ERROR ${o.errored.join(' ')}` : undefined,
    missing.length > 0 ? `expected but not FAILed in every run: ${missing.join(' ')}` : undefined,
    (o.following?.length ?? 0) > 0 ? `following from it (causedBy): ${o.following!.join(' ')}` : undefined,
    extra.length > 0 ? `not its own: ${extra.join(' ')}` : undefined,
    o.repeatable || o.runs.length < 2
      ? undefined
      : `per seed: ${o.runs.map((r) => `${r.seed}=[${r.failed.join(' ')}]`).join(' ')}`,
  ]
    .filter((x) => x !== undefined)
    .join('; ');
}

/** The three totals, one line each, then the figures of each family. */
export function totalsLines(r: DetectionReport): string[] {
  // a run of the hand-written mutants alone prints its three totals only, as it always did
  const families = (r.families ?? []).some((f) => f.family !== 'hand') ? r.families : [];
  const perFamily = families.flatMap((f) => [
    `family ${f.family}: ${f.sampled} of ${f.size} run${f.notObservable > 0 ? `, ${f.notObservable} whose rule no test observes` : ''}${f.notExercised > 0 ? `, ${f.notExercised} never exercised by the suite` : ''}${f.notObservable + f.notExercised > 0 ? ' (reported, not counted)' : ''}`,
    ...figureLines(f, '  '),
  ]);
  const perOperator = (r.operators ?? []).map((o) => {
    const short = (f: Figure) => `${f.count}/${f.of}`;
    return `  operator ${o.operator}: ${o.sampled} run${o.notExercised + o.notObservable > 0 ? ` (${o.notExercised + o.notObservable} not counted)` : ''}; detection ${short(o.detection)}, right rule ${short(o.rightRule)}, outside ${short(o.outside)}, repeatable ${short(o.repeatability)}`;
  });
  return [
    ...perFamily,
    ...(perOperator.length > 0 ? ['behaviour family by operator:', ...perOperator] : []),
    ...figureLines(r, ''),
    `baseline (no mutant, seeds ${r.seeds.join(', ')}, profile ${r.profile ?? 'full'}): ${
      r.baseline.clean
        ? 'no FAIL'
        : `FAIL ${union(r.baseline.runs.map((b) => b.failed)).join(' ') || '(none; exit code not 0)'}`
    }`,
  ];
}

/**
 * Writes detection.json under `reports/selftest/<timestamp>/` (or `dir`); returns the file. `reports/` is the
 * checkout's, or the working folder's when erpcert is an installed package (never inside node_modules).
 */
export function writeDetection(r: DetectionReport, dir?: string): string {
  const base = inCheckout ? repoRoot : process.cwd();
  const folder = dir ?? join(base, 'reports', 'selftest', folderStamp(new Date(r.startedAt)));
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'detection.json');
  writeFileSync(file, `${JSON.stringify(r, null, 2)}\n`, 'utf8');
  return file;
}
