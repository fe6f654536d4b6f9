import { formatNumber } from './figures.js';
import type { BaselineComparison, FigureChange, LoadRunDocument, LoadScenarioEntry } from './load-results.js';

/** A compared figure: how to read it from an entry and which way is better. */
interface FigureDef {
  readonly figure: string;
  readonly higherIsBetter: boolean;
  get(e: LoadScenarioEntry): number | undefined;
}

/** Best achieved rate among the saturation steps that held (no error, no drop). */
export function saturationBest(e: LoadScenarioEntry): number | undefined {
  if (!e.saturation || e.saturation.length === 0) return undefined;
  const clean = e.saturation.filter((s) => s.errors === 0 && (s.dropped ?? 0) === 0);
  return clean.reduce((max, s) => Math.max(max, s.achieved), 0);
}

/** Every figure `--baseline` compares, in report order. */
export const COMPARED_FIGURES: readonly FigureDef[] = [
  { figure: 'achievedRate', higherIsBetter: true, get: (e) => e.achievedRate },
  { figure: 'read.seconds', higherIsBetter: false, get: (e) => e.read?.seconds },
  { figure: 'read.pacedSeconds', higherIsBetter: false, get: (e) => e.read?.pacedSeconds },
  { figure: 'latencyMs.p50', higherIsBetter: false, get: (e) => e.latencyMs.p50 },
  { figure: 'latencyMs.p90', higherIsBetter: false, get: (e) => e.latencyMs.p90 },
  // undefined in a run of an erpcert that did not measure p95: not compared
  { figure: 'latencyMs.p95', higherIsBetter: false, get: (e) => e.latencyMs.p95 },
  { figure: 'latencyMs.p99', higherIsBetter: false, get: (e) => e.latencyMs.p99 },
  { figure: 'latencyMs.max', higherIsBetter: false, get: (e) => e.latencyMs.max },
  { figure: 'errors', higherIsBetter: false, get: (e) => e.errors },
  { figure: 'droppedIterations', higherIsBetter: false, get: (e) => e.droppedIterations },
  { figure: 'bytesPerRecord', higherIsBetter: false, get: (e) => e.bytesPerRecord },
  { figure: 'saturation.best', higherIsBetter: true, get: saturationBest },
];

/** Changes under half a percent count as the same (timer and scheduling noise). */
const SAME = 0.005;

/** The change of one figure; `same` when both are equal or within half a percent. */
export function figureChange(
  scenario: string,
  def: Pick<FigureDef, 'figure' | 'higherIsBetter'>,
  before: number,
  after: number,
): FigureChange {
  const change = before === 0 ? null : (after - before) / before;
  const same = after === before || (change !== null && Math.abs(change) < SAME);
  const up = after > before;
  return {
    scenario,
    figure: def.figure,
    before,
    after,
    change: change === null ? null : Math.round(change * 10_000) / 10_000,
    direction: same ? 'same' : up === def.higherIsBetter ? 'better' : 'worse',
  };
}

/** Every figure of every scenario both runs have, against the baseline run read from `dir`. */
export function compareWithBaseline(
  scenarios: readonly LoadScenarioEntry[],
  baseline: LoadRunDocument,
  dir: string,
): BaselineComparison {
  const before = new Map(baseline.scenarios.map((e) => [e.scenario, e] as const));
  const changes: FigureChange[] = [];
  for (const now of scenarios) {
    const then = before.get(now.scenario);
    if (!then) continue;
    for (const def of COMPARED_FIGURES) {
      const a = def.get(then);
      const b = def.get(now);
      if (a === undefined || b === undefined) continue;
      changes.push(figureChange(now.scenario, def, a, b));
    }
  }
  const here = new Set(scenarios.map((e) => e.scenario));
  return {
    dir,
    startedAt: baseline.run.startedAt,
    engine: baseline.run.engine,
    changes,
    onlyHere: scenarios.map((e) => e.scenario).filter((s) => !before.has(s)),
    onlyThere: baseline.scenarios.map((e) => e.scenario).filter((s) => !here.has(s)),
  };
}

/** `+12.5 %`, `-3 %`, `n/a` (from zero). */
export function formatChange(change: number | null): string {
  if (change === null) return 'n/a';
  const pct = Math.round(change * 1000) / 10;
  return `${pct > 0 ? '+' : ''}${pct} %`;
}

/** The comparison as plain text lines for the terminal. */
export function baselineText(b: BaselineComparison): string {
  const rows = b.changes.map((c) => [
    c.scenario,
    c.figure,
    formatNumber(c.before),
    formatNumber(c.after),
    formatChange(c.change),
    c.direction,
  ]);
  const head = ['scenario', 'figure', 'baseline', 'now', 'change', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const lines = [`Change against the baseline ${b.dir} (${b.startedAt}, ${b.engine}):`, fmt(head), ...rows.map(fmt)];
  if (b.onlyHere.length) lines.push(`not in the baseline: ${b.onlyHere.join(', ')}`);
  if (b.onlyThere.length) lines.push(`only in the baseline: ${b.onlyThere.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
