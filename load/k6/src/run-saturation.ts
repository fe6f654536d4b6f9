/**
 * The stepped run of a rate scenario on k6: one short k6 process per step, the rates chosen by the shared
 * StepPlan (doubling, then bisection between the last good and the first broken step), k6's own CPU time read
 * from /proc/<pid>/stat over each step and its "Insufficient VUs" warnings counted, so that a knee of k6 itself is
 * reported as `generator`, not as the target's.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { documentedFigure } from '../lib/plan.js';
import { judgeKnee, type SaturationOptions, StepPlan } from '../lib/step-plan.js';
import type { GeneratorLoad, LoadScenarioResult, SaturationStep } from '../scenarios/catalogue.js';
import type { K6GeneratorUse } from './k6-process.js';
import type { K6ScenarioOptions } from './run-options.js';
import { runK6ScenarioDetailed } from './run-scenario.js';

/** Cores k6 can use: GOMAXPROCS when set, else the CPUs this process may run on (Go's default). */
export function k6Workers(env: NodeJS.ProcessEnv = process.env): number {
  const set = Number(env.GOMAXPROCS);
  return Number.isInteger(set) && set > 0 ? set : availableParallelism();
}

/** k6's load during a step from what the process watcher measured. */
export function k6Load(use: K6GeneratorUse, operations: number, workers: number): GeneratorLoad {
  return {
    cpuCores: Math.round((use.cpuMicros / 1e6 / use.seconds) * 1000) / 1000,
    workers,
    ...(operations > 0 ? { cpuMicrosPerOp: Math.round(use.cpuMicros / operations) } : {}),
    insufficientVUs: use.insufficientVUs,
    ...(use.machine ? { machineBusyCores: use.machine.busyCores, machineCores: use.machine.cores } : {}),
    ...(use.targetCpuMicros !== undefined
      ? { targetCpuCores: Math.round((use.targetCpuMicros / 1e6 / use.seconds) * 1000) / 1000 }
      : {}),
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Runs the steps of `sat` one k6 process each and returns the curve, the knee and what limited it. */
export async function runK6Saturation(options: K6ScenarioOptions, sat: SaturationOptions): Promise<LoadScenarioResult> {
  const plan = new StepPlan(sat, 'k6');
  const workers = k6Workers({ ...process.env, ...options.env });
  const p99LimitMs = sat.p99LimitMs;
  let requests = 0;
  let seconds = 0;
  let top = 0;
  let latencyMs = { p50: 0, p90: 0, p95: 0, p99: 0, max: 0 };
  let checks = { passes: 0, fails: 0 };
  let failure: string | undefined;
  for (let i = 0, rate = plan.next(); rate !== undefined && !options.signal?.aborted; i++, rate = plan.next()) {
    const run = await runK6ScenarioDetailed(
      { ...options, saturation: undefined, outDir: join(options.outDir, `step-${i + 1}-${rate}`) },
      { rate, seconds: sat.stageSeconds, p99LimitMs },
    );
    const r = run.result;
    const measured = r.saturation?.[0];
    if (measured === undefined) {
      // no summary (k6 crashed, setup failed): the run cannot go on
      failure = r.reason;
      break;
    }
    requests += r.requests;
    seconds += r.durationSeconds;
    if (rate >= top) {
      top = rate;
      latencyMs = r.latencyMs;
    }
    checks = {
      passes: checks.passes + (r.checks?.passes ?? 0),
      fails: checks.fails + (r.checks?.fails ?? 0),
    };
    // per request sent (one per operation for invoices and transactions): a step that breaks is cut short by its
    // abortOnFail gate, and the requests of its interrupted iterations cost CPU too
    const step: SaturationStep = plan.record({
      ...measured,
      ...(run.generator ? { generator: k6Load(run.generator, r.requests, workers) } : {}),
    });
    options.onOutput?.(
      `${options.scenario}: ${step.offered}/s -> ${step.achieved}/s, p99 ${step.p99} ms, ${step.errors} errors, ${step.dropped ?? 0} dropped${step.generator ? `, k6 CPU ${step.generator.cpuCores} of ${workers} cores${step.generator.machineBusyCores === undefined ? '' : `, machine ${step.generator.machineBusyCores} of ${step.generator.machineCores} cores busy`}, ${step.generator.insufficientVUs ?? 0} "Insufficient VUs"` : ''}\n`,
    );
  }
  const outcome = plan.outcome(options.signal?.aborted === true);
  const judged = judgeKnee(documentedFigure(options.scenario), {
    best: outcome.knee,
    why: outcome.why,
    limit: outcome.limit,
  });
  const failed = failure !== undefined && outcome.steps.length === 0;
  return {
    scenario: options.scenario,
    engine: 'k6',
    offeredRate: outcome.steps.reduce((max, s) => Math.max(max, s.offered), 0),
    achievedRate: outcome.knee,
    latencyMs,
    requests,
    errors: outcome.steps.reduce((n, s) => n + s.errors, 0),
    droppedIterations: outcome.steps.reduce((n, s) => n + (s.dropped ?? 0), 0),
    durationSeconds: round(seconds),
    checks,
    verdict: failed ? 'fail' : judged.verdict,
    reason: failed
      ? `the stepped run could not start: ${failure}`
      : `${judged.reason}${failure ? `; a step could not run: ${failure}` : ''}`,
    saturation: outcome.steps,
    saturationLimit: outcome.limit,
  };
}
