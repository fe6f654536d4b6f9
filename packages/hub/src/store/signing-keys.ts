/**
 * The public keys an organisation trusts (`signing_keys`): the runs they sign show "verified, key sha256:…".
 * Registering one checks again, in the same transaction, the organisation's runs it signed before
 * (ingest/signature-recheck.ts), so that a run published before its key reads "verified" too.
 */
import { createPublicKey } from 'node:crypto';
import { type PublicKeyInfo, publicKeyInfo } from '@erpcert/runs';
import type { Kysely } from 'kysely';
import { recheckSignatures } from '../ingest/signature-recheck.js';
import type { Database } from './schema.js';
import { StoreInputError } from './store-input-error.js';

export interface RegisteredKey {
  readonly fingerprint: string;
  readonly algorithm: string;
  readonly name: string;
  readonly createdAt: string;
  readonly organisationId: number;
}

/** Registers `pem` (SPKI) for `organisationId` (again: nothing new) and checks again the runs it signed. */
export async function registerKey(
  db: Kysely<Database>,
  at: string,
  pem: string,
  name: string,
  organisationId: number,
): Promise<RegisteredKey> {
  let info: PublicKeyInfo;
  try {
    info = publicKeyInfo(createPublicKey(pem), name || 'the key');
  } catch (err) {
    throw new StoreInputError(`not a public key erpcert signs with: ${(err as Error).message}`);
  }
  const exported = info.key.export({ type: 'spki', format: 'pem' }).toString();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('signing_keys')
      .values({
        fingerprint: info.fingerprint,
        algorithm: info.algorithm,
        pem: exported,
        name,
        created_at: at,
        organisation_id: organisationId,
      })
      .onConflict((oc) => oc.columns(['organisation_id', 'fingerprint']).doNothing())
      .execute();
    await recheckSignatures(trx, organisationId, info, await publicKeysOf(trx, organisationId));
  });
  const [key] = (await keysOf(db, [organisationId])).filter((k) => k.fingerprint === info.fingerprint);
  if (!key) throw new Error(`key ${info.fingerprint} not stored`);
  return key;
}

/**
 * Checks again the runs of `organisationId` that the registered key `fingerprint` signed: for a run stored while its
 * key was being registered (the ingest checked it with the keys it read before). Returns the changed runs' ids.
 */
export function recheckByKey(db: Kysely<Database>, organisationId: number, fingerprint: string): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    const keys = await publicKeysOf(trx, organisationId);
    const key = keys.find((k) => k.fingerprint === fingerprint);
    return key === undefined ? [] : recheckSignatures(trx, organisationId, key, keys);
  });
}

/** The keys registered by `organisations`, oldest first. */
export async function keysOf(db: Kysely<Database>, organisations: readonly number[]): Promise<RegisteredKey[]> {
  if (organisations.length === 0) return [];
  const rows = await db
    .selectFrom('signing_keys')
    .selectAll()
    .where('organisation_id', 'in', [...organisations])
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({
    fingerprint: r.fingerprint,
    algorithm: r.algorithm,
    name: r.name,
    createdAt: r.created_at,
    organisationId: Number(r.organisation_id),
  }));
}

/** The keys an organisation registered, ready for verify: they check its runs. */
export async function publicKeysOf(db: Kysely<Database>, organisationId: number): Promise<PublicKeyInfo[]> {
  const rows = await db
    .selectFrom('signing_keys')
    .select(['pem', 'name'])
    .where('organisation_id', '=', organisationId)
    .execute();
  return rows.map((r) => publicKeyInfo(createPublicKey(r.pem), r.name));
}
