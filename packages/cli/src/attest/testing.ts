/** Signed report folders for the attestation tests. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { erpcertVersion } from '@erpcert/client';
import { specsDir } from '@erpcert/contract';
import type { ResultsDocument } from '@erpcert/runs';
import { generateKeyPair, type KeyAlgorithm, readSigningKey } from '@erpcert/runs';
import { runMasker } from '../reports/secrets.js';
import { specInfo } from '../reports/spec-info.js';
import { sampleResults } from '../reports/testing.js';
import { writeReports } from '../reports/write-reports.js';
import { certifyFolder } from './certify-folder.js';

/** A key pair written to `dir` as erpcert.key and erpcert.pub. */
export function writeKeyPair(dir: string, algorithm: KeyAlgorithm = 'ecdsa-p256', passphrase?: string) {
  mkdirSync(dir, { recursive: true });
  const pair = generateKeyPair(algorithm, passphrase);
  const keyFile = join(dir, 'erpcert.key');
  const pubFile = join(dir, 'erpcert.pub');
  writeFileSync(keyFile, pair.privatePem, { mode: 0o600 });
  writeFileSync(pubFile, pair.publicPem);
  return { keyFile, pubFile, fingerprint: pair.info.fingerprint };
}

/** The writers' sample document (one FAIL, one ERROR, ...) as this erpcert and these specs would write it. */
export function certifiableResults(): ResultsDocument {
  return {
    ...sampleResults({ context: { spec: specInfo(specsDir) } }),
    tool: { name: 'erpcert', version: erpcertVersion() },
  };
}

/** An unsigned report folder with the four files of the sample document. */
export function unsignedFolder(root: string = mkdtempSync(join(tmpdir(), 'erpcert-attest-'))): string {
  const dir = join(root, 'report');
  writeReports(certifiableResults(), dir, { docsBase: '../docs/', masker: runMasker(undefined, undefined) });
  return dir;
}

/** A signed report folder and the key pair that signed it. */
export function signedFolder(algorithm: KeyAlgorithm = 'ecdsa-p256') {
  const root = mkdtempSync(join(tmpdir(), 'erpcert-attest-'));
  const dir = unsignedFolder(root);
  const keys = writeKeyPair(join(root, 'keys'), algorithm);
  certifyFolder(dir, readSigningKey(keys.keyFile, {}));
  return { root, dir, ...keys };
}
