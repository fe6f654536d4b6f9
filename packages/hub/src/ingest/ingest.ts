/**
 * Ingest: an upload (zip or files) becomes one stored run, or is refused with an {@link IngestError} and nothing
 * is stored. The signature is checked with the hub's registered keys before the run's transaction starts; a key
 * registered meanwhile is caught after it (the run's transaction and the key's take the same lock).
 */
import type { HubStore } from '../store/hub-store.js';
import { DEFAULT_ORGANISATION_ID } from '../store/migrations/0003-accounts.js';
import type { RunSummary } from '../store/run-summary.js';
import { DEFAULT_LIMITS, type IngestLimits } from './limits.js';
import { type PublishMeta, prepareRun } from './prepare-run.js';
import { readZip } from './read-zip.js';
import type { RunFiles } from './run-files.js';
import { checkSignature } from './signature-status.js';

export interface Ingested {
  readonly run: RunSummary;
  /** false when the same run (same digest) was already stored. */
  readonly created: boolean;
}

export async function ingestFiles(store: HubStore, files: RunFiles, meta: PublishMeta = {}): Promise<Ingested> {
  const organisationId = meta.organisationId ?? DEFAULT_ORGANISATION_ID;
  const prepared = prepareRun(files, meta);
  const keys = await store.publicKeys(organisationId);
  const signature = checkSignature(files, keys);
  const { id, created } = await store.insertRun(prepared, signature, organisationId);
  if (created && (signature.status === 'not-registered' || signature.status === 'invalid')) {
    // a key registered while this run was checked: the run's transaction waited for it to commit (the signature lock
    // of signing-keys.ts), so the key is read here, and its recheck, which listed the runs before this one, is done
    const checked = new Set(keys.map((k) => k.fingerprint));
    for (const k of await store.publicKeys(organisationId))
      if (!checked.has(k.fingerprint)) await store.recheckSignatures(organisationId, k.fingerprint);
  }
  const run = await store.run(id);
  if (!run) throw new Error(`run ${id} vanished after it was stored`);
  return { run, created };
}

export async function ingestZip(
  store: HubStore,
  zip: Buffer,
  meta: PublishMeta = {},
  limits: IngestLimits = DEFAULT_LIMITS,
): Promise<Ingested> {
  return ingestFiles(store, await readZip(zip, limits), meta);
}
