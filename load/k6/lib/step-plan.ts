/**
 * The saturation step plan both engines follow: double the offered rate from the start until a step breaks
 * (errors, drops, p99 over the bound, achieved below offered), the generator is shown to be the limit, or the
 * user's maximum ran; then bisect between the last good and the first broken step. Pure (no k6, no Node import):
 * the engines run the steps it asks for and hand back what they measured.
 */
import type {
  DocumentedFigure,
  GeneratorLoad,
  LimitedBy,
  SaturationLimit,
  SaturationStep,
} from '../scenarios/catalogue.ts';

/** Settings of a stepped run. */
export interface StepPlanOptions {
  /** First offered rate (operations per second). */
  readonly start: number;
  /** The user's maximum: no step offers more (`--max-rate`). */
  readonly maxRate: number;
  /** A step whose p99 reaches this many milliseconds has broken. */
  readonly p99LimitMs: number;
  /** Bisection steps after the first broken step. @defaultValue 3 */
  readonly refineSteps?: number;
  /** Most steps in all (a bound on the run, whatever the target does). @defaultValue 20 */
  readonly maxSteps?: number;
}

/** A step below this share of its offered rate has broken: the target did not keep up. */
export const ACHIEVED_SHARE = 0.9;
/** A generator at this share of its cores is the limit; a machine at this share of its cores is saturated. */
export const CPU_SHARE = 0.85;
/** On a saturated machine, a generator with at least this share of the busy CPU took the machine from the rest. */
export const MACHINE_SHARE = 0.5;
/** Mean event-loop delay (beyond the timer resolution) from which autocannon sends late. */
export const EVENT_LOOP_DELAY_MS = 20;

const fmt = (n: number): string => String(Math.round(n * 1000) / 1000);
const cores = (n: number): string => String(Math.round(n * 100) / 100);

/** Why a step broke, or undefined when it held. */
export function brokenBecause(step: SaturationStep, p99LimitMs: number): string | undefined {
  const why = [
    step.errors > 0 ? `${step.errors} failed operations` : '',
    (step.dropped ?? 0) > 0 ? `${step.dropped} dropped iterations` : '',
    step.p99 >= p99LimitMs ? `p99 ${fmt(step.p99)} ms >= ${fmt(p99LimitMs)} ms` : '',
    step.achieved < step.offered * ACHIEVED_SHARE
      ? `achieved ${fmt(step.achieved)}/s < ${ACHIEVED_SHARE * 100} % of the offered ${fmt(step.offered)}/s`
      : '',
  ].filter((x) => x !== '');
  return why.length > 0 ? why.join(', ') : undefined;
}

/** The generator figures of a step in words. */
export function generatorText(g: GeneratorLoad): string {
  const parts = [`generator CPU ${cores(g.cpuCores)} of ${g.workers} core(s)`];
  if (g.machineBusyCores !== undefined && g.machineCores !== undefined)
    parts.push(`machine ${cores(g.machineBusyCores)} of ${g.machineCores} core(s) busy`);
  if (g.targetCpuCores !== undefined) parts.push(`target CPU ${cores(g.targetCpuCores)} core(s)`);
  if (g.cpuMicrosPerOp !== undefined) parts.push(`${Math.round(g.cpuMicrosPerOp)} CPU-µs per operation`);
  if (g.eventLoopDelayMs !== undefined) parts.push(`event loop late by ${fmt(g.eventLoopDelayMs)} ms on average`);
  if (g.insufficientVUs !== undefined && g.insufficientVUs > 0)
    parts.push(`${g.insufficientVUs} "Insufficient VUs" warning(s)`);
  return parts.join(', ');
}

/**
 * Whether the generator took a saturated machine (busy on CPU_SHARE or more of its cores) from everything else on
 * it, the target included when it runs there: MACHINE_SHARE or more of the busy CPU was the generator's, or, when
 * the target's own CPU was measured (the embedded server), the generator used more CPU than the target did. The
 * words, or undefined when it did not or the machine's figures are absent (no /proc/stat: the signal says nothing).
 */
export function generatorTookMachine(g: GeneratorLoad): string | undefined {
  const busy = g.machineBusyCores;
  const all = g.machineCores;
  if (busy === undefined || all === undefined || !(all > 0) || busy < CPU_SHARE * all) return undefined;
  if (g.cpuCores >= MACHINE_SHARE * busy)
    return `the machine was saturated: ${cores(busy)} of ${all} cores busy, ${cores(g.cpuCores)} of them the generator's`;
  if (g.targetCpuCores !== undefined && g.cpuCores > g.targetCpuCores)
    return `the machine was saturated (${cores(busy)} of ${all} cores busy) and the generator used more of it than the target: ${cores(g.cpuCores)} core(s) against the target's ${cores(g.targetCpuCores)}`;
  return undefined;
}

/**
 * A saturated machine that the generator did not take (its share of the busy CPU under MACHINE_SHARE): the words
 * a target-limited verdict adds, since the knee is then what the target got of a busy machine; undefined otherwise.
 */
export function machineBusyElsewhere(g: GeneratorLoad): string | undefined {
  const busy = g.machineBusyCores;
  const all = g.machineCores;
  if (busy === undefined || all === undefined || !(all > 0) || busy < CPU_SHARE * all) return undefined;
  if (generatorTookMachine(g) !== undefined) return undefined;
  return `the machine was saturated (${cores(busy)} of ${all} cores busy, ${cores(g.cpuCores)} of them the generator's), mostly by the target or other work on it: the knee is what the target got of this machine`;
}

/**
 * Whether the generator limited a (broken) step, with the evidence; undefined when it did not. The signals: its
 * CPU near one core per worker; the machine saturated with half or more of its busy CPU the generator's, or with
 * the generator using more CPU than the measured target (it starved the target when they share the machine); autocannon's event loop running late; k6 short of VUs or
 * dropping iterations while the target's p99 stays flat (within twice, or 20 ms of, the first step's).
 */
export function generatorBound(step: SaturationStep, first: SaturationStep | undefined): string | undefined {
  const g = step.generator;
  if (g === undefined) return undefined;
  const signals: string[] = [];
  if (g.cpuCores >= CPU_SHARE * g.workers) signals.push(`its CPU was at ${CPU_SHARE * 100} % or more of its cores`);
  const machine = generatorTookMachine(g);
  if (machine !== undefined) signals.push(machine);
  if (g.eventLoopDelayMs !== undefined && g.eventLoopDelayMs >= EVENT_LOOP_DELAY_MS)
    signals.push(`its event loop ran ${EVENT_LOOP_DELAY_MS} ms or more late`);
  const flat = first !== undefined && step.p99 <= Math.max(2 * first.p99, first.p99 + 20);
  if (flat && ((g.insufficientVUs ?? 0) > 0 || (step.dropped ?? 0) > 0) && step.errors === 0)
    signals.push(
      `it could not start every iteration (${g.insufficientVUs ?? 0} "Insufficient VUs" warnings, ${step.dropped ?? 0} dropped) while the target's p99 stayed flat (${fmt(step.p99)} ms against ${fmt(first!.p99)} ms at ${fmt(first!.offered)}/s)`,
    );
  return signals.length > 0 ? `${signals.join('; ')} (${generatorText(g)})` : undefined;
}

/** What to do when the generator was the limit; `tookMachine` when it took a saturated machine's CPU. */
export function generatorAdvice(engine: 'k6' | 'autocannon', tookMachine = false): string {
  const other = engine === 'k6' ? 'autocannon' : 'k6';
  if (tookMachine)
    return `the generator shares a saturated machine with the target (when the target runs on it) and took most of its CPU, starving the target: run the generator on another machine than the target${engine === 'k6' ? ', or use the cheaper engine (--engine autocannon)' : ' (autocannon is already the cheaper engine)'}; for more load than one machine offers, the distributed k6-operator run (load/k6/README.md "Distributed")`;
  return `the knee is the load generator's, not the target's: run again with --engine ${other}, give the generator more workers or cores (k6: a machine of its own), or load from a second machine (the distributed k6-operator run, load/k6/README.md "Distributed")`;
}

/** Rounds a bisection midpoint to a value with many divisors (autocannon spreads a rate over its connections). */
export function niceRate(rate: number): number {
  if (rate < 16) return Math.round(rate);
  const unit = 2 ** Math.max(0, Math.floor(Math.log2(rate)) - 4);
  return Math.round(rate / unit) * unit;
}

/** The outcome of a stepped run. */
export interface StepOutcome {
  readonly steps: readonly SaturationStep[];
  /** Best achieved rate of the steps that held. */
  readonly knee: number;
  readonly limit: SaturationLimit;
  /** The short reason of the verdict, e.g. "the 512/s step broke (...)". */
  readonly why: string;
}

/** Drives a stepped run: `next()` gives the rate to offer, `record()` takes what that step measured. */
export class StepPlan {
  readonly #o: Required<StepPlanOptions>;
  readonly #engine: 'k6' | 'autocannon';
  readonly #steps: SaturationStep[] = [];
  #good: SaturationStep | undefined;
  #broken: { step: SaturationStep; why: string } | undefined;
  #generator: { step: SaturationStep; why: string; evidence: string; tookMachine: boolean } | undefined;
  #refined = 0;
  #phase: 'geometric' | 'refine' = 'geometric';

  constructor(options: StepPlanOptions, engine: 'k6' | 'autocannon') {
    if (!(options.start >= 1) || !(options.maxRate >= options.start))
      throw new RangeError(`a step plan needs 1 <= start <= maxRate, got ${options.start} and ${options.maxRate}`);
    this.#o = { refineSteps: 3, maxSteps: 20, ...options };
    this.#engine = engine;
  }

  /** The phase of the next step. */
  get phase(): 'geometric' | 'refine' {
    return this.#phase;
  }

  /** The next offered rate, or undefined when the run is over. */
  next(): number | undefined {
    if (this.#generator !== undefined || this.#steps.length >= this.#o.maxSteps) return undefined;
    const last = this.#steps[this.#steps.length - 1];
    if (last === undefined) return Math.round(this.#o.start);
    if (this.#broken === undefined) return last.offered >= this.#o.maxRate ? undefined : this.#doubled(last.offered);
    const low = this.#good?.offered;
    const high = this.#broken.step.offered;
    if (low === undefined || this.#refined >= this.#o.refineSteps) return undefined;
    const mid = niceRate((low + high) / 2);
    return mid > low && mid < high ? mid : undefined;
  }

  #doubled(rate: number): number {
    return Math.min(this.#o.maxRate, rate * 2);
  }

  /** Takes the measurement of the step `next()` asked for. */
  record(measured: Omit<SaturationStep, 'phase'>): SaturationStep {
    const step: SaturationStep = { ...measured, phase: this.#phase };
    if (this.#phase === 'refine') this.#refined++;
    this.#steps.push(step);
    const why = brokenBecause(step, this.#o.p99LimitMs);
    if (why === undefined) {
      if (this.#good === undefined || step.offered > this.#good.offered) this.#good = step;
      return step;
    }
    const evidence = generatorBound(step, this.#steps[0] === step ? undefined : this.#steps[0]);
    if (evidence !== undefined) {
      const tookMachine = step.generator !== undefined && generatorTookMachine(step.generator) !== undefined;
      this.#generator = { step, why, evidence, tookMachine };
    }
    if (this.#broken === undefined || step.offered < this.#broken.step.offered) this.#broken = { step, why };
    this.#phase = 'refine';
    return step;
  }

  /** The knee and what limited it; `interrupted` when the run was stopped from outside. */
  outcome(interrupted = false): StepOutcome {
    const steps = [...this.#steps];
    const knee = steps
      .filter((s) => brokenBecause(s, this.#o.p99LimitMs) === undefined)
      .reduce((max, s) => Math.max(max, s.achieved), 0);
    const top = steps.reduce((max, s) => Math.max(max, s.offered), 0);
    if (this.#generator !== undefined) {
      const g = this.#generator;
      return {
        steps,
        knee,
        why: `the ${fmt(g.step.offered)}/s step broke (${g.why}) with the generator at its limit`,
        limit: {
          limitedBy: 'generator',
          evidence: `at ${fmt(g.step.offered)}/s the generator was the limit: ${g.evidence}`,
          advice: generatorAdvice(this.#engine, g.tookMachine),
        },
      };
    }
    if (this.#broken !== undefined) {
      const b = this.#broken;
      const g = b.step.generator;
      const busy = g ? machineBusyElsewhere(g) : undefined;
      const good = this.#good;
      const between = good ? ` (last good step ${fmt(good.offered)}/s)` : ' (already the first step)';
      return {
        steps,
        knee,
        why: `the ${fmt(b.step.offered)}/s step broke (${b.why})`,
        limit: {
          limitedBy: 'target',
          evidence: `the ${fmt(b.step.offered)}/s step broke${between}: ${b.why}; the generator had room${g ? ` (${generatorText(g)})` : ''}${busy ? `; ${busy}` : ''}`,
        },
      };
    }
    const why = interrupted
      ? `interrupted after ${steps.length} step(s), none broke up to ${fmt(top)}/s`
      : top >= this.#o.maxRate
        ? `no step broke up to the maximum of ${fmt(this.#o.maxRate)}/s (--max-rate)`
        : `no step broke up to ${fmt(top)}/s in the ${this.#o.maxSteps} steps allowed`;
    return { steps, knee, why, limit: { limitedBy: 'step-limit', evidence: why } };
  }
}

/** The stepped variant of a rate scenario as the engines take it: the plan and the seconds of each step. */
export interface SaturationOptions extends StepPlanOptions {
  readonly stageSeconds: number;
}

/** How the knee is named: only a target-limited knee is the target's saturation. */
export function saturationWords(limitedBy: LimitedBy): string {
  return limitedBy === 'target'
    ? 'the target saturates at'
    : limitedBy === 'generator'
      ? 'the load generator, not the target, topped out at'
      : 'no limit found: the target held every step, best';
}

/** The verdict of a stepped run: its knee against the documented minimum, named by what limited it. */
export function judgeKnee(
  d: DocumentedFigure,
  curve: { best: number; why: string; limit: SaturationLimit },
): { verdict: 'pass' | 'fail' | 'info'; reason: string } {
  const measured = `${saturationWords(curve.limit.limitedBy)} ${fmt(curve.best)}/s checked operations: ${curve.why}`;
  const min = d.ratePerSecond?.min;
  if (min === undefined) return { verdict: 'info', reason: `no documented figure; ${measured}` };
  return curve.best >= min
    ? { verdict: 'pass', reason: `${measured}; >= documented ${fmt(min)}/s` }
    : { verdict: 'fail', reason: `${measured}; below the documented ${fmt(min)}/s` };
}
