/**
 * Step 4 of `erpcert conform` (verdicts): the results document of the run, one verdict per rule, from what
 * the collector heard and what the run knows about itself.
 */

import type { CleanupInfo, LoadReportVerdicts, ResultsDocument } from '@erpcert/runs';
import type { ResultsCollector } from '../reports/collector.js';
import { fixturesInfo } from '../reports/fixtures-section.js';
import { conformCommand, type ReplayBase } from '../reports/replay.js';
import { fixtureFiles, readFixtureAccounts, type SuiteRunResult, type TargetConnection } from '../reports/runner.js';
import { specInfo } from '../reports/spec-info.js';
import type { ConformSettings } from './conform-settings.js';
import { targetInfo } from './conform-target.js';

/** What the run did, as the verdict step needs it. */
export interface RunFacts {
  readonly started: Date;
  readonly finished: Date;
  readonly conn: TargetConnection;
  readonly replay: ReplayBase;
  readonly runTag: string;
  readonly ledger: string;
  readonly result: SuiteRunResult;
  readonly errors: readonly string[];
  readonly problems: readonly string[];
  readonly cleanup: CleanupInfo;
  readonly toolVersion: string;
  /** The performance rules' verdicts of a load run (`--load-report DIR`), for the coverage line. */
  readonly load?: LoadReportVerdicts;
}

/** The flags that repeat this run's selection in its command line. */
function repeatFlags(s: ConformSettings): (string | number)[] {
  return [
    ...(s.only ? ['--only', s.only] : []),
    ...(s.seed !== undefined ? ['--seed', s.seed] : []),
    ...(s.path ? ['--path', s.path] : []),
    ...(s.shard ? ['--shard', s.shard] : []),
    ...(s.pace ? ['--pace', s.pace] : []),
    // the known deviations decide the exit code: a repeat judges against the same file (as written, after --write-baseline)
    ...((s.writeBaseline ?? s.baseline) ? ['--baseline', (s.writeBaseline ?? s.baseline)!.name] : []),
    ...(s.strictBaseline ? ['--strict-baseline'] : []),
  ];
}

/** Builds the run's results document (unmasked: the report step masks it). */
export function judgeRun(s: ConformSettings, collector: ResultsCollector, f: RunFacts): ResultsDocument {
  return collector.build({
    run: {
      startedAt: f.started.toISOString(),
      finishedAt: f.finished.toISOString(),
      durationMs: Math.max(0, f.finished.getTime() - f.started.getTime()),
      target: targetInfo(s, f.conn),
      profile: s.profile,
      runs: s.runs ?? null,
      seed: s.seed ?? null,
      path: s.path ?? null,
      only: s.only ?? null,
      shard: s.shard ?? null,
      pace: s.pace ?? null,
      runTag: f.runTag,
      interrupted: f.result.reason === 'interrupted',
      command: conformCommand(f.replay, repeatFlags(s)),
    },
    spec: specInfo(),
    toolVersion: f.toolVersion,
    cleanup: f.cleanup,
    fixtures: fixturesInfo(s.fixturePrefix, readFixtureAccounts(fixtureFiles(f.ledger).accounts)),
    errors: f.errors,
    problems: f.problems,
    ...(f.load ? { load: f.load } : {}),
  });
}
