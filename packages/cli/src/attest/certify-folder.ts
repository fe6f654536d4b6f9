/**
 * Signing a conformance report folder: `erpcert conform --sign-key KEY` after it wrote its reports, and
 * `erpcert certify DIR --sign-key KEY` on a folder written earlier. Both take this one path.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { erpcertVersion } from '@erpcert/client';
import { docsDir, rules, specsDir } from '@erpcert/contract';
import type { AttestationInfo, ResultsDocument, SigningKey } from '@erpcert/runs';
import {
  ATTESTATION_FILE,
  CERTIFICATION_PREDICATE_TYPE,
  type CertificationPredicate,
  certificationPredicate,
  certificationStatement,
  documentedCoverage,
  folderSubjects,
  IN_TOTO_PAYLOAD_TYPE,
  type LoadAttestation,
  LoadRunReadError,
  loadAttestation,
  readLoadRun,
  type Subject,
  specFileDigests,
  validatePredicate,
  validateResults,
} from '@erpcert/runs';
import { runMasker } from '../reports/secrets.js';
import { specInfo } from '../reports/spec-info.js';
import { writeReports } from '../reports/write-reports.js';
import { signEnvelope } from './sign.js';

/** A folder that cannot be signed: no results.json, one that does not parse, or one this erpcert did not write. */
export class CertifyError extends Error {
  override readonly name = 'CertifyError';
}

/** Options of {@link certifyFolder}. */
export interface CertifyOptions {
  /** A load run folder (`--load-report DIR`) whose figures and verdicts the predicate adds. */
  readonly loadReport?: string;
}

/** What was signed. */
export interface Certified {
  readonly file: string;
  readonly fingerprint: string;
  readonly subjects: readonly Subject[];
  readonly predicate: CertificationPredicate;
}

function readResults(dir: string): ResultsDocument {
  const file = join(dir, 'results.json');
  if (!existsSync(file)) throw new CertifyError(`${dir} holds no results.json (is it an erpcert conform folder?)`);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CertifyError(`${file} is not JSON: ${(err as Error).message}`);
  }
  const check = validateResults(doc);
  if (!check.valid)
    throw new CertifyError(`${file} does not match results.schema.json: ${check.errors.slice(0, 3).join('; ')}`);
  return doc as ResultsDocument;
}

function readLoad(dir: string): LoadAttestation {
  try {
    const doc = readLoadRun(dir);
    return loadAttestation(doc, readFileSync(join(dir, 'results.json')));
  } catch (err) {
    if (err instanceof LoadRunReadError) throw new CertifyError(`--load-report: ${err.message}`);
    throw err;
  }
}

/**
 * Signs the report folder `dir` with `key`: records the signature in results.json and re-renders the four report
 * files from it (so that their header names the key), then writes {@link ATTESTATION_FILE}, a DSSE envelope over
 * an in-toto Statement v1 whose subjects are those four files. The folder must come from this erpcert version and
 * these specs, so that the re-rendered files say what the run's did and the predicate's spec digests are the run's.
 * The private key is used, never written or printed.
 */
export function certifyFolder(dir: string, key: SigningKey, options: CertifyOptions = {}): Certified {
  const doc = readResults(dir);
  if (doc.tool.version !== erpcertVersion())
    throw new CertifyError(
      `results.json was written by erpcert ${doc.tool.version}; certify it with that version (this is ${erpcertVersion()})`,
    );
  const spec = specInfo(specsDir);
  if (doc.spec.sha256 !== spec.sha256)
    throw new CertifyError(
      `the run checked against specs with SHA-256 ${doc.spec.sha256}, this erpcert has ${spec.sha256}: certify with the specs of the run`,
    );
  const load = options.loadReport !== undefined ? readLoad(options.loadReport) : null;
  const attestation: AttestationInfo = {
    file: ATTESTATION_FILE,
    predicateType: CERTIFICATION_PREDICATE_TYPE,
    keyFingerprint: key.fingerprint,
    keyAlgorithm: key.algorithm,
  };
  const signed: ResultsDocument = { ...doc, attestation };
  // results.json is masked already; an empty masker renders it as it is
  writeReports(signed, dir, {
    docsBase: `${relative(dir, docsDir).split('\\').join('/')}/`,
    masker: runMasker(undefined, undefined),
  });
  const predicate = certificationPredicate(signed, {
    specFiles: specFileDigests(specsDir),
    coverage: documentedCoverage(signed, rules),
    load,
  });
  const valid = validatePredicate(predicate);
  if (!valid.valid)
    throw new Error(
      `the predicate does not match its schema (a bug of erpcert): ${valid.errors.slice(0, 3).join('; ')}`,
    );
  const subjects = folderSubjects(dir);
  const statement = certificationStatement(subjects, CERTIFICATION_PREDICATE_TYPE, predicate);
  const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement), 'utf8'), key);
  const file = join(dir, ATTESTATION_FILE);
  writeFileSync(file, `${JSON.stringify(envelope)}\n`, 'utf8');
  return { file, fingerprint: key.fingerprint, subjects, predicate };
}
