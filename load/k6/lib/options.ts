/**
 * k6 options of a plan: arrival-rate executors (open model) for the rate scenarios, one bounded VU for the
 * reads, the thresholds of the plan, and bounds on everything (gracefulStop, maxDuration, setup/teardown time).
 */
import type { Options } from 'k6/options';
import type { RunSettings } from './env.ts';
import { type ScenarioPlan, stageScenario, thresholdsOf } from './plan.ts';

const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'];

/** k6 `rate` + `timeUnit` for a rate that may be fractional (0.5/s is 1 per 2 s; 2.5/s is 2500 per 1000 s). */
export function arrivals(ratePerSecond: number): { rate: number; timeUnit: string } {
  if (Number.isInteger(ratePerSecond)) return { rate: ratePerSecond, timeUnit: '1s' };
  return { rate: Math.round(ratePerSecond * 1000), timeUnit: '1000s' };
}

/**
 * The window of `seconds` at `rate` arrivals per second as a k6 duration. k6 starts arrivals at 0, 1/R, 2/R, ...
 * while the duration runs, and one due at exactly the end races with the end of the scenario. Ending half a
 * period early gives exactly R x seconds arrivals, each owning one 1/R slot of the window. k6 refuses arrival-rate
 * durations under 1 s, so a window of 1 s or less stays 1 s (and may start one extra arrival at its end).
 */
export function arrivalWindow(seconds: number, rate: number): string {
  return `${Math.max(1000, Math.round(seconds * 1000 - 500 / rate))}ms`;
}

/** Options of a rate plan; `requestsPerIteration` bounds how long a started iteration may take to finish. */
export function rateOptions(plan: ScenarioPlan, settings: RunSettings, requestsPerIteration: number): Options {
  const timeoutSeconds = settings.timeoutMs / 1000;
  const gracefulStop = `${Math.ceil(timeoutSeconds * requestsPerIteration) + 1}s`;
  const vus = (rate: number): { preAllocatedVUs: number; maxVUs: number } => {
    const maxVUs = settings.maxVUs ?? Math.min(100, Math.ceil(rate * timeoutSeconds * requestsPerIteration) + 2);
    return { preAllocatedVUs: Math.min(maxVUs, Math.ceil(rate) + 1), maxVUs };
  };
  const scenarios: NonNullable<Options['scenarios']> = {};
  if (plan.stages !== undefined) {
    for (const stage of plan.stages) {
      scenarios[stageScenario(stage.index)] = {
        executor: 'constant-arrival-rate',
        ...arrivals(stage.offered),
        duration: arrivalWindow(stage.seconds, stage.offered),
        startTime: `${stage.startSeconds}s`,
        ...vus(stage.offered),
        gracefulStop,
        tags: { stage: String(stage.index) },
      };
    }
  } else {
    const rate = plan.offeredRate ?? 1;
    scenarios[plan.scenario] = {
      executor: 'constant-arrival-rate',
      ...arrivals(rate),
      duration: arrivalWindow(plan.durationSeconds ?? 1, rate),
      ...vus(rate),
      gracefulStop,
    };
  }
  return common(plan, scenarios, settings);
}

/** Options of a read plan: one VU, one iteration per batch size, bounded by maxDuration. */
export function readOptions(plan: ScenarioPlan, settings: RunSettings): Options {
  const read = plan.read!;
  const requests = read.batches.reduce((sum, batch) => sum + Math.ceil(read.records / batch), 0);
  const maxSeconds = Math.ceil((requests * (settings.timeoutMs + read.pauseMs)) / 1000) + 5;
  return common(
    plan,
    {
      [plan.scenario]: {
        executor: 'per-vu-iterations',
        vus: 1,
        iterations: read.batches.length,
        maxDuration: `${maxSeconds}s`,
        gracefulStop: '0s',
      },
    },
    settings,
  );
}

/** The host name of a target URL as k6 requests it (an IPv6 literal keeps its brackets). */
function hostOf(target: string): string | undefined {
  return /^https?:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]+)/i.exec(target)?.[1];
}

/**
 * A run pinned to one address (`connectAddress`, which the hub's target guard checked): k6's `hosts` maps the
 * target's name to it, so no connection resolves the name again (a rebinding name cannot move the run), and
 * `maxRedirects: 0`, so a 3xx is the answer it is and no request follows a `Location` elsewhere. An address literal
 * target needs no mapping: k6 connects to it as it stands.
 */
export function pinnedOptions(settings: RunSettings): Options {
  if (settings.connectAddress === undefined) return {};
  const host = hostOf(settings.target);
  const literal = host === undefined || host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host);
  return { ...(literal ? {} : { hosts: { [host]: settings.connectAddress } }), maxRedirects: 0 };
}

function common(plan: ScenarioPlan, scenarios: NonNullable<Options['scenarios']>, settings: RunSettings): Options {
  return {
    ...pinnedOptions(settings),
    scenarios,
    thresholds: thresholdsOf(plan) as Options['thresholds'],
    summaryTrendStats: TREND_STATS,
    setupTimeout: '60s',
    teardownTimeout: '60s',
    userAgent: 'erpcert-load-k6/0.1',
  };
}
