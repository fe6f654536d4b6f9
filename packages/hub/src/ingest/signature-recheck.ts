/**
 * A key registered after its runs were published: the runs of the organisation that the key signed are checked
 * again from their stored files, by the same check as at ingest (signature-status.ts, `erpcert verify`'s checks),
 * and their stored status is updated, so that a run published as "signed, key not registered" reads "verified, key
 * sha256:…" once its key is registered. The status stays a column (the run and history pages read it, nothing is
 * verified per page view). Only "not-registered" and "invalid" runs can change (a new key never unverifies a run nor
 * signs an unsigned one), and only those whose envelope the key signs are read whole. A certified run is frozen: it
 * is left as it was certified (the freeze triggers of migration 0004 would refuse the update anyway).
 */
import {
  ATTESTATION_FILE,
  EnvelopeFormatError,
  envelopeSignedBy,
  type PublicKeyInfo,
  parseEnvelopeLines,
} from '@erpcert/runs';
import type { Kysely } from 'kysely';
import type { Database, SignatureStatus } from '../store/schema.js';
import { checkSignature } from './signature-status.js';

/** The stored statuses a newly registered key can change. */
const RECHECKED: readonly SignatureStatus[] = ['not-registered', 'invalid'];

function signedBy(attestation: Uint8Array, key: PublicKeyInfo): boolean {
  try {
    return envelopeSignedBy(parseEnvelopeLines(Buffer.from(attestation).toString('utf8')), key);
  } catch (err) {
    // a broken envelope is INVALID whoever registers what
    if (err instanceof EnvelopeFormatError) return false;
    throw err;
  }
}

/**
 * Checks again, with `keys` (every key of the organisation, `key` among them), the runs of `organisationId` that
 * `key` signed; run it in the transaction that registers the key. Returns the ids of the runs whose status changed.
 */
export async function recheckSignatures(
  db: Kysely<Database>,
  organisationId: number,
  key: PublicKeyInfo,
  keys: readonly PublicKeyInfo[],
): Promise<number[]> {
  const candidates = await db
    .selectFrom('runs')
    .innerJoin('run_files', 'run_files.run_id', 'runs.id')
    .innerJoin('blobs', 'blobs.sha256', 'run_files.sha256')
    .select(['runs.id', 'runs.signature_status', 'runs.signature_key', 'runs.signature_detail', 'blobs.bytes'])
    .where('runs.organisation_id', '=', organisationId)
    .where('runs.signature_status', 'in', [...RECHECKED])
    .where('run_files.path', '=', ATTESTATION_FILE)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(selectFrom('frozen_runs').select('frozen_runs.run_id').whereRef('frozen_runs.run_id', '=', 'runs.id')),
      ),
    )
    .orderBy('runs.id')
    .execute();
  const changed: number[] = [];
  for (const c of candidates) {
    if (!signedBy(c.bytes, key)) continue;
    const id = Number(c.id);
    const rows = await db
      .selectFrom('run_files')
      .innerJoin('blobs', 'blobs.sha256', 'run_files.sha256')
      .select(['run_files.path', 'blobs.bytes'])
      .where('run_files.run_id', '=', id)
      .execute();
    const check = checkSignature(new Map(rows.map((r) => [r.path, Buffer.from(r.bytes)])), keys);
    if (check.status === c.signature_status && check.key === c.signature_key && check.detail === c.signature_detail)
      continue;
    await db
      .updateTable('runs')
      .set({ signature_status: check.status, signature_key: check.key, signature_detail: check.detail })
      .where('id', '=', id)
      .execute();
    changed.push(id);
  }
  return changed;
}
