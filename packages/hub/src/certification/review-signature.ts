/**
 * The signature of a stored run checked again for its review, by the checks `erpcert verify` makes: the run's
 * files as stored, through ingest/signature-status.ts (@erpcert/runs verifyFolder), with the keys its organisation
 * registered. There is no second verifier.
 */
import { checkSignature, type SignatureCheck } from '../ingest/signature-status.js';
import type { HubStore } from '../store/hub-store.js';
import type { RunSummary } from '../store/run-summary.js';

export async function reviewSignature(store: HubStore, run: RunSummary): Promise<SignatureCheck> {
  const files = new Map<string, Buffer>();
  for (const f of await store.files(run.id)) {
    const bytes = await store.readFile(run.id, f.path);
    if (bytes) files.set(f.path, bytes);
  }
  return checkSignature(files, await store.publicKeys(run.organisationId));
}
