/**
 * What changed between two load runs: the scenarios whose verdict changed, and the figures that moved beyond
 * their run-to-run spread. A load run measures each figure once, so the spread is estimated from what the
 * results hold (load-results.ts):
 *
 * - rates (achieved rate, best clean saturation step): the counting error of a rate measured over n requests,
 *   relative standard error 1/sqrt(n); the band is 3 standard errors of the difference,
 *   3 * sqrt(1/n_old + 1/n_new), and never narrower than the floor;
 * - counts (errors, dropped operations): Poisson, |new - old| > 3 * sqrt(old + new); a count that goes from
 *   zero to some, or from some to zero, always moved;
 * - times and sizes (read times, latency percentiles, bytes per record): one measurement holds no spread of its
 *   own, so the floor alone. p95 is compared only where both runs recorded it (a run of an erpcert before p95 has
 *   none; a note says so).
 *
 * The floor (`--spread PCT`, default 10 %) is a choice, not a measurement: scheduling on a shared CI machine
 * moves figures by several percent between identical runs. Figures are those `erpcert load --baseline`
 * compares (load/baseline.ts COMPARED_FIGURES), with the same better/worse direction.
 */
import { COMPARED_FIGURES, figureChange } from '../load/baseline.js';
import type { LoadRunDocument, LoadScenarioEntry } from '../load/load-results.js';

/** The default floor of the spread band, as a fraction. @defaultValue 0.1 */
export const DEFAULT_SPREAD = 0.1;

const RATES = new Set(['achievedRate', 'saturation.best']);
const COUNTS = new Set(['errors', 'droppedIterations']);

/** One figure of one scenario in both runs. */
export interface LoadFigureDiff {
  readonly scenario: string;
  readonly figure: string;
  readonly before: number;
  readonly after: number;
  /** (after - before) / before, null from zero. */
  readonly change: number | null;
  readonly direction: 'better' | 'worse' | 'same';
  /** The band: a fraction of `before` (rates, times, sizes) or an absolute count (errors, drops). */
  readonly spread: number;
  readonly spreadUnit: 'fraction' | 'count';
  /** Moved beyond the band. */
  readonly moved: boolean;
}

/** What `report diff` says about two load runs. */
export interface LoadDiff {
  readonly kind: 'load';
  readonly old: { readonly startedAt: string; readonly engine: string; readonly outcome: string };
  readonly new: { readonly startedAt: string; readonly engine: string; readonly outcome: string };
  /** The floor of the spread band, as a fraction. */
  readonly spreadFloor: number;
  readonly verdictChanges: readonly { readonly scenario: string; readonly before: string; readonly after: string }[];
  /** Every compared figure (moved or not), in scenario and figure order. */
  readonly figures: readonly LoadFigureDiff[];
  readonly onlyOld: readonly string[];
  readonly onlyNew: readonly string[];
  readonly notes: readonly string[];
}

/** The band of one figure and whether the change leaves it. */
function band(
  figure: string,
  before: number,
  after: number,
  requests: readonly [number, number],
  floor: number,
): { spread: number; spreadUnit: 'fraction' | 'count'; moved: boolean } {
  if (COUNTS.has(figure)) {
    const spread = 3 * Math.sqrt(before + after);
    return {
      spread,
      spreadUnit: 'count',
      moved: (before === 0) !== (after === 0) || Math.abs(after - before) > spread,
    };
  }
  const counted =
    RATES.has(figure) && requests[0] > 0 && requests[1] > 0 ? 3 * Math.sqrt(1 / requests[0] + 1 / requests[1]) : 0;
  const spread = Math.max(floor, counted);
  if (before === 0) return { spread, spreadUnit: 'fraction', moved: after !== 0 };
  return { spread, spreadUnit: 'fraction', moved: Math.abs(after - before) / Math.abs(before) > spread };
}

/** Compares two load runs scenario by scenario. `floor` is the spread floor as a fraction. */
export function diffLoad(before: LoadRunDocument, after: LoadRunDocument, floor = DEFAULT_SPREAD): LoadDiff {
  const old = new Map(before.scenarios.map((e) => [e.scenario, e] as const));
  const now = new Map(after.scenarios.map((e) => [e.scenario, e] as const));
  const both = after.scenarios.filter((e) => old.has(e.scenario));
  const verdictChanges = both
    .map((e) => ({ scenario: e.scenario, before: old.get(e.scenario)!.verdict, after: e.verdict }))
    .filter((v) => v.before !== v.after);
  const figures: LoadFigureDiff[] = [];
  for (const e of both) {
    const then: LoadScenarioEntry = old.get(e.scenario)!;
    for (const def of COMPARED_FIGURES) {
      const a = def.get(then);
      const b = def.get(e);
      if (a === undefined || b === undefined) continue;
      const c = figureChange(e.scenario, def, a, b);
      figures.push({ ...c, ...band(def.figure, a, b, [then.requests, e.requests], floor) });
    }
  }
  const notes: string[] = [];
  const p95Missing = (d: LoadRunDocument, name: string) => {
    const missing = both.filter((e) => d.scenarios.find((x) => x.scenario === e.scenario)?.latencyMs.p95 === undefined);
    if (missing.length > 0)
      notes.push(
        `p95 not recorded in the ${name} run (erpcert ${d.tool.version} did not measure it): not compared for ${missing.map((e) => e.scenario).join(', ')}`,
      );
  };
  p95Missing(before, 'old');
  p95Missing(after, 'new');
  if (before.run.target.url !== after.run.target.url && !(before.run.target.embedded && after.run.target.embedded))
    notes.push(`the runs have different targets: ${before.run.target.url} and ${after.run.target.url}`);
  if (before.run.engine !== after.run.engine)
    notes.push(`the runs used different engines: ${before.run.engine} and ${after.run.engine}`);
  if (before.run.settings.durationSeconds !== after.run.settings.durationSeconds)
    notes.push(
      `the runs lasted differently: ${before.run.settings.durationSeconds} s and ${after.run.settings.durationSeconds} s per scenario`,
    );
  const info = (d: LoadRunDocument) => ({ startedAt: d.run.startedAt, engine: d.run.engine, outcome: d.run.outcome });
  return {
    kind: 'load',
    old: info(before),
    new: info(after),
    spreadFloor: floor,
    verdictChanges,
    figures,
    onlyOld: before.scenarios.map((e) => e.scenario).filter((s) => !now.has(s)),
    onlyNew: after.scenarios.map((e) => e.scenario).filter((s) => !old.has(s)),
    notes,
  };
}
