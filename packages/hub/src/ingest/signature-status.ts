/**
 * The signature status of an uploaded run, by the same check `erpcert verify` makes (@erpcert/runs verifyFolder),
 * tried with every key registered in the hub:
 * - `verified`: a registered key verifies the signature and every check holds;
 * - `invalid`: a registered key's signature holds but a check fails (a file changed), or the attestation is broken;
 * - `not-registered`: signed, but by no registered key;
 * - `unsigned`: no attestation file.
 * verifyFolder reads a folder, so the files are written to a private temporary folder (their paths were checked).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  ATTESTATION_FILE,
  EnvelopeFormatError,
  type PublicKeyInfo,
  parseEnvelopeLines,
  verifyFolder,
} from '@erpcert/runs';
import type { SignatureStatus } from '../store/schema.js';
import type { RunFiles } from './run-files.js';

export interface SignatureCheck {
  readonly status: SignatureStatus;
  readonly key: string | null;
  readonly detail: string | null;
}

/** The words the pages and the CLI show for a status. */
export function signatureText(status: SignatureStatus, key: string | null): string {
  switch (status) {
    case 'verified':
      return `verified, key ${key}`;
    case 'not-registered':
      return 'signed, key not registered';
    case 'invalid':
      return 'signature INVALID';
    case 'unsigned':
      return 'unsigned';
  }
}

export function checkSignature(files: RunFiles, keys: readonly PublicKeyInfo[]): SignatureCheck {
  const attestation = files.get(ATTESTATION_FILE);
  if (!attestation) return { status: 'unsigned', key: null, detail: null };
  // a broken envelope is INVALID whoever signed it
  try {
    parseEnvelopeLines(attestation.toString('utf8'));
  } catch (err) {
    if (err instanceof EnvelopeFormatError)
      return { status: 'invalid', key: null, detail: `${ATTESTATION_FILE}: not a DSSE envelope (${err.message})` };
    throw err;
  }
  if (keys.length === 0) return { status: 'not-registered', key: null, detail: null };
  const dir = mkdtempSync(join(tmpdir(), 'erpcert-hub-verify-'));
  try {
    for (const [path, bytes] of files) {
      const file = join(dir, ...path.split('/'));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, bytes);
    }
    let invalid: string | null = null;
    for (const key of keys) {
      const outcome = verifyFolder(dir, key);
      if (outcome.ok) return { status: 'verified', key: key.fingerprint, detail: null };
      // a registered key whose signature holds while another check fails: the folder was changed after signing
      if (!outcome.failures.some((f) => f.check === 'signature'))
        invalid ??= outcome.failures.map((f) => `${f.file}: ${f.check}: ${f.message}`).join('; ');
    }
    if (invalid !== null) return { status: 'invalid', key: null, detail: invalid };
    return { status: 'not-registered', key: null, detail: null };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
