/** Signing a DSSE envelope with a loaded key. verify.ts never imports this file. */
import { sign } from 'node:crypto';
import type { SigningKey } from '@erpcert/runs';
import { type DsseEnvelope, pae } from '@erpcert/runs';

/**
 * Signs PAE(payloadType, payload): ECDSA P-256 over SHA-256 with an ASN.1 DER signature (what openssl dgst and
 * securesystemslib's ecdsa-sha2-nistp256 verify), Ed25519 over the bytes themselves (RFC 8032, no pre-hash).
 */
export function signEnvelope(payloadType: string, payload: Uint8Array, key: SigningKey): DsseEnvelope {
  const message = pae(payloadType, payload);
  const sig =
    key.algorithm === 'ed25519'
      ? sign(null, message, key.privateKey)
      : sign('sha256', message, { key: key.privateKey, dsaEncoding: 'der' });
  return {
    payloadType,
    payload: Buffer.from(payload).toString('base64'),
    signatures: [{ keyid: key.keyid, sig: sig.toString('base64') }],
  };
}
