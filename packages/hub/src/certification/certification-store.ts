/**
 * Certification as a workflow, in the store: certifying bodies, runs submitted to them, the certifier's decision
 * (certified: the run is frozen in the same transaction; or rejected), and what the public page lists. Who may do
 * what is the routes' question (auth/permissions.ts); this layer keeps the rules of the workflow itself:
 * - only a signed conformance run is submitted (an unsigned one: sign it with `erpcert certify`), to a certifying
 *   body other than its own organisation, once while it waits;
 * - a submission is decided once; it is certified only when its signature verifies at the review.
 */
import type { Kysely } from 'kysely';
import type { SignatureCheck } from '../ingest/signature-status.js';
import type { RunSummary } from '../store/run-summary.js';
import type { Database, SignatureStatus, SubmissionState } from '../store/schema.js';
import { FrozenRunError, frozenAt } from './frozen-runs.js';

export class CertificationError extends Error {
  override readonly name = 'CertificationError';
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export interface OrganisationRef {
  readonly id: number;
  readonly slug: string;
  readonly name: string;
}

export interface Submission {
  readonly id: number;
  readonly runId: number;
  readonly organisation: OrganisationRef;
  readonly certifier: OrganisationRef;
  readonly state: SubmissionState;
  readonly submittedBy: string;
  readonly submittedAt: string;
  readonly decidedBy: string | null;
  readonly decidedAt: string | null;
  readonly note: string | null;
  /** The signature as the review checked it (null until decided). */
  readonly reviewedSignature: { readonly status: SignatureStatus; readonly key: string | null } | null;
}

/** A certified run as the public page lists it. */
export interface CertifiedRun {
  readonly runId: number;
  readonly organisation: OrganisationRef;
  readonly certifier: OrganisationRef;
  readonly targetId: number;
  /** The implementation: its target's name when it was certified. */
  readonly name: string;
  /** Its version: the run's build label (or its label). */
  readonly version: string | null;
  readonly erpcertVersion: string;
  readonly specSha256: string | null;
  readonly certifiedAt: string;
  readonly passed: number;
  readonly rules: number;
}

export const MAX_NOTE = 2000;

/** A note from input: text, trimmed, at most {@link MAX_NOTE} characters. */
export function noteOf(raw: unknown, required: boolean): string | null {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    if (required) throw new CertificationError(400, 'write a note: what the review found');
    return null;
  }
  if (typeof raw !== 'string') throw new CertificationError(400, 'the note must be text');
  const note = raw.trim();
  if (note.length > MAX_NOTE) throw new CertificationError(400, `the note is longer than ${MAX_NOTE} characters`);
  return note;
}

const SUBMISSION_COLUMNS = [
  's.id',
  's.run_id',
  's.state',
  's.submitted_by',
  's.submitted_at',
  's.decided_by',
  's.decided_at',
  's.note',
  's.signature_status',
  's.signature_key',
  'o.id as o_id',
  'o.slug as o_slug',
  'o.name as o_name',
  'c.id as c_id',
  'c.slug as c_slug',
  'c.name as c_name',
] as const;

export class Certification {
  constructor(
    readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Makes an organisation a certifying body (or no longer one). */
  async setCertifyingBody(organisationId: number, on: boolean): Promise<void> {
    if (on)
      await this.db
        .insertInto('certifying_bodies')
        .values({ organisation_id: organisationId, created_at: this.now().toISOString() })
        .onConflict((oc) => oc.column('organisation_id').doNothing())
        .execute();
    else await this.db.deleteFrom('certifying_bodies').where('organisation_id', '=', organisationId).execute();
  }

  async certifyingBodies(): Promise<OrganisationRef[]> {
    const rows = await this.db
      .selectFrom('certifying_bodies as b')
      .innerJoin('organisations as o', 'o.id', 'b.organisation_id')
      .select(['o.id', 'o.slug', 'o.name'])
      .orderBy('o.name')
      .execute();
    return rows.map((r) => ({ id: Number(r.id), slug: r.slug, name: r.name }));
  }

  /** A certifying body by id or slug. */
  async certifyingBody(idOrSlug: string): Promise<OrganisationRef | undefined> {
    return (await this.certifyingBodies()).find((b) => String(b.id) === idOrSlug || b.slug === idOrSlug);
  }

  /** Submits a signed conformance run to a certifying body; `by` names the submitter (actorLabel). */
  async submit(run: RunSummary, certifierIdOrSlug: string, by: string): Promise<Submission> {
    const certifier = await this.certifyingBody(certifierIdOrSlug);
    if (!certifier) throw new CertificationError(404, `there is no certifying body ${certifierIdOrSlug}`);
    if (certifier.id === run.organisationId)
      throw new CertificationError(400, 'an organisation does not certify its own runs: submit to another body');
    if (run.kind !== 'conformance') throw new CertificationError(400, 'only a conformance run is certified');
    if (run.signature.status === 'unsigned')
      throw new CertificationError(
        400,
        `run ${run.id} is unsigned: sign its folder with \`erpcert certify\`, publish the signed run, and submit that`,
      );
    if (run.signature.status === 'invalid')
      throw new CertificationError(
        400,
        `run ${run.id}'s signature is INVALID (${run.signature.detail ?? 'see the run'}): publish the folder as signed`,
      );
    if ((await frozenAt(this.db, run.id)) !== undefined) throw new FrozenRunError(run.id);
    const open = await this.db
      .selectFrom('certification_submissions')
      .select('id')
      .where('run_id', '=', run.id)
      .where('certifier_id', '=', certifier.id)
      .where('state', '=', 'submitted')
      .executeTakeFirst();
    if (open)
      throw new CertificationError(409, `run ${run.id} already waits for ${certifier.name} (submission ${open.id})`);
    const row = await this.db
      .insertInto('certification_submissions')
      .values({
        run_id: run.id,
        organisation_id: run.organisationId,
        certifier_id: certifier.id,
        state: 'submitted',
        submitted_by: by,
        submitted_at: this.now().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return this.submissionOrThrow(Number(row.id));
  }

  private query() {
    return this.db
      .selectFrom('certification_submissions as s')
      .innerJoin('organisations as o', 'o.id', 's.organisation_id')
      .innerJoin('organisations as c', 'c.id', 's.certifier_id')
      .select([...SUBMISSION_COLUMNS]);
  }

  async submission(id: number): Promise<Submission | undefined> {
    const r = await this.query().where('s.id', '=', id).executeTakeFirst();
    return r && toSubmission(r);
  }

  private async submissionOrThrow(id: number): Promise<Submission> {
    const s = await this.submission(id);
    if (!s) throw new Error(`submission ${id} vanished`);
    return s;
  }

  /** Submissions made by `organisations` or made to them (as certifying bodies), newest first. */
  async submissions(o: {
    readonly by?: readonly number[];
    readonly to?: readonly number[];
    readonly runId?: number;
  }): Promise<Submission[]> {
    const by = [...(o.by ?? [])];
    const to = [...(o.to ?? [])];
    if (by.length === 0 && to.length === 0) return [];
    let q = this.query().where((eb) =>
      eb.or([
        ...(by.length > 0 ? [eb('s.organisation_id', 'in', by)] : []),
        ...(to.length > 0 ? [eb('s.certifier_id', 'in', to)] : []),
      ]),
    );
    if (o.runId !== undefined) q = q.where('s.run_id', '=', o.runId);
    const rows = await q.orderBy('s.id', 'desc').limit(500).execute();
    return rows.map(toSubmission);
  }

  /**
   * Decides a waiting submission. Certified: only when `signature` (the review's check, by erpcert verify's checks)
   * is verified; the run is frozen in the same transaction.
   */
  async decide(
    id: number,
    decision: 'certified' | 'rejected',
    note: string,
    by: string,
    signature: SignatureCheck,
  ): Promise<Submission> {
    const s = await this.submission(id);
    if (!s) throw new CertificationError(404, `there is no submission ${id}`);
    if (s.state !== 'submitted') throw new CertificationError(409, `submission ${id} was already ${s.state}`);
    if (decision === 'certified' && signature.status !== 'verified')
      throw new CertificationError(
        409,
        `run ${s.runId}'s signature does not verify (${signature.status}${signature.detail ? `: ${signature.detail}` : ''}): it cannot be certified; reject it with a note`,
      );
    const at = this.now().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('certification_submissions')
        .set({
          state: decision,
          decided_by: by,
          decided_at: at,
          note,
          signature_status: signature.status,
          signature_key: signature.key,
        })
        .where('id', '=', id)
        .where('state', '=', 'submitted')
        .executeTakeFirst();
      // decided at the same moment by another request
      if (Number(r.numUpdatedRows) !== 1) throw new CertificationError(409, `submission ${id} was already decided`);
      if (decision === 'certified') {
        const target = await trx
          .selectFrom('runs')
          .innerJoin('targets', 'targets.id', 'runs.target_id')
          .select('targets.name')
          .where('runs.id', '=', s.runId)
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('frozen_runs')
          .values({ run_id: s.runId, submission_id: id, certified_at: at, implementation: target.name })
          .onConflict((oc) => oc.column('run_id').doNothing())
          .execute();
      }
    });
    return this.submissionOrThrow(id);
  }

  /** The certified runs, newest certification first (`organisation`, `target`: one implementation's). */
  async certified(
    o: { readonly organisationSlug?: string; readonly targetId?: number; readonly runId?: number } = {},
  ): Promise<CertifiedRun[]> {
    let q = this.db
      .selectFrom('frozen_runs as f')
      .innerJoin('runs as r', 'r.id', 'f.run_id')
      .innerJoin('organisations as o', 'o.id', 'r.organisation_id')
      .innerJoin('certification_submissions as s', 's.id', 'f.submission_id')
      .innerJoin('organisations as c', 'c.id', 's.certifier_id')
      .select([
        'f.run_id',
        'f.certified_at',
        'r.target_id',
        'r.build',
        'r.label',
        'r.erpcert_version',
        'r.spec_sha256',
        'r.pass_count',
        'r.rule_count',
        'f.implementation',
        'o.id as o_id',
        'o.slug as o_slug',
        'o.name as o_name',
        'c.id as c_id',
        'c.slug as c_slug',
        'c.name as c_name',
      ]);
    if (o.organisationSlug !== undefined) q = q.where('o.slug', '=', o.organisationSlug);
    if (o.targetId !== undefined) q = q.where('r.target_id', '=', o.targetId);
    if (o.runId !== undefined) q = q.where('f.run_id', '=', o.runId);
    const rows = await q.orderBy('f.certified_at', 'desc').orderBy('f.run_id', 'desc').limit(1000).execute();
    return rows.map((r) => ({
      runId: Number(r.run_id),
      organisation: { id: Number(r.o_id), slug: r.o_slug, name: r.o_name },
      certifier: { id: Number(r.c_id), slug: r.c_slug, name: r.c_name },
      targetId: Number(r.target_id),
      name: r.implementation,
      version: r.build ?? r.label,
      erpcertVersion: r.erpcert_version,
      specSha256: r.spec_sha256,
      certifiedAt: r.certified_at,
      passed: Number(r.pass_count),
      rules: Number(r.rule_count),
    }));
  }

  /** The certification of a run, when it is certified. */
  async certificationOf(runId: number): Promise<CertifiedRun | undefined> {
    const [row] = await this.certified({ runId });
    return row;
  }
}

type SubmissionRow = {
  readonly id: number;
  readonly run_id: number;
  readonly state: SubmissionState;
  readonly submitted_by: string;
  readonly submitted_at: string;
  readonly decided_by: string | null;
  readonly decided_at: string | null;
  readonly note: string | null;
  readonly signature_status: SignatureStatus | null;
  readonly signature_key: string | null;
  readonly o_id: number;
  readonly o_slug: string;
  readonly o_name: string;
  readonly c_id: number;
  readonly c_slug: string;
  readonly c_name: string;
};

function toSubmission(r: SubmissionRow): Submission {
  return {
    id: Number(r.id),
    runId: Number(r.run_id),
    organisation: { id: Number(r.o_id), slug: r.o_slug, name: r.o_name },
    certifier: { id: Number(r.c_id), slug: r.c_slug, name: r.c_name },
    state: r.state,
    submittedBy: r.submitted_by,
    submittedAt: r.submitted_at,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at,
    note: r.note,
    reviewedSignature: r.signature_status === null ? null : { status: r.signature_status, key: r.signature_key },
  };
}
