import { type Latency, type SaturationLimit, type SaturationStep, StepPlan } from '@erpcert/load-k6';
import { measureGenerator } from './generator-load.js';
import { NO_LATENCY } from './latency-histogram.js';
import { connectionsFor, runPlan, type ScenarioRequest } from './open-model.js';
import type { SaturationOptions } from './options.js';

/** The steps run, the knee (best clean achieved rate) and what stopped the stepping. */
export interface SaturationCurve {
  readonly steps: readonly SaturationStep[];
  readonly best: number;
  /** Why the stepping stopped, in words. */
  readonly why: string;
  readonly limit: SaturationLimit;
  /** Requests sent, failed operations and dropped iterations over all steps. */
  readonly requests: number;
  readonly errors: number;
  readonly dropped: number;
  /** Latency percentiles of the highest step run. */
  readonly latencyMs: Latency;
  readonly seconds: number;
}

export interface SaturationPlan {
  readonly origin: string;
  /** Connect here instead of resolving the origin's host (LoadRunOptions.connectAddress). */
  readonly connectAddress?: string;
  /** A fresh request sequence for `count` operations (fresh bodies and tags per step). */
  sequence(count: number, step: number): ScenarioRequest[];
  readonly options: SaturationOptions;
  readonly maxConnections: number;
  readonly timeoutSeconds: number;
  readonly signal?: AbortSignal;
  readonly onStep?: (step: SaturationStep) => void;
  /** The target's CPU time so far, when it can be read (LoadRunOptions.targetCpuMicros). */
  readonly targetCpuMicros?: () => number | undefined;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Steps the offered rate upwards in short open-model runs as the shared StepPlan asks (doubling, then bisection
 * between the last good and the first broken step), measuring the generator's own CPU and event-loop delay at
 * every step, so that a knee of the generator is not reported as the target's.
 */
export async function saturate(plan: SaturationPlan): Promise<SaturationCurve> {
  const o = plan.options;
  const steps = new StepPlan(o, 'autocannon');
  let requests = 0;
  let seconds = 0;
  let latencyMs: Latency = NO_LATENCY;
  let top = 0;
  for (let i = 0, rate = steps.next(); rate !== undefined && !plan.signal?.aborted; i++, rate = steps.next()) {
    const sequence = plan.sequence(rate * o.stageSeconds, i);
    const generator = measureGenerator(plan.targetCpuMicros);
    const m = await runPlan({
      origin: plan.origin,
      ...(plan.connectAddress !== undefined ? { connectAddress: plan.connectAddress } : {}),
      sequence,
      rate,
      seconds: o.stageSeconds,
      connections: connectionsFor(rate, plan.maxConnections),
      timeoutSeconds: plan.timeoutSeconds,
      ...(plan.signal ? { signal: plan.signal } : {}),
    });
    const load = generator.stop(m.operations);
    requests += m.sent;
    seconds += m.wallSeconds;
    if (m.responses > 0 && rate >= top) {
      latencyMs = m.latencyMs;
      top = rate;
    }
    const step = steps.record({
      offered: rate,
      achieved: round(m.succeeded / o.stageSeconds),
      p99: m.latencyMs.p99,
      errors: m.errors,
      dropped: m.dropped,
      generator: load,
    });
    plan.onStep?.(step);
  }
  const outcome = steps.outcome(plan.signal?.aborted === true);
  return {
    steps: outcome.steps,
    best: outcome.knee,
    why: outcome.why,
    limit: outcome.limit,
    requests,
    errors: outcome.steps.reduce((n, s) => n + s.errors, 0),
    dropped: outcome.steps.reduce((n, s) => n + (s.dropped ?? 0), 0),
    latencyMs,
    seconds: Math.round(seconds * 100) / 100,
  };
}
