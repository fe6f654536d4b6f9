/**
 * What the API and the pages both show of stored runs, computed once: a rule's evidence, the comparison of two runs
 * (`report diff` semantics, @erpcert/runs), the rule matrix and the load trends. The routes serialise these as
 * JSON; the pages (src/pages) render them as HTML.
 */

import {
  type ConformanceDiff,
  diffConformance,
  diffLoad,
  type LoadDiff,
  ReportFolderError,
  type ResultsDocument,
  reportRunFromDocument,
} from '@erpcert/runs';
import type { Context } from 'hono';
import type { HubStore } from '../store/hub-store.js';
import type { RunSummary } from '../store/run-summary.js';
import { ApiError } from './api-error.js';
import type { RunDocuments } from './run-documents.js';

/** One rule of a conformance run: the rule, the tests that observed it and the failures naming it. */
export function ruleEvidence(doc: ResultsDocument, run: RunSummary, ruleId: string) {
  const rule = doc.rules.find((r) => r.id === ruleId);
  if (!rule) throw new ApiError(404, `run ${run.id} holds no rule ${ruleId}`);
  const tests = doc.tests
    .filter((t) => t.rules.includes(ruleId) || ruleId in t.verdicts)
    .map((t) => ({
      id: t.id,
      name: t.name,
      state: t.state,
      verdict: t.verdicts[ruleId] ?? null,
      observations: t.observations[ruleId] ?? 0,
      reason: t.reason,
    }));
  const failures = doc.failures
    .filter((f) => f.rules.includes(ruleId))
    .map((f) => ({
      test: f.test,
      verdict: f.verdict,
      known: f.known,
      message: f.message,
      counterexample: f.counterexample,
      seed: f.seed,
      path: f.path,
      shrinks: f.shrinks,
      errors: f.errors,
      exchanges: f.exchanges,
      curl: f.curl,
      replay: f.replay,
    }));
  return { run, rule, tests, failures };
}

export type RuleEvidence = ReturnType<typeof ruleEvidence>;

export interface Comparison {
  readonly a: RunSummary;
  readonly b: RunSummary;
  readonly diff: ConformanceDiff | LoadDiff;
}

/** Two stored runs compared as `erpcert report diff` compares two folders (the same code). */
export async function compareRuns(docs: RunDocuments, aId: number, bId: number, c: Context): Promise<Comparison> {
  const a = await docs.run(aId, c);
  const b = await docs.run(bId, c);
  if (a.kind !== b.kind)
    throw new ApiError(409, `run ${a.id} is a ${a.kind} run and run ${b.id} a ${b.kind} run: compare two of one kind`);
  try {
    const ra = reportRunFromDocument((await docs.document(a)).doc, `run ${a.id}`);
    const rb = reportRunFromDocument((await docs.document(b)).doc, `run ${b.id}`);
    const diff =
      ra.kind === 'load' && rb.kind === 'load'
        ? diffLoad(ra.doc, rb.doc)
        : ra.kind === 'conformance' && rb.kind === 'conformance'
          ? diffConformance(ra, rb)
          : undefined;
    if (!diff) throw new ApiError(400, 'the two runs are of different kinds');
    return { a, b, diff };
  } catch (err) {
    if (err instanceof ReportFolderError) throw new ApiError(422, err.message);
    throw err;
  }
}

export interface StoredTarget {
  readonly id: number;
  readonly name: string;
  readonly url: string;
  readonly embedded: boolean;
}

export interface RuleMatrix {
  readonly columns: readonly { readonly run: RunSummary; readonly target: StoredTarget | null }[];
  readonly areas: readonly {
    readonly area: string;
    readonly rules: readonly { readonly id: string; readonly verdicts: readonly (string | null)[] }[];
  }[];
}

const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** Rules (grouped by area, sorted) x the given runs. */
export async function ruleMatrix(store: HubStore, columns: readonly RunSummary[]): Promise<RuleMatrix> {
  // a row per rule, its cells in the columns' order (the store's answer)
  const rules = await store.verdictsOf(columns.map((r) => r.id));
  const areas = new Map<string, { id: string; verdicts: readonly (string | null)[] }[]>();
  for (const row of rules.sort((x, y) => byText(x.rule, y.rule))) {
    const list = areas.get(row.area) ?? [];
    areas.set(row.area, list);
    list.push({ id: row.rule, verdicts: row.verdicts });
  }
  const targets = new Map<number, StoredTarget | null>();
  for (const r of columns)
    if (!targets.has(r.targetId)) targets.set(r.targetId, (await store.target(r.targetId)) ?? null);
  return {
    columns: columns.map((run) => ({ run, target: targets.get(run.targetId) ?? null })),
    areas: [...areas].sort(([x], [y]) => byText(x, y)).map(([area, list]) => ({ area, rules: list })),
  };
}

/** What the pages show for the p95 of a load run of an erpcert that did not measure it (never 0). */
export const P95_NOT_RECORDED = 'not recorded';

export interface TrendPoint {
  readonly run: number;
  readonly build: string | null;
  readonly label: string | null;
  readonly startedAt: string | undefined;
  readonly engine: string | null | undefined;
  readonly throughput: number | null;
  readonly p50Ms: number;
  readonly p90Ms: number;
  /** Null where the run did not record p95 (an erpcert before p95). */
  readonly p95Ms: number | null;
  readonly p99Ms: number;
  readonly readSeconds: number | null;
  readonly knee: number | null;
  readonly limitedBy: string | null;
  readonly verdict: string;
}

export interface ScenarioTrend {
  readonly scenario: string;
  readonly documented: string;
  readonly documentedRate: { readonly min: number | null; readonly max: number | null } | null;
  readonly points: TrendPoint[];
}

/** Each scenario's figures over a target's load runs, oldest first. */
export async function loadTrends(
  store: HubStore,
  targetId: number,
): Promise<{ runs: number; scenarios: ScenarioTrend[] }> {
  const { runs, figures } = await store.loadFigures(targetId);
  const scenarios = new Map<string, ScenarioTrend>();
  for (const run of runs)
    for (const f of figures.filter((x) => Number(x.run_id) === run.id)) {
      const s: ScenarioTrend = scenarios.get(f.scenario) ?? {
        scenario: f.scenario,
        documented: f.documented,
        documentedRate:
          f.documented_rate_min === null && f.documented_rate_max === null
            ? null
            : { min: f.documented_rate_min, max: f.documented_rate_max },
        points: [],
      };
      scenarios.set(f.scenario, s);
      s.points.push({
        run: run.id,
        build: run.build,
        label: run.label,
        startedAt: run.startedAt,
        engine: run.profile,
        throughput: f.throughput,
        p50Ms: f.p50_ms,
        p90Ms: f.p90_ms,
        p95Ms: f.p95_ms ?? null,
        p99Ms: f.p99_ms,
        readSeconds: f.read_seconds,
        knee: f.knee,
        limitedBy: f.limiter,
        verdict: f.verdict,
      });
    }
  return { runs: runs.length, scenarios: [...scenarios.values()].sort((a, b) => a.scenario.localeCompare(b.scenario)) };
}
