/**
 * The hub's bounded worker pool: claims queued live runs from the {@link JobQueue}, hands each to the executor
 * (injected: the CLI's spawns the `erpcert` bin; the hub never imports the CLI), heartbeats it, passes a cancel
 * on as an abort, stores its progress events, and ingests the report folder it wrote as a run (done, or cancelled
 * with what it judged) linked to its parent. Jobs whose worker stopped heartbeating are marked interrupted.
 */

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cpus, hostname } from 'node:os';
import { join } from 'node:path';
import { ingestFiles } from '../ingest/ingest.js';
import { DEFAULT_LIMITS, type IngestLimits } from '../ingest/limits.js';
import { readRunFolder } from '../ingest/read-folder.js';
import type { HubStore } from '../store/hub-store.js';
import { type Job, type JobQueue, type ProgressEvent, RESTARTED, type RunSettings } from './job-queue.js';
import { EMBEDDED_TARGET, type SavedTargets, type TargetConnection } from './saved-targets.js';

/** A run the SSRF guard refused before it started. */
class RunRefused extends Error {}

export interface ExecutorRun {
  readonly jobId: number;
  readonly settings: RunSettings;
  readonly target: TargetConnection;
  /**
   * The hub's SSRF allow-list (`--allow-targets` entries joined by commas, `none` for the defaults alone): the
   * executor hands it to the run (`--target-guard`): conform checks every connection's address when it is made,
   * load checks the host's addresses once and pins the run to the checked one. Absent for the embedded reference
   * server (allowed by name).
   */
  readonly targetGuard?: string;
}

export interface ExecutorContext {
  /** Aborted on cancel (or when the hub stops): the executor interrupts its run, letting cleanup run. */
  readonly signal: AbortSignal;
  readonly progress: (event: ProgressEvent) => void;
}

export interface ExecutorResult {
  readonly exitCode: number | null;
  /** The report folder the run wrote (ingested if it holds a results.json). */
  readonly folder?: string;
  readonly message?: string;
  /** Removes the folder once ingested. */
  dispose?(): Promise<void>;
}

/** Executes one live run: the CLI's spawns `erpcert conform` or `erpcert load`. */
export interface LiveRunExecutor {
  execute(run: ExecutorRun, ctx: ExecutorContext): Promise<ExecutorResult>;
}

export interface WorkerPoolOptions {
  readonly store: HubStore;
  readonly queue: JobQueue;
  readonly targets: SavedTargets;
  readonly executor: LiveRunExecutor;
  /** How many runs at once. @defaultValue half the cores, at least 1 */
  readonly size?: number;
  readonly pollMs?: number;
  readonly heartbeatMs?: number;
  /** A running job whose heartbeat is older than this is interrupted. */
  readonly staleMs?: number;
  readonly limits?: IngestLimits;
  readonly log?: (line: string) => void;
}

export const defaultPoolSize = (): number => Math.max(1, Math.floor(cpus().length / 2));

export class WorkerPool {
  readonly worker = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  readonly #o: WorkerPoolOptions;
  readonly #size: number;
  readonly #running = new Map<number, { abort: AbortController; done: Promise<void> }>();
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #polling = false;

  constructor(o: WorkerPoolOptions) {
    this.#o = o;
    this.#size = o.size ?? defaultPoolSize();
  }

  get size(): number {
    return this.#size;
  }

  private log(line: string) {
    (this.#o.log ?? ((l: string) => console.error(l)))(`hub: ${line}`);
  }

  async start(): Promise<void> {
    // a SQLite hub is the only process on its file: whatever was running died with the previous hub
    if (this.#o.store.dialect === 'sqlite') {
      const ids = await this.#o.queue.interruptStale('all');
      if (ids.length > 0) this.log(`live runs ${ids.map((i) => `#${i}`).join(', ')} marked ${RESTARTED}`);
    }
    this.#timer = setInterval(() => void this.poll(), this.#o.pollMs ?? 1000);
    void this.poll();
  }

  /** Looks for work now (a run was just queued). */
  wake(): void {
    void this.poll();
  }

  private async poll(): Promise<void> {
    if (this.#polling || this.#stopped) return;
    this.#polling = true;
    try {
      if (this.#o.store.dialect === 'postgres') {
        const stale = new Date(Date.now() - (this.#o.staleMs ?? 15_000));
        const ids = await this.#o.queue.interruptStale(stale);
        if (ids.length > 0)
          this.log(`live runs ${ids.map((i) => `#${i}`).join(', ')} marked ${RESTARTED} (no heartbeat)`);
      }
      while (!this.#stopped && this.#running.size < this.#size) {
        const job = await this.#o.queue.claim(this.worker);
        if (!job) break;
        const abort = new AbortController();
        const done = this.execute(job, abort)
          .catch((err) => this.log(`live run #${job.id} failed in the hub: ${(err as Error).message}`))
          .finally(() => this.#running.delete(job.id));
        this.#running.set(job.id, { abort, done });
      }
    } catch (err) {
      this.log(`the worker pool could not poll the queue: ${(err as Error).message}`);
    } finally {
      this.#polling = false;
    }
  }

  private async execute(job: Job, abort: AbortController): Promise<void> {
    const q = this.#o.queue;
    let seq = await q.nextSeq(job.id);
    let chain = Promise.resolve();
    const emit = (event: ProgressEvent) => {
      const n = seq++;
      chain = chain
        .then(() => q.appendEvent(job.id, n, event))
        .catch((err) => this.log(`live run #${job.id}: an event was not stored: ${(err as Error).message}`));
    };
    let cancelled = false;
    let lost = false;
    const beat = setInterval(() => {
      void q.heartbeat(job.id, this.worker).then(
        (h) => {
          if (!h.mine) lost = true;
          if (h.cancelRequested) cancelled = true;
          if ((lost || cancelled) && !abort.signal.aborted) abort.abort();
        },
        (err) => this.log(`live run #${job.id}: heartbeat failed: ${(err as Error).message}`),
      );
    }, this.#o.heartbeatMs ?? 2000);
    emit({ type: 'state', state: 'running' });
    let end: {
      state: 'done' | 'failed' | 'cancelled' | 'interrupted';
      runId?: number;
      exitCode?: number | null;
      message?: string;
    };
    let result: ExecutorResult | undefined;
    try {
      const target = await this.#o.targets.connection(job.targetId);
      // the host may resolve elsewhere since the target was saved: checked again, nothing sent when refused
      const refused = await this.#o.targets.checkUrl(target.url).then(
        () => undefined,
        (err: Error) => err.message.replace(/^url is refused: /, ''),
      );
      if (refused !== undefined) throw new RunRefused(refused);
      const guard = this.#o.targets.guard.allowed.join(',') || 'none';
      result = await this.#o.executor.execute(
        {
          jobId: job.id,
          settings: job.settings,
          target,
          ...(target.url === EMBEDDED_TARGET ? {} : { targetGuard: guard }),
        },
        { signal: abort.signal, progress: emit },
      );
      const stopped = this.#stopped && !cancelled;
      const status = cancelled ? 'cancelled' : stopped ? 'interrupted' : 'done';
      let runId: number | undefined;
      if (result.folder && existsSync(join(result.folder, 'results.json'))) {
        const files = readRunFolder(result.folder, this.#o.limits ?? DEFAULT_LIMITS, `live run #${job.id}`);
        const { run } = await ingestFiles(this.#o.store, files, {
          label: `live #${job.id}`,
          parentRunId: job.parentRunId,
          status,
          organisationId: job.organisationId,
        });
        runId = run.id;
      }
      if (cancelled) end = { state: 'cancelled', runId, exitCode: result.exitCode, message: 'cancelled' };
      else if (stopped)
        end = { state: 'interrupted', runId, exitCode: result.exitCode, message: 'interrupted: hub stopped' };
      else if (runId !== undefined) end = { state: 'done', runId, exitCode: result.exitCode, message: result.message };
      else
        end = {
          state: 'failed',
          exitCode: result.exitCode,
          message: result.message ?? `the run wrote no results (exit code ${result.exitCode})`,
        };
    } catch (err) {
      end =
        err instanceof RunRefused
          ? { state: 'failed', message: `refused: ${err.message}` }
          : { state: 'failed', message: `the run could not be executed: ${(err as Error).message}` };
    } finally {
      clearInterval(beat);
    }
    await result?.dispose?.().catch(() => undefined);
    if (lost) end = { ...end, state: 'interrupted', message: RESTARTED };
    emit({
      type: 'state',
      state: end.state,
      ...(end.message ? { message: end.message } : {}),
      ...(end.runId ? { runId: end.runId } : {}),
    });
    await chain;
    const mine = await q.finish(job.id, this.worker, end);
    if (!mine) this.log(`live run #${job.id} was marked interrupted while it ran (its heartbeat was late)`);
  }

  /** Stops claiming; running runs are interrupted (their children get SIGINT) and marked "interrupted: hub stopped". */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    for (const r of this.#running.values()) r.abort.abort();
    await Promise.all([...this.#running.values()].map((r) => r.done));
  }
}
