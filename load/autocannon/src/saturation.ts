import type { Latency } from '@erpcert/load-k6';
import { connectionsFor, runPlan, type ScenarioRequest } from './open-model.js';
import type { SaturationOptions } from './options.js';

/** One step of the saturation curve (the `saturation` entries of LoadScenarioResult). */
export interface SaturationStep {
  readonly offered: number;
  readonly achieved: number;
  readonly p99: number;
  readonly errors: number;
  readonly dropped: number;
}

/** The steps run, the first broken one (if any) and the best clean achieved rate. */
export interface SaturationCurve {
  readonly steps: readonly SaturationStep[];
  readonly broken?: SaturationStep;
  readonly best: number;
  /** Why the stepping stopped, in words. */
  readonly why: string;
  /** Requests sent, failed operations and dropped iterations over all steps. */
  readonly requests: number;
  readonly errors: number;
  readonly dropped: number;
  /** Latency percentiles of the last step run (the highest load). */
  readonly latencyMs: Latency;
  readonly seconds: number;
}

export interface SaturationPlan {
  readonly origin: string;
  /** A fresh request sequence for `count` operations (fresh bodies and tags per step). */
  sequence(count: number, step: number): ScenarioRequest[];
  readonly options: SaturationOptions;
  readonly maxConnections: number;
  readonly timeoutSeconds: number;
  readonly signal?: AbortSignal;
  readonly onStep?: (step: SaturationStep) => void;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Why a step broke, or undefined when it held (errors, drops, p99 at or over the limit; as the k6 engine). */
export function brokenBecause(step: SaturationStep, p99LimitMs: number): string | undefined {
  const why = [
    step.errors > 0 ? `${step.errors} failed operations` : '',
    step.dropped > 0 ? `${step.dropped} dropped iterations` : '',
    step.p99 >= p99LimitMs ? `p99 ${step.p99} ms >= ${p99LimitMs} ms` : '',
  ].filter((x) => x !== '');
  return why.length > 0 ? why.join(', ') : undefined;
}

/**
 * Steps the offered rate upwards (`start`, `start + step`, ...) in short open-model runs and stops after the
 * first step that breaks: that step is kept, it is where the curve bends.
 */
export async function saturate(plan: SaturationPlan): Promise<SaturationCurve> {
  const o = plan.options;
  const limit = o.p99LimitMs ?? 2000;
  const steps: SaturationStep[] = [];
  let requests = 0;
  let seconds = 0;
  let latencyMs: Latency = { p50: 0, p90: 0, p99: 0, max: 0 };
  let broken: SaturationStep | undefined;
  let reason: string | undefined;
  for (let i = 0; i < o.stages && !plan.signal?.aborted; i++) {
    const rate = Math.max(1, Math.round(o.start + i * o.step));
    const m = await runPlan({
      origin: plan.origin,
      sequence: plan.sequence(rate * o.stageSeconds, i),
      rate,
      seconds: o.stageSeconds,
      connections: connectionsFor(rate, plan.maxConnections),
      timeoutSeconds: plan.timeoutSeconds,
      ...(plan.signal ? { signal: plan.signal } : {}),
    });
    requests += m.sent;
    seconds += m.wallSeconds;
    if (m.responses > 0) latencyMs = m.latencyMs;
    const step: SaturationStep = {
      offered: rate,
      achieved: round(m.succeeded / o.stageSeconds),
      p99: m.latencyMs.p99,
      errors: m.errors,
      dropped: m.dropped,
    };
    steps.push(step);
    plan.onStep?.(step);
    reason = brokenBecause(step, limit);
    if (reason) {
      broken = step;
      break;
    }
  }
  const clean = steps.filter((s) => s !== broken);
  const best = clean.reduce((max, s) => Math.max(max, s.achieved), 0);
  const top = steps[steps.length - 1]?.offered ?? 0;
  const why = broken
    ? `the ${broken.offered}/s step broke (${reason})`
    : plan.signal?.aborted
      ? 'interrupted'
      : `no step broke up to ${top}/s`;
  return {
    steps,
    ...(broken ? { broken } : {}),
    best,
    why,
    requests,
    errors: steps.reduce((n, s) => n + s.errors, 0),
    dropped: steps.reduce((n, s) => n + s.dropped, 0),
    latencyMs,
    seconds: Math.round(seconds * 100) / 100,
  };
}
