/**
 * The part of k6's end-of-test summary object (the `handleSummary(data)` argument, legacy shape of k6 v1/v2) that
 * erpcert reads. https://grafana.com/docs/k6/latest/results-output/end-of-test/custom-summary/
 */

/** One metric: `values` holds count/rate (counter), rate/passes/fails (rate), avg/min/med/max/p(N)/count (trend). */
export interface K6Metric {
  readonly type: 'counter' | 'gauge' | 'rate' | 'trend';
  readonly contains: string;
  readonly values: { readonly [stat: string]: number };
  /** Threshold expression -> outcome, for metrics that have thresholds. */
  readonly thresholds?: { readonly [expression: string]: { readonly ok: boolean } };
}

export interface K6Check {
  readonly name: string;
  readonly passes: number;
  readonly fails: number;
}

export interface K6Group {
  readonly name: string;
  readonly groups: readonly K6Group[];
  readonly checks: readonly K6Check[];
}

/** The summary object. Metric keys include sub-metrics such as `erp_ops{stage:2}`. */
export interface K6SummaryData {
  readonly state: { readonly testRunDurationMs: number; readonly [key: string]: unknown };
  readonly metrics: { readonly [name: string]: K6Metric };
  readonly root_group?: K6Group;
  readonly options?: { readonly [key: string]: unknown };
}

/** A counter's count (0 when the metric never got a sample: k6 leaves such metrics out). */
export function counterCount(data: K6SummaryData, name: string): number {
  return data.metrics[name]?.values.count ?? 0;
}

/** One statistic of a metric, or undefined. */
export function stat(data: K6SummaryData, name: string, key: string): number | undefined {
  return data.metrics[name]?.values[key];
}

/** Every check with its passes and fails, depth first through the groups. */
export function allChecks(group: K6Group | undefined): K6Check[] {
  if (group === undefined) return [];
  return [...group.checks, ...group.groups.flatMap((g) => allChecks(g))];
}

/** Type guard for a parsed summary (JSON from a file). */
export function isK6SummaryData(value: unknown): value is K6SummaryData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { state?: unknown; metrics?: unknown };
  return (
    typeof v.state === 'object' &&
    v.state !== null &&
    typeof (v.state as { testRunDurationMs?: unknown }).testRunDurationMs === 'number' &&
    typeof v.metrics === 'object' &&
    v.metrics !== null
  );
}
