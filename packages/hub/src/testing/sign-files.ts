/**
 * Signs a conformance run's files in a test as `erpcert certify` does (the signing lives in the CLI, above the
 * hub): results.json records the attestation, and attestation.intoto.jsonl holds a DSSE envelope over an
 * in-toto statement whose subjects are the report files and whose predicate is built by @erpcert/runs.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { rules, specsDir } from '@erpcert/contract';
import {
  ATTESTATION_FILE,
  CERTIFICATION_PREDICATE_TYPE,
  certificationPredicate,
  certificationStatement,
  documentedCoverage,
  IN_TOTO_PAYLOAD_TYPE,
  type PublicKeyInfo,
  pae,
  publicKeyInfo,
  type ResultsDocument,
  SUBJECT_FILES,
  sha256Hex,
  specFileDigests,
} from '@erpcert/runs';
import { conformanceFolderFiles } from './sample-runs.js';

export interface TestKey {
  readonly info: PublicKeyInfo;
  readonly pem: string;
  readonly privateKey: import('node:crypto').KeyObject;
}

export function testKey(): TestKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    info: publicKeyInfo(publicKey, 'test key'),
    pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey,
  };
}

export function signedFolderFiles(doc: ResultsDocument, key: TestKey): Map<string, Buffer> {
  const signed: ResultsDocument = {
    ...doc,
    attestation: {
      file: ATTESTATION_FILE,
      predicateType: CERTIFICATION_PREDICATE_TYPE,
      keyFingerprint: key.info.fingerprint,
      keyAlgorithm: 'ed25519',
    },
  };
  const files = conformanceFolderFiles(signed);
  const predicate = certificationPredicate(signed, {
    specFiles: specFileDigests(specsDir),
    coverage: documentedCoverage(signed, rules),
    load: null,
  });
  const subjects = SUBJECT_FILES.map((name) => ({
    name,
    digest: { sha256: sha256Hex(files.get(name) ?? Buffer.alloc(0)) },
  }));
  const statement = certificationStatement(subjects, CERTIFICATION_PREDICATE_TYPE, predicate);
  const payload = Buffer.from(JSON.stringify(statement), 'utf8');
  const sig = sign(null, pae(IN_TOTO_PAYLOAD_TYPE, payload), key.privateKey);
  const envelope = {
    payloadType: IN_TOTO_PAYLOAD_TYPE,
    payload: payload.toString('base64'),
    signatures: [{ keyid: key.info.keyid, sig: sig.toString('base64') }],
  };
  files.set(ATTESTATION_FILE, Buffer.from(`${JSON.stringify(envelope)}\n`));
  return files;
}
