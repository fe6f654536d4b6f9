/**
 * DSSE, the Dead Simple Signing Envelope (secure-systems-lab/dsse, envelope.md and protocol.md v1.0.x): the
 * signature covers the pre-authentication encoding of the payload type and the payload, never the raw payload.
 * Signing lives in sign.ts and checking in verify.ts; this file holds only what both read.
 */

import { decodeBase64Strict } from '@erpcert/contract';

/** The in-toto payload type (in-toto attestation framework, envelope.md). */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/** One signature of an envelope: `sig` is base64 (ECDSA: ASN.1 DER; Ed25519: the 64 raw bytes). */
export interface DsseSignature {
  readonly keyid: string;
  readonly sig: string;
}

/** The JSON envelope: `payload` is base64 of the serialized body. */
export interface DsseEnvelope {
  readonly payloadType: string;
  readonly payload: string;
  readonly signatures: readonly DsseSignature[];
}

/** An envelope that is not one: bad JSON, a missing field, base64 that is not. */
export class EnvelopeFormatError extends Error {
  override readonly name = 'EnvelopeFormatError';
}

/**
 * PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, LEN the byte length in ASCII decimal
 * without leading zeros (DSSE protocol.md "Signature definition").
 */
export function pae(payloadType: string, payload: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, 'ascii'),
    type,
    Buffer.from(` ${payload.length} `, 'ascii'),
    payload,
  ]);
}

/** Decodes standard base64 strictly (contract's decodeBase64Strict); anything else is an envelope format error. */
export function base64Bytes(text: string, what: string): Buffer {
  const bytes = decodeBase64Strict(text);
  if (bytes === undefined) throw new EnvelopeFormatError(`${what} is not base64`);
  return bytes;
}

/**
 * Parses the one envelope of an `.intoto.jsonl` file (JSON Lines: one envelope per line; erpcert writes one, and
 * refuses a file with more, so that no second envelope can ride along unseen).
 */
export function parseEnvelopeLines(text: string): DsseEnvelope {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length !== 1) throw new EnvelopeFormatError(`${lines.length} envelopes, want exactly 1`);
  let doc: unknown;
  try {
    doc = JSON.parse(lines[0]!);
  } catch (err) {
    throw new EnvelopeFormatError(`not JSON: ${(err as Error).message}`);
  }
  const e = doc as Partial<Record<keyof DsseEnvelope, unknown>> | null;
  if (typeof e !== 'object' || e === null) throw new EnvelopeFormatError('is not a JSON object');
  if (typeof e.payloadType !== 'string') throw new EnvelopeFormatError('has no payloadType string');
  if (typeof e.payload !== 'string') throw new EnvelopeFormatError('has no payload string');
  if (!Array.isArray(e.signatures) || e.signatures.length === 0) throw new EnvelopeFormatError('has no signatures');
  const signatures = e.signatures.map((s: unknown, i) => {
    const sig = s as { keyid?: unknown; sig?: unknown } | null;
    if (typeof sig?.sig !== 'string') throw new EnvelopeFormatError(`signature ${i + 1} without a sig string`);
    return { keyid: typeof sig.keyid === 'string' ? sig.keyid : '', sig: sig.sig };
  });
  return { payloadType: e.payloadType, payload: e.payload, signatures };
}
