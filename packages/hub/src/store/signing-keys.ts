/**
 * The public keys an organisation trusts (`signing_keys`): the runs they sign show "verified, key sha256:…".
 * Registering one checks again, in the same transaction, the organisation's runs it signed before
 * (ingest/signature-recheck.ts), so that a run published before its key reads "verified" too.
 *
 * A run stored while its key is being registered: the ingest checked it with the keys it read before, and checks
 * again after storing it with a key that has appeared since (ingest.ts). On PostgreSQL (READ COMMITTED) both checks
 * could miss it: the registration lists the runs before the run commits, the ingest reads the keys before the key
 * commits. So both take {@link lockSignatures} first: one transaction waits for the other to commit, and whichever
 * comes second sees what the first wrote (each statement of READ COMMITTED reads what was committed when it began).
 */
import { createPublicKey } from 'node:crypto';
import { type PublicKeyInfo, publicKeyInfo } from '@erpcert/runs';
import { type Kysely, sql } from 'kysely';
import { recheckSignatures } from '../ingest/signature-recheck.js';
import type { Dialect } from './open-store.js';
import type { Database } from './schema.js';
import { StoreInputError } from './store-input-error.js';

export interface RegisteredKey {
  readonly fingerprint: string;
  readonly algorithm: string;
  readonly name: string;
  readonly createdAt: string;
  readonly organisationId: number;
}

/** The first key of the signature lock (pg_advisory_xact_lock's two-key form): "ESig", a space of its own. */
export const SIGNATURE_LOCK = 0x45536967;

/**
 * Takes the lock of `organisationId`'s signature statuses until the transaction `trx` ends: a key's registration
 * (`register`: alone) and the storing of a run (`store`: shared, runs of one organisation are still stored side by
 * side) take it, so a registration and a run never overlap. On PostgreSQL an advisory lock (no row is locked,
 * nothing else waits on it); SQLite writes one transaction at a time already.
 */
export async function lockSignatures(
  trx: Kysely<Database>,
  dialect: Dialect,
  organisationId: number,
  mode: 'register' | 'store',
): Promise<void> {
  if (dialect !== 'postgres') return;
  const key = sql`${SIGNATURE_LOCK}::integer, ${organisationId}::integer`;
  if (mode === 'register') await sql`select pg_advisory_xact_lock(${key})`.execute(trx);
  else await sql`select pg_advisory_xact_lock_shared(${key})`.execute(trx);
}

/** Registers `pem` (SPKI) for `organisationId` (again: nothing new) and checks again the runs it signed. */
export async function registerKey(
  db: Kysely<Database>,
  dialect: Dialect,
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
    // first: a run being stored commits before the runs are listed below, or waits for this key to commit
    await lockSignatures(trx, dialect, organisationId, 'register');
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
