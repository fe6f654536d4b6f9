/**
 * An in-process executor for the live-run tests: writes a sample conformance folder for the saved target
 * (its verdicts given per test), reports each rule as judged, and can wait for a cancel or a release.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMBEDDED_TARGET } from '../live/saved-targets.js';
import type { ExecutorContext, ExecutorResult, ExecutorRun, LiveRunExecutor } from '../live/worker-pool.js';
import { conformanceFolderFiles, sampleConformance } from './sample-runs.js';

export interface FakeExecutorOptions {
  readonly verdicts?: Readonly<Record<string, 'PASS' | 'FAIL' | 'ERROR' | 'SKIP' | 'NONE'>>;
  /** Wait until the signal aborts (a cancel) before writing the folder. */
  readonly waitForAbort?: boolean;
}

export class FakeExecutor implements LiveRunExecutor {
  readonly runs: ExecutorRun[] = [];
  constructor(private readonly o: FakeExecutorOptions = {}) {}

  async execute(run: ExecutorRun, ctx: ExecutorContext): Promise<ExecutorResult> {
    this.runs.push(run);
    const verdicts = this.o.verdicts ?? { 'REST.VERSION.PATH': 'PASS', 'REST.VERSION.SYSTEMVERSION': 'FAIL' };
    const entries = Object.entries(verdicts);
    const [first, ...rest] = entries;
    if (first) ctx.progress({ type: 'rule', rule: first[0], verdict: first[1] });
    ctx.progress({ type: 'progress', filesDone: 1, filesTotal: 2, tests: 1, requests: 3, secondsLeft: 1 });
    if (this.o.waitForAbort && !ctx.signal.aborted)
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    if (!ctx.signal.aborted) for (const [rule, verdict] of rest) ctx.progress({ type: 'rule', rule, verdict });
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-fake-run-'));
    mkdirSync(dir, { recursive: true });
    // the embedded reference server (a saved target named by EMBEDDED_TARGET) runs on a loopback port of its own
    const embedded = run.target.url === EMBEDDED_TARGET;
    const doc = sampleConformance({
      url: embedded ? 'http://127.0.0.1:40123' : run.target.url,
      embedded,
      runTag: `LIVE${run.jobId}x${process.pid}`,
      verdicts: ctx.signal.aborted && first ? { [first[0]]: first[1] } : verdicts,
    });
    for (const [path, bytes] of conformanceFolderFiles(doc)) writeFileSync(join(dir, path), bytes);
    return { exitCode: 0, folder: dir, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
  }
}
