/**
 * Verifying a signed report folder: the DSSE signature with the customer's public key, the statement, the
 * predicate against its schema, every subject's digest re-derived from the bytes on disk, and the predicate against
 * results.json. Never imports sign.ts: nothing here can produce a signature.
 */
import { verify } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rules, specsDir } from '@erpcert/contract';
import type { ResultsDocument } from '../reports/results.js';
import { validateResults } from '../reports/results-validate.js';
import {
  base64Bytes,
  type DsseEnvelope,
  EnvelopeFormatError,
  IN_TOTO_PAYLOAD_TYPE,
  pae,
  parseEnvelopeLines,
} from './dsse.js';
import type { PublicKeyInfo } from './keys.js';
import { CERTIFICATION_PREDICATE_TYPE, type CertificationPredicate } from './predicate.js';
import { validatePredicate } from './predicate-validate.js';
import { ATTESTATION_FILE, STATEMENT_TYPE, type Statement, SUBJECT_FILES, sha256Hex } from './statement.js';

/** What a customer requires beyond a valid signature (`--expect-spec`, `--expect-version`, `--expect-target`). */
export interface Expectations {
  readonly spec?: string;
  readonly version?: string;
  readonly target?: string;
}

/** A check that did not hold: the file it concerns, the check's name, and what was found. */
export interface VerifyFailure {
  readonly file: string;
  readonly check: string;
  readonly message: string;
}

/** The outcome: `predicate` is set once the signature and statement hold; `ok` when no check failed. */
export interface VerifyOutcome {
  readonly ok: boolean;
  readonly failures: readonly VerifyFailure[];
  readonly predicate: CertificationPredicate | null;
  readonly notes: readonly string[];
}

const JUDGED = new Set(['PASS', 'FAIL', 'KNOWN']);

/** Whether one DSSE signature verifies over `message` with `key` (ECDSA: DER over SHA-256; Ed25519: raw). */
function signatureHolds(key: PublicKeyInfo, message: Buffer, sig: Buffer): boolean {
  try {
    return key.algorithm === 'ed25519'
      ? verify(null, message, key.key, sig)
      : verify('sha256', message, { key: key.key, dsaEncoding: 'der' }, sig);
  } catch {
    return false;
  }
}

/**
 * Whether one of the envelope's signatures verifies with `key` over PAE(payloadType, payload): the check that says
 * who signed, before anything of the statement is read. A payload or sig that is not base64 verifies nothing.
 */
export function envelopeSignedBy(envelope: DsseEnvelope, key: PublicKeyInfo): boolean {
  let payload: Buffer;
  try {
    payload = base64Bytes(envelope.payload, 'the payload');
  } catch {
    return false;
  }
  const message = pae(envelope.payloadType, payload);
  return envelope.signatures.some((s) => {
    try {
      return signatureHolds(key, message, base64Bytes(s.sig, 'sig'));
    } catch {
      return false;
    }
  });
}

/** JSON with object keys sorted, so that two equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Compares what the predicate states with results.json, field by field. */
function compareWithResults(p: CertificationPredicate, doc: ResultsDocument, fail: (check: string, m: string) => void) {
  const same = (check: string, stated: unknown, found: unknown) => {
    if (canonical(stated) !== canonical(found))
      fail(check, `the attestation states ${JSON.stringify(stated)}, results.json has ${JSON.stringify(found)}`);
  };
  same('target', p.target.url, doc.run.target.url);
  same('erpcert version', p.erpcert.version, doc.tool.version);
  same('spec sha256', p.spec.sha256, doc.spec.sha256);
  const r = doc.run;
  same('run', p.run, {
    profile: r.profile,
    seed: r.seed,
    runs: r.runs,
    only: r.only,
    shard: r.shard,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    runTag: r.runTag,
    outcome: r.outcome,
    interrupted: r.interrupted,
  });
  same('totals', p.totals, doc.totals);
  // a follower's causes are part of its verdict (issue 28): "FAIL <- CAUSE" on both sides
  const causes = (x: { readonly causedBy?: readonly string[] | null }) =>
    x.causedBy?.length ? ` <- ${x.causedBy.join(',')}` : '';
  const stated = new Map(p.rules.map((x) => [x.id, `${x.verdict}${causes(x)}`]));
  const found = new Map(doc.rules.map((x) => [x.id, `${x.verdict}${causes(x)}`]));
  const differ = [...new Set([...stated.keys(), ...found.keys()])].filter((id) => stated.get(id) !== found.get(id));
  if (differ.length > 0)
    fail(
      'verdicts',
      `${differ.length} rule verdict(s) differ: ${differ
        .slice(0, 5)
        .map((id) => `${id} attested ${stated.get(id) ?? 'absent'}, results.json ${found.get(id) ?? 'absent'}`)
        .join('; ')}`,
    );
  const judged = doc.rules.filter((x) => x.standing === 'documented' && x.observable && JUDGED.has(x.verdict)).length;
  same('coverage', p.coverage.judged, judged);
}

/** Verifies the report folder `dir` with the public key `key`. */
export function verifyFolder(dir: string, key: PublicKeyInfo, expect: Expectations = {}): VerifyOutcome {
  const failures: VerifyFailure[] = [];
  const notes: string[] = [];
  const done = (predicate: CertificationPredicate | null): VerifyOutcome => ({
    ok: failures.length === 0,
    failures,
    predicate,
    notes,
  });
  const failOn = (file: string) => (check: string, message: string) => failures.push({ file, check, message });
  const att = failOn(ATTESTATION_FILE);
  const attFile = join(dir, ATTESTATION_FILE);
  if (!existsSync(attFile)) {
    att('signed', 'the folder is not signed: it holds no attestation');
    return done(null);
  }
  let envelope: DsseEnvelope;
  let payload: Buffer;
  try {
    envelope = parseEnvelopeLines(readFileSync(attFile, 'utf8'));
    payload = base64Bytes(envelope.payload, 'the payload');
  } catch (err) {
    if (!(err instanceof EnvelopeFormatError)) throw err;
    att('envelope', `not a DSSE envelope (${err.message})`);
    return done(null);
  }
  if (!envelopeSignedBy(envelope, key)) {
    const by = envelope.signatures.map((s) => `sha256:${s.keyid || '(no keyid)'}`).join(', ');
    att('signature', `no signature verifies with key ${key.fingerprint} (the envelope names ${by})`);
    return done(null);
  }
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) {
    att('payload type', `${JSON.stringify(envelope.payloadType)}, want ${IN_TOTO_PAYLOAD_TYPE}`);
    return done(null);
  }
  let statement: Statement;
  try {
    statement = JSON.parse(payload.toString('utf8'));
  } catch (err) {
    att('statement', `the payload is not JSON: ${(err as Error).message}`);
    return done(null);
  }
  if (statement?._type !== STATEMENT_TYPE || !Array.isArray(statement.subject)) {
    att('statement', `not an in-toto Statement v1 (_type ${JSON.stringify(statement?._type)})`);
    return done(null);
  }
  if (statement.predicateType !== CERTIFICATION_PREDICATE_TYPE) {
    att(
      'predicate type',
      `unknown predicate type ${JSON.stringify(statement.predicateType)}; this erpcert reads ${CERTIFICATION_PREDICATE_TYPE}`,
    );
    return done(null);
  }
  const schema = validatePredicate(statement.predicate);
  if (!schema.valid) {
    att('predicate schema', schema.errors.slice(0, 3).join('; '));
    return done(null);
  }
  const predicate = statement.predicate as CertificationPredicate;
  for (const name of SUBJECT_FILES) {
    const subject = statement.subject.find((s) => s?.name === name);
    const fail = failOn(name);
    if (typeof subject?.digest?.sha256 !== 'string') fail('subject', 'the attestation does not cover this file');
    else if (!existsSync(join(dir, name))) fail('present', 'the file is missing');
    else if (sha256Hex(readFileSync(join(dir, name))) !== subject.digest.sha256.toLowerCase())
      fail('sha256', `the file's SHA-256 differs from the attested ${subject.digest.sha256}: it was changed`);
  }
  const resultsFile = join(dir, 'results.json');
  if (existsSync(resultsFile)) {
    let doc: ResultsDocument | undefined;
    try {
      doc = JSON.parse(readFileSync(resultsFile, 'utf8'));
    } catch (err) {
      failOn('results.json')('json', (err as Error).message);
    }
    const layout = doc === undefined ? undefined : validateResults(doc);
    if (layout && !layout.valid) failOn('results.json')('schema', layout.errors.slice(0, 3).join('; '));
    else if (doc) {
      compareWithResults(predicate, doc, failOn('results.json'));
      if (doc.attestation?.keyFingerprint !== undefined && doc.attestation.keyFingerprint !== key.fingerprint)
        failOn('results.json')(
          'signed by',
          `names key ${doc.attestation.keyFingerprint}, signed by ${key.fingerprint}`,
        );
    }
  }
  const catalogue = join(specsDir, 'rules.yaml');
  if (existsSync(catalogue) && sha256Hex(readFileSync(catalogue)) === predicate.spec.ruleCatalogue.sha256) {
    const of = rules.filter((r) => r.standing === 'documented' && r.observable).length;
    if (of !== predicate.coverage.of)
      att(
        'coverage',
        `the attestation counts ${predicate.coverage.of} documented observable rules, the run's catalogue ${of}`,
      );
  } else
    notes.push(
      "this erpcert's rules.yaml differs from the run's: the coverage total was taken from the attestation, not re-derived",
    );
  const exp = failOn(ATTESTATION_FILE);
  if (expect.spec !== undefined && expect.spec.toLowerCase() !== predicate.spec.sha256)
    exp('--expect-spec', `the run used specs with SHA-256 ${predicate.spec.sha256}, not ${expect.spec}`);
  if (expect.version !== undefined && expect.version.replace(/^v/, '') !== predicate.erpcert.version)
    exp('--expect-version', `the run used erpcert ${predicate.erpcert.version}, not ${expect.version}`);
  const url = (u: string) => u.replace(/\/+$/, '');
  if (expect.target !== undefined && url(expect.target) !== url(predicate.target.url))
    exp('--expect-target', `the run targeted ${predicate.target.url}, not ${expect.target}`);
  return done(predicate);
}
