/**
 * What one k6 run of a scenario does and what it is judged by: the offered rate and window (or the stepped
 * saturation stages), the reads at each batch size, and the gating thresholds taken from the documented figures
 * (record-rest-api.md §8 "Limits"). Pure data and functions (no k6 import): the scenario scripts build their
 * options from it, handleSummary and the Node side compute the result from it.
 */
import { type DocumentedFigure, type ScenarioName, scenarios } from '../scenarios/catalogue.ts';
import {
  CHECKS,
  DROPPED,
  INFO_EXPRESSIONS,
  OP_ERRORS,
  OPS,
  READ_BYTES,
  READ_MS,
  READ_RECORDS,
  READ_WALL_MS,
  REQ_DURATION,
  REQS,
  submetric,
} from './names.ts';

/** A threshold that decides the verdict; it becomes one JUnit testcase. */
export interface Gate {
  readonly metric: string;
  readonly expression: string;
  readonly title: string;
  readonly rule?: string;
  /** Saturation stage this gate watches; a broken stage ends the stepped run (abortOnFail). */
  readonly stage?: number;
}

/** One step of the saturation variant: a constant-arrival-rate scenario tagged `stage`. */
export interface Stage {
  readonly index: number;
  readonly offered: number;
  readonly startSeconds: number;
  readonly seconds: number;
}

export interface ReadPlan {
  readonly records: number;
  readonly batches: readonly number[];
  readonly pauseMs: number;
  /** `fields` of the read (read-fields: 10 fields); undefined reads every field. */
  readonly fields?: readonly string[];
}

export interface ScenarioPlan {
  readonly scenario: ScenarioName;
  readonly documented: DocumentedFigure;
  readonly mode: 'rate' | 'read';
  /** Rate mode: offered arrivals per second and the measured window in seconds. */
  readonly offeredRate?: number;
  readonly durationSeconds?: number;
  /** Rate mode, saturation variant: the steps (offeredRate/durationSeconds are then the whole ramp). */
  readonly stages?: readonly Stage[];
  readonly p99LimitMs?: number;
  readonly read?: ReadPlan;
  readonly gates: readonly Gate[];
  /** Rate mode: the settings the plan was made from (to rebuild the whole run's plan from a runner's). */
  readonly rateInput?: RateInput;
  /** Number of k6 instances sharing the run, when more than one (see RateInput.parallelism). */
  readonly parallelism?: number;
  /** Sub-metrics kept in the summary through an always-true threshold (INFO_EXPRESSIONS). */
  readonly info: readonly string[];
}

/** The catalogue entry of a scenario. */
export function documentedFigure(scenario: ScenarioName): DocumentedFigure {
  const entry = scenarios.find((s) => s.name === scenario);
  if (entry === undefined) throw new Error(`unknown scenario "${scenario}"`);
  return entry.documented;
}

/** Gates every scenario has: checks counted, no failed operation. */
function commonGates(): Gate[] {
  return [
    { metric: CHECKS, expression: 'rate==1.0', title: 'every response check holds' },
    { metric: OP_ERRORS, expression: 'count==0', title: 'no failed operation (a fast error is not throughput)' },
  ];
}

/** Settings of a rate plan. */
export interface RateInput {
  readonly offeredRate: number;
  readonly durationSeconds: number;
  readonly saturation?: {
    readonly start: number;
    readonly step: number;
    readonly stages: number;
    readonly stageSeconds: number;
    readonly p99LimitMs: number;
  };
  /**
   * Number of k6 instances sharing the run (k6-operator `parallelism`, execution segments). Each judges its
   * share: the count gate asks for 1/N of the documented operations, and its verdict is `info` at best; the
   * run's verdict comes from the merged summaries (src/merge-summaries.ts). @defaultValue 1
   */
  readonly parallelism?: number;
}

/** Plan of a rate scenario: constant-arrival-rate at `offeredRate` for `durationSeconds`, or stepped stages. */
export function ratePlan(scenario: ScenarioName, input: RateInput): ScenarioPlan {
  const documented = documentedFigure(scenario);
  const min = documented.ratePerSecond?.min;
  if (input.saturation !== undefined) {
    const sat = input.saturation;
    const stages: Stage[] = [];
    for (let i = 0; i < sat.stages; i++) {
      stages.push({
        index: i,
        offered: sat.start + i * sat.step,
        startSeconds: i * sat.stageSeconds,
        seconds: sat.stageSeconds,
      });
    }
    const gates: Gate[] = stages.flatMap((s) => [
      {
        metric: submetric(OP_ERRORS, 'stage', s.index),
        expression: 'count==0',
        title: `stage ${s.index} (${s.offered}/s): no failed operation`,
        stage: s.index,
      },
      {
        metric: submetric(DROPPED, 'scenario', stageScenario(s.index)),
        expression: 'count==0',
        title: `stage ${s.index} (${s.offered}/s): no dropped iteration`,
        stage: s.index,
      },
      {
        metric: submetric(REQ_DURATION, 'stage', s.index),
        expression: `p(99)<${sat.p99LimitMs}`,
        title: `stage ${s.index} (${s.offered}/s): p99 under ${sat.p99LimitMs} ms`,
        stage: s.index,
      },
    ]);
    return {
      scenario,
      documented,
      mode: 'rate',
      rateInput: input,
      ...((input.parallelism ?? 1) > 1 ? { parallelism: input.parallelism } : {}),
      offeredRate: stages[stages.length - 1]?.offered ?? sat.start,
      durationSeconds: sat.stages * sat.stageSeconds,
      stages,
      p99LimitMs: sat.p99LimitMs,
      gates,
      info: stages.map((s) => submetric(OPS, 'stage', s.index)),
    };
  }
  const gates: Gate[] = [
    ...commonGates(),
    { metric: DROPPED, expression: 'count==0', title: 'no dropped iteration (the offered rate was kept)' },
  ];
  const parallelism = input.parallelism ?? 1;
  if (min !== undefined) {
    // one runner of N gets every N-th arrival: floor, so that every runner of an even split can hold its share
    const required =
      parallelism > 1
        ? Math.floor((min * input.durationSeconds) / parallelism)
        : Math.ceil(min * input.durationSeconds);
    const share = parallelism > 1 ? `, this runner's 1/${parallelism} share` : '';
    gates.push({
      metric: OPS,
      expression: `count>=${required}`,
      title: `at least ${min} checked operations per second over ${input.durationSeconds} s${share} (documented: ${documented.quote})`,
      rule: documented.rule,
    });
  }
  return {
    scenario,
    documented,
    mode: 'rate',
    offeredRate: input.offeredRate,
    durationSeconds: input.durationSeconds,
    gates,
    info: [OPS],
    rateInput: input,
    ...(parallelism > 1 ? { parallelism } : {}),
  };
}

/** The plan of the whole run a runner's plan is a share of (itself when it is not shared). */
export function wholePlan(plan: ScenarioPlan): ScenarioPlan {
  if (plan.parallelism === undefined || plan.rateInput === undefined) return plan;
  return ratePlan(plan.scenario, { ...plan.rateInput, parallelism: 1 });
}

/** Plan of a read scenario: `records` records in offset/limit batches of each size (§4 rule 12, §8). */
export function readPlan(scenario: ScenarioName, read: ReadPlan): ScenarioPlan {
  const documented = documentedFigure(scenario);
  const seconds = documented.read?.seconds;
  const gates: Gate[] = [...commonGates()];
  const info: string[] = [];
  for (const batch of read.batches) {
    gates.push({
      metric: submetric(READ_RECORDS, 'batch', batch),
      expression: `count>=${read.records}`,
      title: `${read.records} records read in batches of ${batch}`,
    });
    if (seconds !== undefined) {
      gates.push({
        metric: submetric(READ_MS, 'batch', batch),
        expression: `count<=${seconds * 1000}`,
        title: `batches of ${batch}: request time within ${seconds} s (documented: ${documented.quote})`,
        rule: documented.rule,
      });
    }
    info.push(submetric(READ_WALL_MS, 'batch', batch), submetric(READ_BYTES, 'batch', batch));
  }
  return { scenario, documented, mode: 'read', read, gates, info };
}

/** k6 scenario name of a saturation stage (dropped_iterations carries the scenario tag, not custom tags). */
export function stageScenario(index: number): string {
  return `stage_${index}`;
}

/**
 * An always-true threshold expression on erp_reqs that encodes the plan (FNV-1a of its settings). `k6 archive`
 * freezes the options but the script's init code runs again with the run-time environment: handleSummary checks
 * that the options k6 ran carry the fingerprint of the plan it judges by, so changed settings cannot go unseen.
 */
export function planFingerprint(plan: ScenarioPlan): string {
  const text = JSON.stringify([
    plan.scenario,
    plan.offeredRate,
    plan.durationSeconds,
    plan.stages,
    plan.p99LimitMs,
    plan.read,
  ]);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `count<${1_000_000_000 + hash}`;
}

/** Threshold value of k6 options: a gate of a saturation stage aborts the run when it fails. */
export type ThresholdSpec = string | { threshold: string; abortOnFail: boolean; delayAbortEval?: string };

/** The k6 `thresholds` option of a plan: every gate, plus always-true entries that keep the info sub-metrics. */
export function thresholdsOf(plan: ScenarioPlan): Record<string, ThresholdSpec[]> {
  const out: Record<string, ThresholdSpec[]> = {};
  const add = (metric: string, spec: ThresholdSpec): void => {
    out[metric] = [...(out[metric] ?? []), spec];
  };
  for (const gate of plan.gates) {
    add(
      gate.metric,
      gate.stage === undefined
        ? gate.expression
        : { threshold: gate.expression, abortOnFail: true, delayAbortEval: '1s' },
    );
  }
  add(REQS, planFingerprint(plan));
  for (const metric of plan.info) {
    add(metric, metric.startsWith(REQ_DURATION) ? INFO_EXPRESSIONS[1]! : INFO_EXPRESSIONS[0]!);
  }
  return out;
}
