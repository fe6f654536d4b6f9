/**
 * From a k6 summary to the engine-neutral `LoadScenarioResult`, with the verdict computed from the documented
 * figures (record-rest-api.md §8). Pure: runs inside k6's handleSummary and in Node (merged segment summaries).
 */
import type { Latency, LoadScenarioResult, ReadFigure } from '../scenarios/catalogue.ts';
import {
  CHECKS,
  DROPPED,
  OP_ERRORS,
  OPS,
  READ_BYTES,
  READ_MS,
  READ_RECORDS,
  READ_WALL_MS,
  REQ_DURATION,
  REQS,
  RESPONSE_BYTES,
  submetric,
} from './names.ts';
import { planFingerprint, type ScenarioPlan, type Stage, stageScenario } from './plan.ts';
import { brokenBecause } from './step-plan.ts';
import { counterCount, type K6SummaryData, stat } from './summary-data.ts';

type Step = NonNullable<LoadScenarioResult['saturation']>[number];

const round = (value: number, digits = 3): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/** p50/p90/p95/p99/max of a trend in milliseconds (0 when it has no samples). */
export function latencyOf(data: K6SummaryData, metric: string): Latency {
  return {
    p50: round(stat(data, metric, 'med') ?? stat(data, metric, 'p(50)') ?? 0),
    p90: round(stat(data, metric, 'p(90)') ?? 0),
    p95: round(stat(data, metric, 'p(95)') ?? 0),
    p99: round(stat(data, metric, 'p(99)') ?? 0),
    max: round(stat(data, metric, 'max') ?? 0),
  };
}

/** Every gate with the outcome k6 reported; a gate whose metric is missing from the summary did not hold. */
export function gateOutcomes(plan: ScenarioPlan, data: K6SummaryData): NonNullable<LoadScenarioResult['thresholds']> {
  return plan.gates.map((gate) => ({
    metric: gate.metric,
    expression: gate.expression,
    title: gate.title,
    ok: data.metrics[gate.metric]?.thresholds?.[gate.expression]?.ok ?? false,
  }));
}

function stepOf(data: K6SummaryData, stage: Stage): Step & { ran: boolean } {
  const ops = counterCount(data, submetric(OPS, 'stage', stage.index));
  const errors = counterCount(data, submetric(OP_ERRORS, 'stage', stage.index));
  const dropped = counterCount(data, submetric(DROPPED, 'scenario', stageScenario(stage.index)));
  return {
    offered: stage.offered,
    achieved: round(ops / stage.seconds),
    p99: round(stat(data, submetric(REQ_DURATION, 'stage', stage.index), 'p(99)') ?? 0),
    errors,
    dropped,
    ran: ops + errors + dropped > 0,
  };
}

/** Computes the result of one run of `plan` from its summary (a runner's share: `info` unless it failed). */
export function computeResult(plan: ScenarioPlan, data: K6SummaryData): LoadScenarioResult {
  const result = judge(plan, data);
  if (plan.parallelism === undefined) return result;
  const part = `one of ${plan.parallelism} runners (merge their summaries for the verdict)`;
  return {
    ...result,
    verdict: result.verdict === 'fail' ? 'fail' : 'info',
    reason: `${part}; this runner: ${result.reason}`,
  };
}

/** A runner of N shares the documented minimum: it must reach 1/N of it. */
function shareOf(plan: ScenarioPlan, min: number | undefined): number | undefined {
  return min === undefined ? undefined : round(min / (plan.parallelism ?? 1));
}

function judge(plan: ScenarioPlan, data: K6SummaryData): LoadScenarioResult {
  const checks = { passes: stat(data, CHECKS, 'passes') ?? 0, fails: stat(data, CHECKS, 'fails') ?? 0 };
  const base = {
    scenario: plan.scenario,
    engine: 'k6' as const,
    latencyMs: latencyOf(data, REQ_DURATION),
    requests: counterCount(data, REQS),
    errors: counterCount(data, OP_ERRORS),
    droppedIterations: counterCount(data, DROPPED),
    durationSeconds: round(data.state.testRunDurationMs / 1000),
    checks,
    thresholds: gateOutcomes(plan, data),
  };
  const failures: string[] = [];
  const ranWith = data.metrics[REQS]?.thresholds;
  const mismatch =
    ranWith !== undefined && ranWith[planFingerprint(plan)] === undefined
      ? 'the settings at run time differ from the options k6 ran (a k6 archive freezes rate, duration, batches and stages: set them when archiving)'
      : undefined;
  if (mismatch !== undefined) failures.push(mismatch);
  if (checks.fails > 0) failures.push(`${checks.fails} of ${checks.passes + checks.fails} response checks failed`);
  if (base.errors > 0) failures.push(`${base.errors} operations failed`);

  if (plan.mode === 'read') return readResult(plan, data, base, failures);

  if (plan.stages !== undefined) {
    // failed operations and checks are expected at the step that breaks; only a changed plan fails the run itself
    const result = saturationResult(plan, data, base);
    return mismatch === undefined ? result : { ...result, verdict: 'fail', reason: `${mismatch}; ${result.reason}` };
  }

  const offered = plan.offeredRate ?? 0;
  const seconds = plan.durationSeconds ?? 0;
  const ops = counterCount(data, OPS);
  const achieved = seconds > 0 ? round(ops / seconds) : 0;
  if (base.droppedIterations > 0) {
    failures.push(
      `${base.droppedIterations} iterations dropped (no free VU: the target answers too slowly for the offered rate)`,
    );
  }
  const min = shareOf(plan, plan.documented.ratePerSecond?.min);
  const measured = `${achieved}/s checked operations (offered ${offered}/s for ${seconds} s, ${ops} operations)`;
  const bytes = counterCount(data, RESPONSE_BYTES);
  const common = {
    ...base,
    offeredRate: offered,
    achievedRate: achieved,
    ...(ops > 0 ? { bytesPerRecord: round(bytes / ops, 1) } : {}),
  };
  if (min === undefined) {
    return failures.length > 0
      ? { ...common, verdict: 'fail', reason: `${failures.join('; ')}; ${measured}` }
      : { ...common, verdict: 'info', reason: `no documented figure; ${measured}, every check held` };
  }
  if (achieved < min) failures.unshift(`achieved ${achieved}/s is below the documented ${min}/s`);
  const failedGates = base.thresholds.filter((t) => !t.ok);
  if (failures.length === 0 && failedGates.length > 0) {
    failures.push(`threshold ${failedGates.map((t) => `${t.metric} ${t.expression}`).join(', ')} did not hold`);
  }
  return failures.length > 0
    ? { ...common, verdict: 'fail', reason: `${failures.join('; ')}; ${measured}` }
    : { ...common, verdict: 'pass', reason: `${measured} >= documented ${min}/s (${plan.documented.quote})` };
}

function saturationResult(
  plan: ScenarioPlan,
  data: K6SummaryData,
  base: Omit<LoadScenarioResult, 'verdict' | 'reason'>,
): LoadScenarioResult {
  const limit = plan.p99LimitMs ?? Number.POSITIVE_INFINITY;
  const all = (plan.stages ?? []).map((stage) => ({ index: stage.index, ...stepOf(data, stage) }));
  const ran = new Set(all.filter((s) => s.ran).map((s) => s.index));
  const saturation = all.filter((s) => s.ran).map(({ ran: _ran, index: _index, ...step }) => step);
  // gates of steps the run never reached (it stops at the first broken step) are left out, not counted as held
  const thresholds = base.thresholds?.filter((_, i) => {
    const stage = plan.gates[i]?.stage;
    return stage === undefined || ran.has(stage);
  });
  const broken = saturation.find((s) => brokenBecause(s, limit) !== undefined);
  const clean = saturation.filter((s) => s !== broken && (broken === undefined || s.offered < broken.offered));
  const best = clean.reduce((max, s) => Math.max(max, s.achieved), 0);
  const top = saturation[saturation.length - 1]?.offered ?? 0;
  const why =
    broken === undefined
      ? `no step broke up to ${top}/s`
      : `the ${broken.offered}/s step broke (${brokenBecause(broken, limit)})`;
  const common = { ...base, thresholds, offeredRate: top, achievedRate: best, saturation };
  const min = shareOf(plan, plan.documented.ratePerSecond?.min);
  // one k6 process cannot tell whether the target or k6 itself was the limit: `erpcert load` measures that
  const measured = `the best step that held reached ${best}/s checked operations: ${why}`;
  if (min === undefined) return { ...common, verdict: 'info', reason: `no documented figure; ${measured}` };
  return best >= min
    ? { ...common, verdict: 'pass', reason: `${measured}; >= documented ${min}/s` }
    : { ...common, verdict: 'fail', reason: `${measured}; below the documented ${min}/s` };
}

function readResult(
  plan: ScenarioPlan,
  data: K6SummaryData,
  base: Omit<LoadScenarioResult, 'verdict' | 'reason'>,
  failures: string[],
): LoadScenarioResult {
  const read = plan.read!;
  const documented = plan.documented.read;
  const reads: ReadFigure[] = read.batches.map((batch) => ({
    records: counterCount(data, submetric(READ_RECORDS, 'batch', batch)),
    seconds: round(counterCount(data, submetric(READ_MS, 'batch', batch)) / 1000),
    bytes: counterCount(data, submetric(READ_BYTES, 'batch', batch)),
    batch,
    pacedSeconds: round(counterCount(data, submetric(READ_WALL_MS, 'batch', batch)) / 1000),
  }));
  for (const r of reads) {
    if (r.records < read.records)
      failures.push(`batches of ${r.batch}: only ${r.records} of ${read.records} records read`);
    else if (documented !== undefined && r.seconds > documented.seconds) {
      failures.push(`batches of ${r.batch}: ${r.seconds} s of request time > documented ${documented.seconds} s`);
    }
  }
  const worst =
    reads.find((r) => r.records < read.records) ??
    reads.reduce((a, b) => (b.seconds > a.seconds ? b : a), reads[0] ?? { records: 0, seconds: 0, bytes: 0, batch: 0 });
  const mb = (bytes: number): string => `${round(bytes / 1_000_000, 2)} MB`;
  const measured = reads
    .map(
      (r) =>
        `${r.records} records in batches of ${r.batch}: ${r.seconds} s request time (${r.pacedSeconds} s paced), ${mb(r.bytes)}`,
    )
    .join('; ');
  const sizeNote =
    documented === undefined ? '' : ` (documented about ${mb(documented.bytes)}: size is information, not a verdict)`;
  const common = {
    ...base,
    read: worst,
    reads,
    ...(worst.records > 0 ? { bytesPerRecord: round(worst.bytes / worst.records, 1) } : {}),
  };
  if (failures.length > 0)
    return { ...common, verdict: 'fail', reason: `${failures.join('; ')}; ${measured}${sizeNote}` };
  return documented === undefined
    ? { ...common, verdict: 'info', reason: `${measured}` }
    : { ...common, verdict: 'pass', reason: `${measured} <= documented ${documented.seconds} s${sizeNote}` };
}
