/**
 * The coverage line every report opens with (terminal, summary.md, report.html; `coverage.judged` in
 * results.json): how many documented observable rules this run judged, of how many. A rule of kind
 * `performance` (record-rest-api.md §8, the REST.LIMITS.* figures) is judged by `erpcert load`, not by a
 * conformance run: it counts as judged only with the verdict of a load run (`conform --load-report DIR`).
 */
import { resolve } from 'node:path';
import type { LoadRunDocument } from '../load/load-results.js';
import { LoadRunReadError, readLoadRun } from '../load/read-load-run.js';
import type { ReportVerdict, RuleResult } from './results.js';

/** A load run's verdict of one rule: a scenario's pass or fail, or `INFO` (measured, no threshold). */
export type LoadVerdict = 'PASS' | 'FAIL' | 'INFO';

/** What a load run says about the performance rules. */
export interface LoadReportVerdicts {
  /** When the load run started (never the folder's path: no report shows a path of this machine). */
  readonly startedAt: string;
  readonly engine: string;
  readonly verdicts: Readonly<Record<string, LoadVerdict>>;
}

/** `coverage.judged` of results.json. */
export interface JudgedCoverage {
  /** Documented observable rules in scope. */
  readonly total: number;
  /** Of them, judged by this run (PASS, FAIL, KNOWN) or by the load run. */
  readonly judged: number;
  /** Documented observable rules not judged (ERROR, SKIP or none), load rules aside. */
  readonly notJudged: readonly string[];
  /** The rules only `erpcert load` judges, with the load run's verdict (null: no load run, or not in it). */
  readonly byLoad: readonly { readonly id: string; readonly verdict: LoadVerdict | null }[];
  /** The load run read with `--load-report`, or null. */
  readonly loadRun: { readonly startedAt: string; readonly engine: string } | null;
}

/**
 * Verdicts that judge a rule: it was observed to hold or to break (as the certification predicate counts,
 * attest/predicate.ts). ERROR says it could not be judged; SKIP and NONE that it was not; documented rules never WARN.
 */
const JUDGED: ReadonlySet<ReportVerdict | string> = new Set(['PASS', 'FAIL', 'KNOWN']);

/** The rule verdicts of a load run, from each scenario's documented rule and verdict. */
export function loadReportVerdicts(doc: LoadRunDocument): LoadReportVerdicts {
  const verdicts: Record<string, LoadVerdict> = {};
  for (const s of doc.scenarios) {
    const rule = s.documented.rule;
    if (rule === undefined) continue;
    const v: LoadVerdict = s.verdict === 'pass' ? 'PASS' : s.verdict === 'fail' ? 'FAIL' : 'INFO';
    // two scenarios of one rule: a FAIL wins, then a PASS
    const had = verdicts[rule];
    if (had === 'FAIL' || (had === 'PASS' && v === 'INFO')) continue;
    verdicts[rule] = v;
  }
  return { startedAt: doc.run.startedAt, engine: doc.run.engine, verdicts };
}

/**
 * `conform --load-report DIR`: the performance rules' verdicts of that load run folder, or the message that
 * says why it cannot be read (the caller exits 2 before touching anything).
 */
export function readLoadReport(dir: string, cwd: string): LoadReportVerdicts | { readonly error: string } {
  try {
    return loadReportVerdicts(readLoadRun(resolve(cwd, dir)));
  } catch (err) {
    if (err instanceof LoadRunReadError) return { error: err.message };
    throw err;
  }
}

/** Counts the documented observable rules judged, the load rules apart. */
export function judgedCoverage(rules: readonly RuleResult[], load?: LoadReportVerdicts): JudgedCoverage {
  const documented = rules.filter((r) => r.observable && r.standing === 'documented');
  const byLoad = documented
    .filter((r) => r.kind === 'performance')
    .map((r) => ({ id: r.id, verdict: load?.verdicts[r.id] ?? null }));
  const here = documented.filter((r) => r.kind !== 'performance');
  const notJudged = here.filter((r) => !JUDGED.has(r.verdict)).map((r) => r.id);
  return {
    total: documented.length,
    judged: here.length - notJudged.length + byLoad.filter((r) => r.verdict !== null).length,
    notJudged,
    byLoad,
    loadRun: load ? { startedAt: load.startedAt, engine: load.engine } : null,
  };
}

/** At most this many not-judged rule ids are named on the line; the rest are counted. */
const NAMED = 5;

/** The one-line account: `Coverage: 395 of 401 documented observable rules judged; ...`. */
export function coverageLine(c: JudgedCoverage): string {
  const parts = [`Coverage: ${c.judged} of ${c.total} documented observable rules judged`];
  if (c.byLoad.length > 0) {
    const n = c.byLoad.length;
    const rules = `${n} rule${n === 1 ? '' : 's'} judged by erpcert load`;
    if (!c.loadRun) parts.push(`${rules} (give --load-report DIR for a load run's verdicts)`);
    else {
      const order = ['PASS', 'FAIL', 'INFO', 'not in that run'];
      const shown = order
        .map((v) => [v, c.byLoad.filter((r) => (r.verdict ?? 'not in that run') === v).length] as const)
        .filter(([, k]) => k > 0)
        .map(([v, k]) => `${v} ${k}`)
        .join(', ');
      parts.push(`${rules}: ${shown} (load run of ${c.loadRun.startedAt}, ${c.loadRun.engine})`);
    }
  }
  if (c.notJudged.length > 0) {
    const named = c.notJudged.slice(0, NAMED).join(', ');
    const more = c.notJudged.length > NAMED ? ` and ${c.notJudged.length - NAMED} more` : '';
    parts.push(`not judged: ${named}${more}`);
  }
  return parts.join('; ');
}
