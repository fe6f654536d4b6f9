/**
 * The queue of live runs, in the database: jobs are enqueued, claimed by one worker each, heartbeated while
 * they run, and ended once. On PostgreSQL several hub processes share it: a claim takes the oldest queued row
 * with `SELECT ... FOR UPDATE SKIP LOCKED` in a transaction, so two hubs never take the same job. On SQLite (one
 * process) the claim is one atomic `UPDATE ... WHERE state = 'queued'`. A job whose worker stopped heartbeating
 * (a hub killed, a machine gone) is marked interrupted by whichever hub notices, with its events kept.
 */
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../store/open-store.js';
import type { Database, JobState } from '../store/schema.js';

export interface ConformSettings {
  readonly kind: 'conformance';
  /** gate, full or strict. */
  readonly profile: string;
  /** `--only` globs (rule ids, `REST.VERSION.*`); empty: the whole profile. */
  readonly only: readonly string[];
}

export interface LoadSettings {
  readonly kind: 'load';
  readonly scenario: string;
  readonly engine: 'autocannon' | 'k6';
  /** Bounded: at most {@link MAX_LOAD_SECONDS}. */
  readonly durationSeconds: number;
}

export type RunSettings = ConformSettings | LoadSettings;

/** What a live run reports as it goes: the events stream replays these. Never a credential. */
export type ProgressEvent =
  | { readonly type: 'state'; readonly state: JobState; readonly message?: string; readonly runId?: number }
  | { readonly type: 'rule'; readonly rule: string; readonly verdict: string }
  | {
      readonly type: 'progress';
      readonly filesDone?: number;
      readonly filesTotal?: number;
      readonly tests?: number;
      readonly requests?: number;
      readonly secondsLeft?: number;
    }
  | { readonly type: 'log'; readonly line: string };

export interface Job {
  readonly id: number;
  readonly targetId: number;
  /** Its target's organisation. */
  readonly organisationId: number;
  readonly kind: 'conformance' | 'load';
  readonly settings: RunSettings;
  readonly state: JobState;
  readonly parentRunId: number | null;
  readonly runId: number | null;
  readonly worker: string | null;
  readonly heartbeatAt: string | null;
  readonly cancelRequested: boolean;
  readonly exitCode: number | null;
  readonly message: string | null;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
}

export const ENDED: ReadonlySet<JobState> = new Set(['done', 'failed', 'interrupted', 'cancelled']);
export const RESTARTED = 'interrupted: hub restarted';

type JobRow = { [K in keyof Database['jobs']]: unknown };

function job(r: JobRow): Job {
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: Number(r.id),
    targetId: Number(r.target_id),
    organisationId: Number(r.organisation_id),
    kind: r.kind as Job['kind'],
    settings: JSON.parse(r.settings as string) as RunSettings,
    state: r.state as JobState,
    parentRunId: n(r.parent_run_id),
    runId: n(r.run_id),
    worker: (r.worker as string | null) ?? null,
    heartbeatAt: (r.heartbeat_at as string | null) ?? null,
    cancelRequested: Number(r.cancel_requested) === 1,
    exitCode: n(r.exit_code),
    message: (r.message as string | null) ?? null,
    createdAt: r.created_at as string,
    startedAt: (r.started_at as string | null) ?? null,
    finishedAt: (r.finished_at as string | null) ?? null,
  };
}

export class JobQueue {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private at(): string {
    return this.now().toISOString();
  }

  async enqueue(targetId: number, settings: RunSettings, parentRunId: number | null = null): Promise<Job> {
    const row = await this.db
      .insertInto('jobs')
      .values((eb) => ({
        target_id: targetId,
        // always its target's organisation
        organisation_id: eb.selectFrom('targets').select('organisation_id').where('id', '=', targetId),
        kind: settings.kind,
        settings: JSON.stringify(settings),
        state: 'queued',
        parent_run_id: parentRunId,
        run_id: null,
        worker: null,
        heartbeat_at: null,
        exit_code: null,
        message: null,
        created_at: this.at(),
        started_at: null,
        finished_at: null,
      }))
      .returningAll()
      .executeTakeFirstOrThrow();
    return job(row as JobRow);
  }

  /** Takes the oldest queued job for `worker`, or none. Never the same job twice, across processes. */
  async claim(worker: string): Promise<Job | undefined> {
    const at = this.at();
    const set = { state: 'running' as const, worker, started_at: at, heartbeat_at: at };
    if (this.dialect === 'postgres') {
      return this.db.transaction().execute(async (trx) => {
        const next = await trx
          .selectFrom('jobs')
          .select('id')
          .where('state', '=', 'queued')
          .orderBy('id')
          .limit(1)
          .forUpdate()
          .skipLocked()
          .executeTakeFirst();
        if (!next) return undefined;
        const row = await trx
          .updateTable('jobs')
          .set(set)
          .where('id', '=', next.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return job(row as JobRow);
      });
    }
    const row = await this.db
      .updateTable('jobs')
      .set(set)
      .where('state', '=', 'queued')
      .where('id', '=', (eb) => eb.selectFrom('jobs').select('id').where('state', '=', 'queued').orderBy('id').limit(1))
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? undefined : job(row as JobRow);
  }

  /** The worker is alive; answers whether a cancel was asked and whether the job is still its own. */
  async heartbeat(id: number, worker: string): Promise<{ readonly mine: boolean; readonly cancelRequested: boolean }> {
    const row = await this.db
      .updateTable('jobs')
      .set({ heartbeat_at: this.at() })
      .where('id', '=', id)
      .where('worker', '=', worker)
      .where('state', '=', 'running')
      .returning('cancel_requested')
      .executeTakeFirst();
    return { mine: row !== undefined, cancelRequested: Number(row?.cancel_requested) === 1 };
  }

  /** Ends a running job of `worker`; false when it was not its own any more (marked interrupted meanwhile). */
  async finish(
    id: number,
    worker: string,
    end: {
      state: 'done' | 'failed' | 'cancelled' | 'interrupted';
      runId?: number | null;
      exitCode?: number | null;
      message?: string | null;
    },
  ): Promise<boolean> {
    const r = await this.db
      .updateTable('jobs')
      .set({
        state: end.state,
        run_id: end.runId ?? null,
        exit_code: end.exitCode ?? null,
        message: end.message ?? null,
        finished_at: this.at(),
      })
      .where('id', '=', id)
      .where('worker', '=', worker)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** A queued job is cancelled at once; a running one is asked to stop (its worker sends the child SIGINT). */
  async requestCancel(id: number): Promise<'cancelled' | 'requested' | 'ended' | 'missing'> {
    const queued = await this.db
      .updateTable('jobs')
      .set({ state: 'cancelled', cancel_requested: 1, message: 'cancelled before it started', finished_at: this.at() })
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .executeTakeFirst();
    if (Number(queued.numUpdatedRows) === 1) return 'cancelled';
    const running = await this.db
      .updateTable('jobs')
      .set({ cancel_requested: 1 })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .executeTakeFirst();
    if (Number(running.numUpdatedRows) === 1) return 'requested';
    return (await this.get(id)) ? 'ended' : 'missing';
  }

  /**
   * Marks running jobs interrupted: those whose heartbeat is older than `staleBefore`, or (`all`, a SQLite hub
   * starting: it is the only process) every running job. Answers their ids.
   */
  async interruptStale(staleBefore: Date | 'all', message = RESTARTED): Promise<number[]> {
    let q = this.db
      .updateTable('jobs')
      .set({ state: 'interrupted', message, finished_at: this.at() })
      .where('state', '=', 'running');
    if (staleBefore !== 'all') q = q.where('heartbeat_at', '<', staleBefore.toISOString());
    const rows = await q.returning('id').execute();
    return rows.map((r) => Number(r.id));
  }

  async get(id: number): Promise<Job | undefined> {
    const r = await this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    return r === undefined ? undefined : job(r as JobRow);
  }

  /** The live runs of `organisations`, newest first. */
  async list(organisations: readonly number[], filter: { targetId?: number; limit?: number } = {}): Promise<Job[]> {
    if (organisations.length === 0) return [];
    let q = this.db
      .selectFrom('jobs')
      .selectAll()
      .where('organisation_id', 'in', [...organisations]);
    if (filter.targetId !== undefined) q = q.where('target_id', '=', filter.targetId);
    const rows = await q
      .orderBy('id', 'desc')
      .limit(filter.limit ?? 50)
      .execute();
    return rows.map((r) => job(r as JobRow));
  }

  async appendEvent(id: number, seq: number, event: ProgressEvent): Promise<void> {
    await this.db
      .insertInto('job_events')
      .values({ job_id: id, seq, at: this.at(), event: JSON.stringify(event) })
      .execute();
  }

  /** The next free sequence number of a job's events (a worker that claims a job starts there). */
  async nextSeq(id: number): Promise<number> {
    const r = await this.db
      .selectFrom('job_events')
      .select(sql<number>`coalesce(max(seq), 0)`.as('m'))
      .where('job_id', '=', id)
      .executeTakeFirst();
    return Number(r?.m ?? 0) + 1;
  }

  async events(id: number, afterSeq = 0): Promise<{ seq: number; at: string; event: ProgressEvent }[]> {
    const rows = await this.db
      .selectFrom('job_events')
      .selectAll()
      .where('job_id', '=', id)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .execute();
    return rows.map((r) => ({ seq: Number(r.seq), at: r.at, event: JSON.parse(r.event) as ProgressEvent }));
  }

  /** The rules judged so far (the last verdict of each), from the job's events. */
  async judged(id: number): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const { event } of await this.events(id)) if (event.type === 'rule') out[event.rule] = event.verdict;
    return out;
  }
}
