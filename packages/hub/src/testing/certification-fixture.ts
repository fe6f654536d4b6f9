/**
 * The organisations and runs the certification tests use: a vendor (with a registered key) whose signed run,
 * unsigned run and load run are stored through the ingest, and a certifying body. Names carry markup on purpose
 * (they are user input on the public page and the badge).
 */
import { Accounts } from '../auth/accounts.js';
import { Certification } from '../certification/certification-store.js';
import { ingestFiles } from '../ingest/ingest.js';
import type { HubStore } from '../store/hub-store.js';
import type { RunSummary } from '../store/run-summary.js';
import { conformanceFolderFiles, loadFolderFiles, sampleConformance, sampleLoad } from './sample-runs.js';
import { signedFolderFiles, testKey } from './sign-files.js';

export const VENDOR_URL = 'https://erp.vendor.example';
/** The vendor's target name, as a user may name a saved target (markup: shown as text everywhere). */
export const HOSTILE_NAME = 'ERP <script>alert(1)</script> & "co"';

export interface CertificationFixture {
  readonly vendor: number;
  readonly body: number;
  readonly signed: RunSummary;
  readonly unsigned: RunSummary;
  readonly load: RunSummary;
  readonly certification: Certification;
}

export async function seedCertification(store: HubStore, now?: () => Date): Promise<CertificationFixture> {
  const accounts = new Accounts(store.db, now);
  const vendor = (await accounts.createOrganisation('vendor', 'Vendor <b>Ltd</b>')).id;
  const body = (await accounts.createOrganisation('certbody', 'Certifying Body')).id;
  const certification = new Certification(store.db, now);
  await certification.setCertifyingBody(body, true);
  const key = testKey();
  await store.registerKey(key.pem, 'vendor release key', vendor);
  const doc = (tag: string) => sampleConformance({ url: VENDOR_URL, embedded: false, runTag: tag });
  const signed = await ingestFiles(store, signedFolderFiles(doc('S1'), key), {
    build: 'v2.4.1',
    organisationId: vendor,
  });
  const unsigned = await ingestFiles(store, conformanceFolderFiles(doc('U1')), {
    build: 'v2.4.0',
    organisationId: vendor,
  });
  // a saved target's name is the user's text
  await store.db.updateTable('targets').set({ name: HOSTILE_NAME }).where('id', '=', signed.run.targetId).execute();
  const load = await ingestFiles(store, loadFolderFiles(sampleLoad({ rate: 9 })), { organisationId: vendor });
  return { vendor, body, signed: signed.run, unsigned: unsigned.run, load: load.run, certification };
}
