/**
 * The in-toto Statement v1 (in-toto attestation framework, spec/v1/statement.md) that erpcert signs: its subjects
 * are the report files a reader relies on, each by SHA-256, and its predicate is the certification predicate.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPORT_FILES } from '../reports/report-files.js';
import type { CertificationPredicate } from './predicate.js';

/** `_type` of an in-toto Statement v1. */
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';

/** The attestation file of a signed report folder (in-toto's `.intoto.jsonl`: one DSSE envelope per line). */
export const ATTESTATION_FILE = 'attestation.intoto.jsonl';

/** The subjects of the statement: every report file a reader relies on (write-reports.ts REPORT_FILES). */
export const SUBJECT_FILES: readonly string[] = REPORT_FILES;

/** A ResourceDescriptor as a subject: a name and its digests. */
export interface Subject {
  readonly name: string;
  readonly digest: { readonly sha256: string };
}

/** An in-toto Statement v1. */
export interface Statement<P = unknown> {
  readonly _type: typeof STATEMENT_TYPE;
  readonly subject: readonly Subject[];
  readonly predicateType: string;
  readonly predicate: P;
}

/** The hex SHA-256 of bytes. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The subjects of a report folder, each file read and hashed now. */
export function folderSubjects(dir: string): Subject[] {
  return SUBJECT_FILES.map((name) => ({ name, digest: { sha256: sha256Hex(readFileSync(join(dir, name))) } }));
}

/** The statement over a folder's subjects. */
export function certificationStatement(
  subjects: readonly Subject[],
  predicateType: string,
  predicate: CertificationPredicate,
): Statement<CertificationPredicate> {
  return { _type: STATEMENT_TYPE, subject: subjects, predicateType, predicate };
}
