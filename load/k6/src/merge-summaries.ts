/**
 * Merges the end-of-test summaries of k6 instances that ran the same script on complementary execution segments
 * (`--execution-segment`, k6-operator `parallelism`). Counts add up exactly; percentiles cannot be merged from
 * summaries, so a merged trend keeps the worst (highest) percentile of the parts: an upper bound, said as such.
 */
import { REQS } from '../lib/names.js';
import { planFingerprint, type ScenarioPlan, wholePlan } from '../lib/plan.js';
import { computeResult } from '../lib/result.js';
import type { K6Metric, K6SummaryData } from '../lib/summary-data.js';
import type { LoadScenarioResult } from '../scenarios/catalogue.js';

/**
 * Evaluates a k6 threshold expression of the form `<stat> <op> <number>` (`count>=30`, `rate==1.0`,
 * `p(99)<2000`) on summary values; undefined when the expression has another form or the stat is missing.
 */
export function evaluateThreshold(
  expression: string,
  values: { readonly [stat: string]: number },
): boolean | undefined {
  const match = /^\s*([a-z]+(?:\(\d+(?:\.\d+)?\))?)\s*(===|==|!=|>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(expression);
  if (match === null) return undefined;
  const [, key, op, raw] = match;
  const value = values[key!];
  if (value === undefined) return undefined;
  const limit = Number(raw);
  switch (op) {
    case '==':
    case '===':
      return value === limit;
    case '!=':
      return value !== limit;
    case '>=':
      return value >= limit;
    case '<=':
      return value <= limit;
    case '>':
      return value > limit;
    default:
      return value < limit;
  }
}

function mergeMetric(a: K6Metric, b: K6Metric): K6Metric {
  const values: Record<string, number> = {};
  const keys = new Set([...Object.keys(a.values), ...Object.keys(b.values)]);
  const av = a.values;
  const bv = b.values;
  for (const key of keys) {
    const x = av[key];
    const y = bv[key];
    if (x === undefined || y === undefined) {
      values[key] = (x ?? y)!;
      continue;
    }
    if (a.type === 'counter' || key === 'count' || key === 'passes' || key === 'fails') values[key] = x + y;
    else if (key === 'min') values[key] = Math.min(x, y);
    else if (key === 'max' || a.type === 'trend' || a.type === 'gauge') values[key] = Math.max(x, y);
    else values[key] = x; // rate: recomputed below
  }
  if (a.type === 'trend' && av.avg !== undefined && bv.avg !== undefined && av.count && bv.count) {
    values.avg = (av.avg * av.count + bv.avg * bv.count) / (av.count + bv.count);
  }
  if (a.type === 'rate' && values.passes !== undefined && values.fails !== undefined) {
    const total = values.passes + values.fails;
    values.rate = total === 0 ? 0 : values.passes / total;
  }
  const thresholds: Record<string, { ok: boolean }> = {};
  for (const expression of Object.keys({ ...a.thresholds, ...b.thresholds })) {
    // re-evaluated on the merged values; an expression we cannot read holds only if it held on every instance
    const ok = evaluateThreshold(expression, values);
    thresholds[expression] = {
      ok: ok ?? ((a.thresholds?.[expression]?.ok ?? true) && (b.thresholds?.[expression]?.ok ?? true)),
    };
  }
  return { type: a.type, contains: a.contains, values, ...(Object.keys(thresholds).length > 0 ? { thresholds } : {}) };
}

/** One summary for the whole distributed run; the run's duration is the longest instance's. */
export function mergeK6Summaries(parts: readonly K6SummaryData[]): K6SummaryData {
  if (parts.length === 0) throw new Error('mergeK6Summaries needs at least one summary');
  const metrics: Record<string, K6Metric> = {};
  for (const part of parts) {
    for (const [name, metric] of Object.entries(part.metrics)) {
      const seen = metrics[name];
      metrics[name] = seen === undefined ? metric : mergeMetric(seen, metric);
    }
  }
  const root = parts[0]!.root_group;
  const checks = new Map<string, { name: string; passes: number; fails: number }>();
  for (const part of parts) {
    for (const check of part.root_group?.checks ?? []) {
      const seen = checks.get(check.name) ?? { name: check.name, passes: 0, fails: 0 };
      checks.set(check.name, { name: check.name, passes: seen.passes + check.passes, fails: seen.fails + check.fails });
    }
  }
  return {
    state: { testRunDurationMs: Math.max(...parts.map((p) => p.state.testRunDurationMs)) },
    metrics,
    ...(root === undefined ? {} : { root_group: { name: root.name, groups: [], checks: [...checks.values()] } }),
  };
}

/**
 * The merged summary judged by the whole run's plan: its gates evaluated on the merged values (a runner's gates
 * asked for its share only), and the whole plan's fingerprint in place of the runners'.
 */
export function judgeMerged(plan: ScenarioPlan, merged: K6SummaryData): K6SummaryData {
  const metrics: Record<string, K6Metric> = { ...merged.metrics };
  for (const gate of plan.gates) {
    const metric = metrics[gate.metric] ?? { type: 'counter', contains: 'default', values: {} };
    const ok = evaluateThreshold(gate.expression, metric.values) ?? metric.thresholds?.[gate.expression]?.ok ?? false;
    metrics[gate.metric] = { ...metric, thresholds: { ...metric.thresholds, [gate.expression]: { ok } } };
  }
  const reqs = metrics[REQS] ?? { type: 'counter', contains: 'default', values: { count: 0 } };
  metrics[REQS] = { ...reqs, thresholds: { [planFingerprint(plan)]: { ok: true } } };
  return { ...merged, metrics };
}

/** The result of a distributed run: the merged summaries of its runners judged by the whole run's plan. */
export function resultOfSegments(
  parts: readonly { readonly plan?: ScenarioPlan; readonly summary?: K6SummaryData }[],
): LoadScenarioResult {
  const plan = parts[0]?.plan;
  const summaries = parts.map((p) => p.summary);
  if (plan === undefined || summaries.some((s) => s === undefined)) {
    throw new Error('resultOfSegments needs the plan and the summary of every part (runK6ScenarioDetailed)');
  }
  const whole = wholePlan(plan);
  return computeResult(whole, judgeMerged(whole, mergeK6Summaries(summaries as K6SummaryData[])));
}
