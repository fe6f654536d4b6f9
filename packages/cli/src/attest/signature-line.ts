import type { AttestationInfo } from '@erpcert/runs';

const ALGORITHM_NAMES = { 'ecdsa-p256': 'ECDSA P-256', ed25519: 'Ed25519' } as const;

/** The report header's line on the signature of the folder (report.html and summary.md). */
export function signatureLine(attestation: AttestationInfo | null | undefined): string {
  if (!attestation) return 'not signed: nothing in this folder lets a reader tell it from an edited copy';
  return (
    `signed with key ${attestation.keyFingerprint} (${ALGORITHM_NAMES[attestation.keyAlgorithm]}) in ` +
    `${attestation.file}; check it with erpcert verify <this folder> --key <the signer's public key>`
  );
}
