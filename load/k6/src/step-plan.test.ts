/**
 * The shared step plan against simulated targets: doubling until something breaks, bisection between the last
 * good and the first broken step, and what limited the knee (target, generator, step limit) with its evidence.
 */
import { describe, expect, it } from 'vitest';
import {
  brokenBecause,
  generatorAdvice,
  generatorBound,
  generatorTookMachine,
  niceRate,
  StepPlan,
  type StepPlanOptions,
} from '../lib/step-plan.js';
import type { GeneratorLoad, SaturationStep } from '../scenarios/catalogue.js';

type Sim = (rate: number) => Omit<SaturationStep, 'phase'>;

/** Drives a plan against a simulated target and returns the rates offered and the outcome. */
function drive(o: StepPlanOptions, sim: Sim, engine: 'k6' | 'autocannon' = 'autocannon') {
  const plan = new StepPlan(o, engine);
  const rates: number[] = [];
  for (let rate = plan.next(); rate !== undefined; rate = plan.next()) {
    rates.push(rate);
    plan.record(sim(rate));
  }
  return { rates, outcome: plan.outcome() };
}

const idle: GeneratorLoad = { cpuCores: 0.2, workers: 1, eventLoopDelayMs: 1 };
/** A target that serves up to `capacity`/s; above it, it drops what it cannot take and p99 climbs. */
const target =
  (capacity: number, generator: (rate: number) => GeneratorLoad = () => idle): Sim =>
  (rate) =>
    rate <= capacity
      ? { offered: rate, achieved: rate, p99: 5, errors: 0, dropped: 0, generator: generator(rate) }
      : {
          offered: rate,
          achieved: capacity,
          p99: 900,
          errors: 0,
          dropped: rate - capacity,
          generator: generator(rate),
        };

describe('StepPlan', () => {
  it('doubles from the start, then bisects between the last good and the first broken step (target)', () => {
    const { rates, outcome } = drive({ start: 4, maxRate: 100_000, p99LimitMs: 2000 }, target(300));
    expect(rates).toEqual([4, 8, 16, 32, 64, 128, 256, 512, 384, 320, 288]);
    expect(outcome.knee).toBe(288);
    expect(outcome.limit.limitedBy).toBe('target');
    expect(outcome.limit.evidence).toContain('the 320/s step broke (last good step 288/s)');
    expect(outcome.limit.evidence).toContain('the generator had room (generator CPU 0.2 of 1 core(s)');
    expect(outcome.limit.advice).toBeUndefined();
  });

  it('stops at the maximum when nothing breaks: step-limit', () => {
    const { rates, outcome } = drive({ start: 10, maxRate: 50, p99LimitMs: 2000 }, target(1000));
    expect(rates).toEqual([10, 20, 40, 50]);
    expect(outcome).toMatchObject({ knee: 50, limit: { limitedBy: 'step-limit' } });
    expect(outcome.limit.evidence).toBe('no step broke up to the maximum of 50/s (--max-rate)');
  });

  it('calls a broken step with the generator at one core per worker the generator, with the advice', () => {
    const busy = (rate: number): GeneratorLoad => ({ cpuCores: rate >= 256 ? 0.97 : 0.3, workers: 1 });
    const { rates, outcome } = drive({ start: 4, maxRate: 100_000, p99LimitMs: 2000 }, target(300, busy), 'k6');
    expect(rates.at(-1)).toBe(512); // no bisection: below the generator's limit nothing more is learnt
    expect(outcome.knee).toBe(256);
    expect(outcome.limit.limitedBy).toBe('generator');
    expect(outcome.limit.evidence).toMatch(/at 512\/s the generator was the limit: its CPU was at 85 % or more/);
    expect(outcome.limit.advice).toContain('--engine autocannon');
    expect(outcome.limit.advice).toContain('second machine');
  });

  it('takes a late event loop as the generator limit (autocannon)', () => {
    const late = (rate: number): GeneratorLoad => ({ cpuCores: 0.5, workers: 1, eventLoopDelayMs: rate > 64 ? 45 : 2 });
    const { outcome } = drive({ start: 4, maxRate: 1000, p99LimitMs: 2000 }, target(100, late));
    expect(outcome.limit.limitedBy).toBe('generator');
    expect(outcome.limit.evidence).toContain('event loop ran 20 ms or more late');
  });

  it('takes dropped iterations while p99 stays flat as the generator limit (k6 short of VUs)', () => {
    const sim: Sim = (rate) => ({
      offered: rate,
      achieved: Math.min(rate, 200),
      p99: 6,
      errors: 0,
      dropped: Math.max(0, rate - 200),
      generator: { cpuCores: 0.6, workers: 2, insufficientVUs: rate > 200 ? 3 : 0 },
    });
    const { outcome } = drive({ start: 50, maxRate: 10_000, p99LimitMs: 2000 }, sim, 'k6');
    expect(outcome.limit.limitedBy).toBe('generator');
    expect(outcome.limit.evidence).toContain("while the target's p99 stayed flat (6 ms against 6 ms at 50/s)");
  });

  it('does not blame the generator for drops when p99 climbs', () => {
    const sim: Sim = (rate) =>
      rate <= 200
        ? { offered: rate, achieved: rate, p99: 6, errors: 0, dropped: 0, generator: { cpuCores: 0.4, workers: 2 } }
        : {
            offered: rate,
            achieved: 200,
            p99: 400,
            errors: 0,
            dropped: rate - 200,
            generator: { cpuCores: 0.4, workers: 2, insufficientVUs: 2 },
          };
    expect(drive({ start: 50, maxRate: 10_000, p99LimitMs: 2000 }, sim, 'k6').outcome.limit.limitedBy).toBe('target');
  });

  it('a first step that breaks ends the run below the documented rate (nothing to bisect)', () => {
    const { rates, outcome } = drive({ start: 4, maxRate: 1000, p99LimitMs: 2000 }, target(2));
    expect(rates).toEqual([4]);
    expect(outcome).toMatchObject({ knee: 0, limit: { limitedBy: 'target' } });
    expect(outcome.limit.evidence).toContain('already the first step');
  });

  it('is bounded by maxSteps', () => {
    const { rates, outcome } = drive({ start: 1, maxRate: 1_000_000, p99LimitMs: 2000, maxSteps: 5 }, target(1e9));
    expect(rates).toEqual([1, 2, 4, 8, 16]);
    expect(outcome.limit).toMatchObject({
      limitedBy: 'step-limit',
      evidence: 'no step broke up to 16/s in the 5 steps allowed',
    });
  });

  it('refuses a maximum below the start', () => {
    expect(() => new StepPlan({ start: 8, maxRate: 4, p99LimitMs: 1 }, 'k6')).toThrow(RangeError);
  });
});

describe('brokenBecause', () => {
  it.each([
    [{ offered: 10, achieved: 10, p99: 5, errors: 0, dropped: 0 }, undefined],
    [{ offered: 10, achieved: 9, p99: 5, errors: 0, dropped: 0 }, undefined],
    [{ offered: 10, achieved: 8, p99: 5, errors: 0, dropped: 0 }, 'achieved 8/s < 90 % of the offered 10/s'],
    [{ offered: 10, achieved: 10, p99: 5, errors: 1, dropped: 0 }, '1 failed operations'],
    [{ offered: 10, achieved: 10, p99: 2000, errors: 0, dropped: 0 }, 'p99 2000 ms >= 2000 ms'],
  ])('%j -> %s', (step, want) => {
    expect(brokenBecause(step, 2000)).toBe(want);
  });
});

describe('generatorBound', () => {
  it('needs a measurement: a step without generator figures is never blamed on the generator', () => {
    expect(generatorBound({ offered: 10, achieved: 1, p99: 5, errors: 0, dropped: 9 }, undefined)).toBeUndefined();
  });

  // a broken step of a shared 2-core machine: p99 climbed (so the k6 VU signal stays silent), k6 at 1.18 of its 2
  // cores (below the 85 % of its own cores), only the machine figures differ between the cases
  const first: SaturationStep = { offered: 64, achieved: 64, p99: 4, errors: 0, dropped: 0 };
  const broken = (machine: Partial<GeneratorLoad>, cpuCores = 1.18): SaturationStep => ({
    offered: 1024,
    achieved: 458,
    p99: 209,
    errors: 0,
    dropped: 5,
    generator: { cpuCores, workers: 2, cpuMicrosPerOp: 1215, insufficientVUs: 1, ...machine },
  });

  it('fires when the machine was saturated and the generator took half or more of its busy CPU', () => {
    const why = generatorBound(broken({ machineBusyCores: 1.9, machineCores: 2 }), first);
    expect(why).toContain("the machine was saturated: 1.9 of 2 cores busy, 1.18 of them the generator's");
    expect(why).toContain('machine 1.9 of 2 core(s) busy');
  });

  it.each([
    [
      'the autocannon-like case: machine 80 % busy, generator 0.3 cores',
      { machineBusyCores: 1.6, machineCores: 2 },
      0.3,
    ],
    [
      'a saturated machine whose busy CPU is mostly not the generator',
      { machineBusyCores: 1.95, machineCores: 2 },
      0.9,
    ],
    ['a generator-heavy machine below saturation', { machineBusyCores: 1.6, machineCores: 2 }, 1.18],
    ['no machine figures (no /proc/stat)', {}, 1.18],
    ['a busy figure without the core count', { machineBusyCores: 1.9 }, 1.18],
  ])('does not fire for %s', (_name, machine, cpuCores) => {
    expect(generatorBound(broken(machine, cpuCores), first)).toBeUndefined();
  });

  it('fires when the machine was saturated and the generator used more CPU than the measured target', () => {
    // the k6 run on the embedded server: k6 0.82 cores, the server's thread 0.55, the rest kernel and others
    const why = generatorBound(broken({ machineBusyCores: 1.9, machineCores: 2, targetCpuCores: 0.55 }, 0.82), first);
    expect(why).toContain(
      "the machine was saturated (1.9 of 2 cores busy) and the generator used more of it than the target: 0.82 core(s) against the target's 0.55",
    );
    expect(why).toContain('target CPU 0.55 core(s)');
  });

  it.each([
    ['the target used more CPU than the generator', { machineBusyCores: 1.9, machineCores: 2, targetCpuCores: 0.9 }],
    ['the same CPU for both', { machineBusyCores: 1.9, machineCores: 2, targetCpuCores: 0.82 }],
    [
      'the generator heavier but the machine not saturated',
      { machineBusyCores: 1.6, machineCores: 2, targetCpuCores: 0.4 },
    ],
  ])('does not fire on the target comparison when %s', (_name, machine) => {
    expect(generatorBound(broken(machine, 0.82), first)).toBeUndefined();
  });

  it('takes exactly half of the busy CPU and exactly 85 % of the cores as enough', () => {
    expect(generatorTookMachine({ cpuCores: 0.85, workers: 2, machineBusyCores: 1.7, machineCores: 2 })).toBe(
      "the machine was saturated: 1.7 of 2 cores busy, 0.85 of them the generator's",
    );
    expect(
      generatorTookMachine({ cpuCores: 0.84, workers: 2, machineBusyCores: 1.7, machineCores: 2 }),
    ).toBeUndefined();
    expect(
      generatorTookMachine({ cpuCores: 1.5, workers: 2, machineBusyCores: 1.69, machineCores: 2 }),
    ).toBeUndefined();
  });
});

describe('StepPlan on a machine the generator shares with the target', () => {
  /** The k6 run of the issue: the steps break from 768/s with k6 taking most of the saturated 2 cores. */
  const shared: Sim = (rate) => {
    const machineBusyCores = Math.min(1.98, rate / 500);
    const k6 = Math.min(1.3, rate * 0.0013);
    const gen: GeneratorLoad = { cpuCores: k6, workers: 2, machineBusyCores, machineCores: 2, insufficientVUs: 0 };
    return rate < 768
      ? { offered: rate, achieved: rate, p99: 5, errors: 0, dropped: 0, generator: gen }
      : { offered: rate, achieved: rate * 0.53, p99: 209, errors: 0, dropped: 5, generator: gen };
  };

  it('calls it generator, never "the generator had room", and advises another machine or autocannon', () => {
    const { rates, outcome } = drive({ start: 4, maxRate: 100_000, p99LimitMs: 2000 }, shared, 'k6');
    expect(rates.at(-1)).toBe(1024);
    expect(outcome.limit.limitedBy).toBe('generator');
    expect(outcome.limit.evidence).toContain(
      "the machine was saturated: 1.98 of 2 cores busy, 1.3 of them the generator's",
    );
    expect(outcome.limit.evidence).not.toContain('had room');
    expect(outcome.limit.advice).toContain('shares a saturated machine with the target');
    expect(outcome.limit.advice).toContain('run the generator on another machine than the target');
    expect(outcome.limit.advice).toContain('--engine autocannon');
  });

  it('calls it generator when k6 outweighs the measured target on the saturated machine (under half of it)', () => {
    // the embedded-server case: k6 43 % of the busy CPU, the server's thread a third less than k6
    const embedded: Sim = (rate) => {
      const gen: GeneratorLoad = {
        cpuCores: Math.min(0.85, rate * 0.0014),
        workers: 2,
        machineBusyCores: Math.min(1.96, rate / 300),
        machineCores: 2,
        targetCpuCores: Math.min(0.6, rate * 0.00075),
        insufficientVUs: 0,
      };
      return rate < 640
        ? { offered: rate, achieved: rate, p99: 6, errors: 0, dropped: 0, generator: gen }
        : { offered: rate, achieved: rate * 0.7, p99: 400, errors: 0, dropped: 30, generator: gen };
    };
    const { outcome } = drive({ start: 4, maxRate: 100_000, p99LimitMs: 2000 }, embedded, 'k6');
    expect(outcome.limit.limitedBy).toBe('generator');
    expect(outcome.limit.evidence).toContain('the generator used more of it than the target: 0.85 core(s)');
    expect(outcome.limit.advice).toContain('run the generator on another machine than the target');
  });

  it('keeps the autocannon-like run target-limited: the machine busy, the generator light', () => {
    const light: Sim = (rate) => {
      const gen: GeneratorLoad = {
        cpuCores: 0.3,
        workers: 1,
        eventLoopDelayMs: 2,
        machineBusyCores: 1.6,
        machineCores: 2,
      };
      return rate <= 1664
        ? { offered: rate, achieved: rate, p99: 5, errors: 0, dropped: 0, generator: gen }
        : { offered: rate, achieved: 1664, p99: 900, errors: 0, dropped: rate - 1664, generator: gen };
    };
    const { outcome } = drive({ start: 4, maxRate: 100_000, p99LimitMs: 2000 }, light);
    expect(outcome.limit.limitedBy).toBe('target');
    expect(outcome.limit.evidence).toContain(
      'the generator had room (generator CPU 0.3 of 1 core(s), machine 1.6 of 2 core(s) busy',
    );
    // 80 % busy is not saturated: no word about the machine
    expect(outcome.limit.evidence).not.toContain('the machine was saturated');
  });

  it('says so when the machine was saturated by the target or other work, the generator light: still target', () => {
    const crowded: Sim = (rate) => {
      const gen: GeneratorLoad = { cpuCores: 0.35, workers: 2, machineBusyCores: 2, machineCores: 2 };
      return rate <= 224
        ? { offered: rate, achieved: rate, p99: 30, errors: 0, dropped: 0, generator: gen }
        : { offered: rate, achieved: 168, p99: 730, errors: 0, dropped: 31, generator: gen };
    };
    const { outcome } = drive({ start: 4, maxRate: 100_000, p99LimitMs: 2000 }, crowded, 'k6');
    expect(outcome.limit.limitedBy).toBe('target');
    expect(outcome.limit.evidence).toContain(
      "the machine was saturated (2 of 2 cores busy, 0.35 of them the generator's), mostly by the target or other work on it",
    );
  });

  it('for autocannon advises another machine and says it is already the cheaper engine', () => {
    expect(generatorAdvice('autocannon', true)).toContain('autocannon is already the cheaper engine');
    expect(generatorAdvice('autocannon', true)).not.toContain('--engine');
  });
});

describe('niceRate', () => {
  it.each([
    [3.5, 4],
    [384, 384],
    [1537, 1536],
    [100_001, 98_304], // unit 2^(16-4) = 4096: 24 x 4096,
  ])('%d -> %d', (rate, want) => {
    expect(niceRate(rate)).toBe(want);
  });
});
