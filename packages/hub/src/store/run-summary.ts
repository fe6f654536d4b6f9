/** A run as the API lists it: the runs table's row in the API's words. */
import { signatureText } from '../ingest/signature-status.js';
import type { RunStatus, RunTable, SignatureStatus } from './schema.js';

export type RunRow = Omit<RunTable, 'id'> & { readonly id: number };

export interface RunSummary {
  readonly id: number;
  readonly targetId: number;
  /** The organisation it belongs to (issue 26). */
  readonly organisationId: number;
  readonly kind: 'conformance' | 'load';
  readonly build: string | null;
  readonly label: string | null;
  readonly profile: string | null;
  readonly seed: number | null;
  readonly erpcertVersion: string;
  readonly specSha256: string | null;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly publishedAt: string;
  readonly digest: string;
  readonly signature: {
    readonly status: SignatureStatus;
    readonly key: string | null;
    readonly text: string;
    readonly detail: string | null;
  };
  readonly parentRunId: number | null;
  readonly status: RunStatus;
  readonly outcome: 'pass' | 'fail' | 'error';
  readonly exitCode: number;
  readonly only: string | null;
  /** Conformance: rule verdicts; load: scenario verdicts (pass, fail, info as NONE). */
  readonly totals: {
    readonly rules: number;
    readonly PASS: number;
    readonly FAIL: number;
    readonly ERROR: number;
    readonly WARN: number;
    readonly SKIP: number;
    readonly KNOWN: number;
    readonly NONE: number;
  };
}

export function runSummary(r: RunRow): RunSummary {
  return {
    id: Number(r.id),
    targetId: Number(r.target_id),
    organisationId: Number(r.organisation_id),
    kind: r.kind,
    build: r.build,
    label: r.label,
    profile: r.profile,
    seed: r.seed === null ? null : Number(r.seed),
    erpcertVersion: r.erpcert_version,
    specSha256: r.spec_sha256,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    publishedAt: r.created_at,
    digest: r.digest,
    signature: {
      status: r.signature_status,
      key: r.signature_key,
      text: signatureText(r.signature_status, r.signature_key),
      detail: r.signature_detail,
    },
    parentRunId: r.parent_run_id === null ? null : Number(r.parent_run_id),
    status: r.status,
    outcome: r.outcome,
    exitCode: Number(r.exit_code),
    only: r.only_rules,
    totals: {
      rules: Number(r.rule_count),
      PASS: Number(r.pass_count),
      FAIL: Number(r.fail_count),
      ERROR: Number(r.error_count),
      WARN: Number(r.warn_count),
      SKIP: Number(r.skip_count),
      KNOWN: Number(r.known_count),
      NONE: Number(r.none_count),
    },
  };
}
