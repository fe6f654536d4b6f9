/**
 * The hub's tables as Kysely sees them (kysely-org/kysely: queries typed against a `Database` interface, so a
 * renamed column fails `tsc`). Times are ISO 8601 text (UTC), which sorts and compares the same on SQLite and
 * PostgreSQL; ids are integers. Issue 26 (0003) adds organisations, accounts, sessions, tokens and the audit log:
 * every target, run, job and signing key carries an `organisation_id`.
 */
import type { ColumnType, Generated } from 'kysely';

/** A server the runs were made against: the embedded reference server, or a URL. */
export interface TargetTable {
  readonly id: Generated<number>;
  /** `embedded` for the reference server (a new port every run), else the target's URL without trailing slash. */
  readonly target_key: string;
  readonly url: string;
  readonly name: string;
  readonly created_at: string;
  /** A saved target's connection (0002): set when it is saved in the hub, null for a target only published to. */
  readonly auth_kind: ColumnType<'basic' | null, 'basic' | null | undefined, 'basic' | null>;
  readonly username: ColumnType<string | null, string | null | undefined, string | null>;
  /** The password, AES-256-GCM with a key from ERPCERT_HUB_SECRET (secret-box.ts); never answered, never logged. */
  readonly password_enc: ColumnType<string | null, string | null | undefined, string | null>;
  readonly compcode: ColumnType<number | null, number | null | undefined, number | null>;
  readonly other_compcode: ColumnType<number | null, number | null | undefined, number | null>;
  readonly usercode: ColumnType<string | null, string | null | undefined, string | null>;
  readonly unok_usercode: ColumnType<string | null, string | null | undefined, string | null>;
  readonly limited_usercode: ColumnType<string | null, string | null | undefined, string | null>;
  readonly portalcc: ColumnType<string | null, string | null | undefined, string | null>;
  readonly portal_path: ColumnType<string | null, string | null | undefined, string | null>;
  readonly company_in: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the connection was saved (null: not a saved target). */
  readonly saved_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The organisation it belongs to (0003); `target_key` is unique per organisation. */
  readonly organisation_id: number;
}

/** Where a run comes from: a published folder, or (later) a live run the hub executes. */
export type RunStatus = 'published' | 'queued' | 'running' | 'done' | 'interrupted' | 'cancelled';

/** The signature check of a published run (the `erpcert verify` checks with the hub's registered keys). */
export type SignatureStatus = 'verified' | 'not-registered' | 'invalid' | 'unsigned';

export interface RunTable {
  readonly id: Generated<number>;
  readonly target_id: number;
  readonly kind: 'conformance' | 'load';
  /** A commit or version label given when publishing. */
  readonly build: string | null;
  readonly label: string | null;
  /** Conformance: the profile; load: the engine. */
  readonly profile: string | null;
  readonly seed: number | null;
  readonly erpcert_version: string;
  readonly spec_sha256: string | null;
  readonly started_at: string;
  readonly finished_at: string | null;
  readonly created_at: string;
  /** sha256 over the run's file list (path and sha256 of each file): the same folder is the same run. */
  readonly digest: string;
  readonly signature_status: SignatureStatus;
  /** `sha256:<hex>` of the key that verified it. */
  readonly signature_key: string | null;
  /** What the check found (failures of an INVALID signature). */
  readonly signature_detail: string | null;
  readonly parent_run_id: number | null;
  readonly status: RunStatus;
  readonly outcome: 'pass' | 'fail' | 'error';
  readonly exit_code: number;
  readonly only_rules: string | null;
  readonly pass_count: number;
  readonly fail_count: number;
  readonly error_count: number;
  readonly warn_count: number;
  readonly skip_count: number;
  readonly known_count: number;
  readonly none_count: number;
  readonly rule_count: number;
  /** The organisation it belongs to (0003); `digest` is unique per organisation. */
  readonly organisation_id: number;
}

/** A rule's verdict in one conformance run: the matrix and a rule's history are queries on this table. */
export interface RuleVerdictTable {
  readonly run_id: number;
  readonly rule_id: string;
  readonly area: string;
  readonly verdict: string;
  readonly observations: number;
}

/** One scenario of a load run: the figures the trends draw. */
export interface LoadFigureTable {
  readonly run_id: number;
  readonly scenario: string;
  /** Achieved requests per second (absent for read-only scenarios). */
  readonly throughput: number | null;
  readonly p50_ms: number;
  readonly p90_ms: number;
  /** Null for a run of an erpcert that did not measure p95 (migration 0005-load-p95): not recorded, not 0. */
  readonly p95_ms: number | null;
  readonly p99_ms: number;
  /** Seconds of a documented read (read scenarios). */
  readonly read_seconds: number | null;
  readonly documented: string;
  readonly documented_rate_min: number | null;
  readonly documented_rate_max: number | null;
  /** Best achieved rate among the saturation steps that held: the knee. */
  readonly knee: number | null;
  /** What limited the saturation: target, generator or step-limit. */
  readonly limiter: string | null;
  readonly verdict: string;
}

/** Content-addressed file bodies. */
export interface BlobTable {
  readonly sha256: string;
  readonly size: number;
  readonly bytes: Buffer;
}

/** A run's files: path inside the report folder -> blob. */
export interface RunFileTable {
  readonly run_id: number;
  readonly path: string;
  readonly sha256: string;
  readonly size: number;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'interrupted' | 'cancelled';

/** A live run the hub executes (0002): queued, claimed by a worker, heartbeated, ended. */
export interface JobTable {
  readonly id: Generated<number>;
  readonly target_id: number;
  readonly kind: 'conformance' | 'load';
  /** The run's settings as JSON (profile, selection, scenario): never a credential. */
  readonly settings: string;
  readonly state: JobState;
  /** A rerun's parent run. */
  readonly parent_run_id: number | null;
  /** The run the executed folder was stored as. */
  readonly run_id: number | null;
  readonly worker: string | null;
  readonly heartbeat_at: string | null;
  readonly cancel_requested: ColumnType<number, number | undefined, number>;
  readonly exit_code: number | null;
  readonly message: string | null;
  readonly created_at: string;
  readonly started_at: string | null;
  readonly finished_at: string | null;
  /** The organisation it belongs to (0003): its target's. */
  readonly organisation_id: number;
}

/** A live run's progress, in order: what the events stream replays. */
export interface JobEventTable {
  readonly job_id: number;
  readonly seq: number;
  readonly at: string;
  /** JSON of a {@link ProgressEvent}. */
  readonly event: string;
}

/** Public keys whose signatures the hub reports as verified. */
export interface SigningKeyTable {
  /** `sha256:<hex>` of the SPKI DER, as `erpcert keygen` prints it. */
  readonly fingerprint: string;
  readonly algorithm: string;
  readonly pem: string;
  readonly name: string;
  readonly created_at: ColumnType<string, string, never>;
  /** The organisation that registered it (0003): it verifies that organisation's runs. */
  readonly organisation_id: number;
}

/** An organisation (0003): a vendor, or a certifying body. Id 1 is `default`, holding what came before accounts. */
export interface OrganisationTable {
  readonly id: Generated<number>;
  readonly slug: string;
  readonly name: string;
  readonly created_at: string;
}

export interface UserTable {
  readonly id: Generated<number>;
  /** Lower-cased. */
  readonly email: string;
  readonly name: ColumnType<string | null, string | null | undefined, string | null>;
  /** `scrypt$N$r$p$salt$hash`; null: no password (OpenID Connect only). */
  readonly password_hash: ColumnType<string | null, string | null | undefined, string | null>;
  readonly disabled: ColumnType<number, number | undefined, number>;
  readonly oidc_issuer: ColumnType<string | null, string | null | undefined, string | null>;
  readonly oidc_subject: ColumnType<string | null, string | null | undefined, string | null>;
  readonly created_at: string;
  /** 1: an operator of the whole hub (0006): makes organisations and certifying bodies; not a role in any. */
  readonly hub_admin: ColumnType<number, number | undefined, number>;
}

export type RoleName = 'admin' | 'certifier' | 'engineer' | 'viewer';

/** A user's role in an organisation: one per (user, organisation). */
export interface MembershipTable {
  readonly user_id: number;
  readonly organisation_id: number;
  readonly role: RoleName;
  readonly created_at: string;
}

/** A signed-in browser: the cookie holds a random token, the table only its SHA-256. */
export interface SessionTable {
  readonly id: Generated<number>;
  readonly token_hash: string;
  readonly user_id: number;
  readonly created_at: string;
  readonly last_seen_at: string;
  readonly expires_at: string;
  /** password, link or oidc. */
  readonly method: string;
}

/** A one-time sign-in link (erpcert hub --init-admin): hashed, single use, short expiry. */
export interface SignInLinkTable {
  readonly id: Generated<number>;
  readonly token_hash: string;
  readonly user_id: number;
  readonly created_at: string;
  readonly expires_at: string;
  readonly used_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An API token of an organisation: shown once, stored as its SHA-256. */
export interface ApiTokenTable {
  readonly id: Generated<number>;
  readonly organisation_id: number;
  readonly name: string;
  /** A comma list of publish, read, run. */
  readonly scopes: string;
  readonly token_hash: string;
  readonly created_by: number | null;
  readonly created_at: string;
  readonly expires_at: string;
  readonly last_used_at: ColumnType<string | null, string | null | undefined, string | null>;
  readonly revoked_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Who did what, when. Never a secret. */
export interface AuditLogTable {
  readonly id: Generated<number>;
  readonly at: string;
  readonly actor: string;
  readonly user_id: number | null;
  readonly organisation_id: number | null;
  readonly action: string;
  readonly subject: string | null;
  readonly detail: string | null;
  readonly address: string | null;
}

/** Sign-in attempts, by account and by address: the slow-down and the lock-out count the failures. */
export interface SignInAttemptTable {
  readonly id: Generated<number>;
  readonly at: string;
  readonly email: string;
  readonly address: string;
  readonly succeeded: number;
}

/** An organisation that certifies others' runs (0004): its certifiers review the runs submitted to it. */
export interface CertifyingBodyTable {
  readonly organisation_id: number;
  readonly created_at: string;
}

export type SubmissionState = 'submitted' | 'certified' | 'rejected';

/** A run submitted by its organisation to a certifying body (0004), and the certifier's decision. */
export interface CertificationSubmissionTable {
  readonly id: Generated<number>;
  readonly run_id: number;
  /** The submitting organisation: the run's. */
  readonly organisation_id: number;
  /** The certifying body. */
  readonly certifier_id: number;
  readonly state: SubmissionState;
  /** Who submitted and who decided, as the audit log names an actor (never a secret). */
  readonly submitted_by: string;
  readonly submitted_at: string;
  readonly decided_by: ColumnType<string | null, string | null | undefined, string | null>;
  readonly decided_at: ColumnType<string | null, string | null | undefined, string | null>;
  readonly note: ColumnType<string | null, string | null | undefined, string | null>;
  /** The signature as the review checked it. */
  readonly signature_status: ColumnType<
    SignatureStatus | null,
    SignatureStatus | null | undefined,
    SignatureStatus | null
  >;
  readonly signature_key: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A certified run (0004): frozen, by the store and by triggers; a row here is never changed nor removed. */
export interface FrozenRunTable {
  readonly run_id: number;
  readonly submission_id: number;
  readonly certified_at: string;
  /** The implementation's name as certified: its target's name at that moment. */
  readonly implementation: string;
}

/** A read-only link to one run for someone without an account (0004): the token stored as its SHA-256. */
export interface ShareLinkTable {
  readonly id: Generated<number>;
  readonly run_id: number;
  readonly organisation_id: number;
  readonly token_hash: string;
  readonly created_by: string;
  readonly created_at: string;
  readonly expires_at: string;
  readonly revoked_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface Database {
  readonly targets: TargetTable;
  readonly runs: RunTable;
  readonly rule_verdicts: RuleVerdictTable;
  readonly load_figures: LoadFigureTable;
  readonly blobs: BlobTable;
  readonly run_files: RunFileTable;
  readonly jobs: JobTable;
  readonly job_events: JobEventTable;
  readonly signing_keys: SigningKeyTable;
  readonly organisations: OrganisationTable;
  readonly users: UserTable;
  readonly memberships: MembershipTable;
  readonly sessions: SessionTable;
  readonly sign_in_links: SignInLinkTable;
  readonly api_tokens: ApiTokenTable;
  readonly audit_log: AuditLogTable;
  readonly sign_in_attempts: SignInAttemptTable;
  readonly certifying_bodies: CertifyingBodyTable;
  readonly certification_submissions: CertificationSubmissionTable;
  readonly frozen_runs: FrozenRunTable;
  readonly share_links: ShareLinkTable;
}
