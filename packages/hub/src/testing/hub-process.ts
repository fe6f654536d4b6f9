/**
 * A hub in a child process, for the tests that need several processes or a kill -9 (run with `node --import tsx`).
 * HUB_MODE:
 *  - `fast`: startHub with an executor that writes a sample run at once; prints `executed <job>` per job;
 *  - `hang`: startHub with an executor that prints `executing <job>` and never ends (the test kills it);
 *  - `ingest`: ingests large distinct runs one after another, printing `stored <run>` after each.
 * HUB_DATABASE is the database; it prints `ready` once it works.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestFiles } from '../ingest/ingest.js';
import type { ExecutorResult, LiveRunExecutor } from '../live/worker-pool.js';
import { startHub } from '../server.js';
import { HubStore } from '../store/hub-store.js';
import { conformanceFolderFiles, sampleConformance } from './sample-runs.js';
import { testResolver } from './test-resolver.js';

const database = process.env.HUB_DATABASE ?? ':memory:';
const mode = process.env.HUB_MODE ?? 'fast';
const say = (line: string) => process.stdout.write(`${line}\n`);

// A child whose test runner died (a crash, a timeout, a kill) must not go on by itself: the ingest mode writes
// several MB a run. It ends when its parent is gone, and the ingest loop is bounded too.
const parent = process.ppid;
const orphaned = () => process.ppid !== parent;
setInterval(() => {
  if (orphaned()) process.exit(3);
}, 500).unref();
/** More than the kill-during-ingest test ever needs (it kills after the second run), and about 2.6 GB at most. */
const MAX_INGESTS = 400;

/** The files of a large run: its sample results and `count` files of `size` bytes, distinct per `tag`. */
export function largeRun(tag: string, count: number, size: number): Map<string, Buffer> {
  const files = conformanceFolderFiles(sampleConformance({ url: 'https://big.example', embedded: false, runTag: tag }));
  for (let i = 0; i < count; i++) files.set(`data/f${i}.txt`, Buffer.alloc(size, `${tag}:${i};`));
  return files;
}

const fast: LiveRunExecutor = {
  async execute(run): Promise<ExecutorResult> {
    say(`executed ${run.jobId}`);
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-hub-proc-'));
    const doc = sampleConformance({ url: run.target.url, embedded: false, runTag: `P${run.jobId}` });
    for (const [path, bytes] of conformanceFolderFiles(doc)) writeFileSync(join(dir, path), bytes);
    return { exitCode: 0, folder: dir, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
  },
};

const hang: LiveRunExecutor = {
  async execute(run, ctx): Promise<ExecutorResult> {
    ctx.progress({ type: 'rule', rule: 'REST.VERSION.PATH', verdict: 'PASS' });
    // give the event time to be stored before the test's kill
    await new Promise((r) => setTimeout(r, 300));
    say(`executing ${run.jobId}`);
    return new Promise<ExecutorResult>(() => undefined);
  },
};

if (mode === 'ingest') {
  const store = await HubStore.open(database);
  say('ready');
  // checked in the loop too: better-sqlite3 is synchronous, so the loop may never yield to the timer
  for (let n = 0; n < MAX_INGESTS && !orphaned(); n++) {
    const { run } = await ingestFiles(store, largeRun(`${process.pid}-${n}`, 400, 16 * 1024));
    say(`stored ${run.id}`);
  }
  await store.close();
  process.exit(0);
} else {
  const hub = await startHub({
    port: 0,
    database,
    executor: mode === 'hang' ? hang : fast,
    workers: 2,
    resolver: testResolver(),
    // `hang` is killed and its run must be found stale soon; `fast` runs are never stale, so a starved CPU that
    // delays one heartbeat past 1.5 s (a busy CI) must not let the other hub interrupt a run it is executing
    timing: { pollMs: 30, heartbeatMs: 100, staleMs: mode === 'hang' ? 1500 : 30_000 },
  });
  say(`ready ${hub.url}`);
  process.on('SIGTERM', () => void hub.close().then(() => process.exit(0)));
}
