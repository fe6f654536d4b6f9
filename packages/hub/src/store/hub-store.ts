/**
 * The hub's store: every read and write the API makes, over Kysely, the same on SQLite and PostgreSQL.
 * A run is written in one transaction (target, run, blobs, file list, verdicts, figures): a failed ingest
 * leaves nothing, and a run is visible only once all of it is there. Blobs are content-addressed (sha256).
 */
import type { PublicKeyInfo } from '@erpcert/runs';
import type { Kysely } from 'kysely';
import type { PreparedRun } from '../ingest/prepare-run.js';
import type { SignatureCheck } from '../ingest/signature-status.js';
import { type Dialect, type OpenDatabase, openDatabase } from './open-store.js';
import { type RuleVerdicts, readVerdicts } from './read-verdicts.js';
import { type RunRow, type RunSummary, runSummary } from './run-summary.js';
import type { Database } from './schema.js';
import { keysOf, lockSignatures, publicKeysOf, type RegisteredKey, recheckByKey, registerKey } from './signing-keys.js';
import { StoreInputError } from './store-input-error.js';

export type { RegisteredKey };
export { StoreInputError };

/** Filters of a target's history. */
export interface RunFilter {
  readonly kind?: 'conformance' | 'load';
  readonly profile?: string;
  readonly build?: string;
  readonly label?: string;
  /** Made with this erpcert version. */
  readonly version?: string;
  /** At most this many, newest first. */
  readonly limit?: number;
  /** Only runs with an id below this (paging). */
  readonly before?: number;
}

export interface TargetSummary {
  readonly id: number;
  readonly name: string;
  readonly url: string;
  readonly embedded: boolean;
  readonly organisationId: number;
  readonly runCount: number;
  /** The newest conformance run's totals, if any. */
  readonly latest: RunSummary | null;
  /** The last 20 runs, newest first. */
  readonly recent: readonly RunSummary[];
}

/** A target as the matrix offers it. */
export interface TargetChoice {
  readonly id: number;
  readonly name: string;
  readonly hasConformanceRun: boolean;
}

export interface StoredFile {
  readonly path: string;
  readonly sha256: string;
  readonly size: number;
}

/** A target as a run's page names it. */
export interface TargetRef {
  readonly id: number;
  readonly name: string;
  readonly url: string;
  readonly embedded: boolean;
  readonly organisationId: number;
}

export type { RuleVerdicts };

export class HubStore {
  private constructor(
    readonly db: Kysely<Database>,
    readonly dialect: Dialect,
    readonly shown: string,
    private readonly closeDb: () => Promise<void>,
    private readonly now: () => Date,
  ) {}

  /** Opens (and migrates) `database`: a SQLite file path, `:memory:`, or a `postgres://` URL. */
  static async open(
    database?: string,
    options: { now?: () => Date; log?: (line: string) => void } = {},
  ): Promise<HubStore> {
    const o: OpenDatabase = await openDatabase(database, options.log);
    return new HubStore(o.db, o.dialect, o.shown, o.close, options.now ?? (() => new Date()));
  }

  close(): Promise<void> {
    return this.closeDb();
  }

  /**
   * Stores a prepared run, or finds it: the same digest is the same run. Returns its id and whether it is new.
   * Everything is written in one transaction.
   */
  async insertRun(
    p: PreparedRun,
    sig: SignatureCheck,
    organisationId: number,
  ): Promise<{ readonly id: number; readonly created: boolean }> {
    const existing = await this.runIdByDigest(p.digest, organisationId);
    if (existing !== undefined) return { id: existing, created: false };
    const at = this.now().toISOString();
    try {
      const id = await this.db.transaction().execute(async (trx) => {
        // a key being registered commits first (the ingest then finds it and checks this run again), or lists this
        // run once it is committed (signing-keys.ts)
        await lockSignatures(trx, this.dialect, organisationId, 'store');
        await trx
          .insertInto('targets')
          .values({
            target_key: p.target.key,
            url: p.target.url,
            name: p.target.name,
            created_at: at,
            organisation_id: organisationId,
          })
          .onConflict((oc) => oc.columns(['organisation_id', 'target_key']).doNothing())
          .execute();
        const target = await trx
          .selectFrom('targets')
          .select('id')
          .where('organisation_id', '=', organisationId)
          .where('target_key', '=', p.target.key)
          .executeTakeFirstOrThrow();
        const run = await trx
          .insertInto('runs')
          .values({
            ...p.run,
            target_id: target.id,
            digest: p.digest,
            signature_status: sig.status,
            signature_key: sig.key,
            signature_detail: sig.detail,
            created_at: at,
            organisation_id: organisationId,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const runId = Number(run.id);
        for (const f of p.files)
          await trx
            .insertInto('blobs')
            .values({ sha256: f.sha256, size: f.bytes.length, bytes: f.bytes })
            .onConflict((oc) => oc.column('sha256').doNothing())
            .execute();
        await trx
          .insertInto('run_files')
          .values(p.files.map((f) => ({ run_id: runId, path: f.path, sha256: f.sha256, size: f.bytes.length })))
          .execute();
        for (let i = 0; i < p.verdicts.length; i += 500)
          await trx
            .insertInto('rule_verdicts')
            .values(p.verdicts.slice(i, i + 500).map((v) => ({ ...v, run_id: runId })))
            .execute();
        if (p.figures.length > 0)
          await trx
            .insertInto('load_figures')
            .values(p.figures.map((f) => ({ ...f, run_id: runId })))
            .execute();
        return runId;
      });
      return { id, created: true };
    } catch (err) {
      // the same run published at the same moment by another request: the unique digest let one in
      const raced = await this.runIdByDigest(p.digest, organisationId);
      if (raced !== undefined) return { id: raced, created: false };
      throw err;
    }
  }

  private async runIdByDigest(digest: string, organisationId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('runs')
      .select('id')
      .where('organisation_id', '=', organisationId)
      .where('digest', '=', digest)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.id);
  }

  async run(id: number): Promise<RunSummary | undefined> {
    const row = await this.db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : runSummary(row as RunRow);
  }

  async target(id: number): Promise<TargetRef | undefined> {
    const t = await this.db.selectFrom('targets').selectAll().where('id', '=', id).executeTakeFirst();
    return t === undefined
      ? undefined
      : {
          id: Number(t.id),
          name: t.name,
          url: t.url,
          embedded: t.target_key === 'embedded',
          organisationId: Number(t.organisation_id),
        };
  }

  /** A target's runs, newest first, filtered. */
  async targetRuns(targetId: number, f: RunFilter = {}): Promise<RunSummary[]> {
    let q = this.db.selectFrom('runs').selectAll().where('target_id', '=', targetId);
    if (f.kind) q = q.where('kind', '=', f.kind);
    if (f.profile) q = q.where('profile', '=', f.profile);
    if (f.build) q = q.where('build', '=', f.build);
    if (f.label) q = q.where('label', '=', f.label);
    if (f.version) q = q.where('erpcert_version', '=', f.version);
    if (f.before !== undefined) q = q.where('id', '<', f.before);
    const rows = await q
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(f.limit ?? 100)
      .execute();
    return rows.map((r) => runSummary(r as RunRow));
  }

  /** Every target of `organisations` with its latest conformance run and its last 20 runs. */
  async targets(organisations: readonly number[]): Promise<TargetSummary[]> {
    if (organisations.length === 0) return [];
    const targets = await this.db
      .selectFrom('targets')
      .selectAll()
      .where('organisation_id', 'in', [...organisations])
      .orderBy('name')
      .execute();
    const counts = await this.db
      .selectFrom('runs')
      .select(['target_id', (eb) => eb.fn.countAll().as('n')])
      .groupBy('target_id')
      .execute();
    const count = new Map(counts.map((c) => [Number(c.target_id), Number(c.n)]));
    return Promise.all(
      targets.map(async (t) => {
        const id = Number(t.id);
        const [latest] = await this.targetRuns(id, { kind: 'conformance', limit: 1 });
        return {
          id,
          name: t.name,
          url: t.url,
          embedded: t.target_key === 'embedded',
          organisationId: Number(t.organisation_id),
          runCount: count.get(id) ?? 0,
          latest: latest ?? null,
          recent: await this.targetRuns(id, { limit: 20 }),
        };
      }),
    );
  }

  /** The targets of `organisations` by name, each with whether it has a conformance run (the matrix's choice). */
  async targetChoices(organisations: readonly number[]): Promise<TargetChoice[]> {
    if (organisations.length === 0) return [];
    const rows = await this.db
      .selectFrom('targets')
      .select((eb) => [
        'targets.id',
        'targets.name',
        eb
          .exists(
            eb
              .selectFrom('runs')
              .select('runs.id')
              .whereRef('runs.target_id', '=', 'targets.id')
              .where('runs.kind', '=', 'conformance'),
          )
          .as('conformance'),
      ])
      .where('targets.organisation_id', 'in', [...organisations])
      .orderBy('targets.name')
      .execute();
    return rows.map((r) => ({ id: Number(r.id), name: r.name, hasConformanceRun: Boolean(r.conformance) }));
  }

  async files(runId: number): Promise<StoredFile[]> {
    const rows = await this.db
      .selectFrom('run_files')
      .select(['path', 'sha256', 'size'])
      .where('run_id', '=', runId)
      .orderBy('path')
      .execute();
    return rows.map((r) => ({ path: r.path, sha256: r.sha256, size: Number(r.size) }));
  }

  /** The bytes of one file of a run. */
  async readFile(runId: number, path: string): Promise<Buffer | undefined> {
    const row = await this.db
      .selectFrom('run_files')
      .innerJoin('blobs', 'blobs.sha256', 'run_files.sha256')
      .select('blobs.bytes')
      .where('run_files.run_id', '=', runId)
      .where('run_files.path', '=', path)
      .executeTakeFirst();
    return row === undefined ? undefined : Buffer.from(row.bytes);
  }

  async ruleVerdicts(runId: number) {
    const rows = await this.db
      .selectFrom('rule_verdicts')
      .select(['rule_id', 'area', 'verdict', 'observations'])
      .where('run_id', '=', runId)
      .orderBy('rule_id')
      .execute();
    return rows.map((r) => ({
      rule: r.rule_id,
      area: r.area,
      verdict: r.verdict,
      observations: Number(r.observations),
    }));
  }

  /** Verdicts of `runIds` by rule, for the matrix: {@link readVerdicts}. */
  verdictsOf(runIds: readonly number[]): Promise<RuleVerdicts[]> {
    return readVerdicts(this.db, this.dialect, runIds, (id) => this.ruleVerdicts(id));
  }

  /** The target of the newest conformance run of `organisations`, if any. */
  async newestConformanceTarget(organisations: readonly number[]): Promise<number | undefined> {
    if (organisations.length === 0) return undefined;
    const row = await this.db
      .selectFrom('runs')
      .select('target_id')
      .where('organisation_id', 'in', [...organisations])
      .where('kind', '=', 'conformance')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.target_id);
  }

  /** The newest conformance run of each target of `organisations` made with erpcert `version`. */
  async latestRunsAtVersion(version: string, organisations: readonly number[]): Promise<RunSummary[]> {
    if (organisations.length === 0) return [];
    const newest = this.db
      .selectFrom('runs')
      .select(['target_id', (eb) => eb.fn.max('id').as('max_id')])
      .where('organisation_id', 'in', [...organisations])
      .where('erpcert_version', '=', version)
      .where('kind', '=', 'conformance')
      .groupBy('target_id')
      .as('newest');
    const rows = await this.db
      .selectFrom('runs')
      .innerJoin(newest, 'newest.max_id', 'runs.id')
      .selectAll('runs')
      .orderBy('runs.target_id')
      .execute();
    return rows.map((r) => runSummary(r as RunRow));
  }

  /** Every load run of a target, oldest first, with its scenario figures. */
  async loadFigures(targetId: number, limit = 200) {
    const runs = (
      await this.db
        .selectFrom('runs')
        .selectAll()
        .where('target_id', '=', targetId)
        .where('kind', '=', 'load')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute()
    ).reverse();
    const ids = runs.map((r) => Number(r.id));
    const figures =
      ids.length === 0 ? [] : await this.db.selectFrom('load_figures').selectAll().where('run_id', 'in', ids).execute();
    return { runs: runs.map((r) => runSummary(r as RunRow)), figures };
  }

  /**
   * Registers a public key (PEM, SPKI): runs it signs show "verified"; the runs it signed before are checked again in
   * the same transaction (signing-keys.ts). Returns the key.
   */
  registerKey(pem: string, name: string, organisationId: number): Promise<RegisteredKey> {
    return registerKey(this.db, this.dialect, this.now().toISOString(), pem, name, organisationId);
  }

  /** Checks again the runs of `organisationId` that the registered key `fingerprint` signed (signing-keys.ts). */
  recheckSignatures(organisationId: number, fingerprint: string): Promise<number[]> {
    return recheckByKey(this.db, organisationId, fingerprint);
  }

  /** The keys registered by `organisations`. */
  keys(organisations: readonly number[]): Promise<RegisteredKey[]> {
    return keysOf(this.db, organisations);
  }

  /** The keys an organisation registered, ready for verify: they check its runs. */
  publicKeys(organisationId: number): Promise<PublicKeyInfo[]> {
    return publicKeysOf(this.db, organisationId);
  }
}
