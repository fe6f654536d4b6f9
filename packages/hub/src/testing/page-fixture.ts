/**
 * The runs the page tests look at, stored through the ingest (as a publish stores them): two conformance runs of one
 * target (the second breaks a rule and fixes another), a run of a hostile target whose evidence plants markup, and
 * three load runs of the embedded server at rising rates.
 */
import { ingestFiles } from '../ingest/ingest.js';
import type { HubStore } from '../store/hub-store.js';
import { hostileConformance } from './hostile-run.js';
import { conformanceFolderFiles, loadFolderFiles, sampleConformance, sampleLoad } from './sample-runs.js';

export const ERP_URL = 'https://erp.example.com';
export const HOSTILE_URL = 'https://hostile.example.com';

/** The first run's verdicts, then the second's: PATH breaks, SYSTEMVERSION is fixed. */
export const FIRST_VERDICTS = {
  'REST.VERSION.PATH': 'PASS',
  'REST.VERSION.SYSTEMVERSION': 'FAIL',
  'PORTAL.LOOKUP.CAP50': 'SKIP',
} as const;
export const SECOND_VERDICTS = {
  'REST.VERSION.PATH': 'FAIL',
  'REST.VERSION.SYSTEMVERSION': 'PASS',
  'PORTAL.LOOKUP.CAP50': 'SKIP',
} as const;
export const LOAD_RATES = [9, 12, 11] as const;
/** p95 (ms) of each load run: the first made by an erpcert that did not measure p95 (not recorded). */
export const LOAD_P95 = [null, 15, 13] as const;

export interface PageFixture {
  readonly first: number;
  readonly second: number;
  readonly hostile: number;
  readonly loads: readonly number[];
  readonly erpTarget: number;
  readonly hostileTarget: number;
  readonly loadTarget: number;
}

export async function seedPageFixture(store: HubStore): Promise<PageFixture> {
  const first = await ingestFiles(
    store,
    conformanceFolderFiles(
      sampleConformance({ url: ERP_URL, embedded: false, runTag: 'P1', verdicts: FIRST_VERDICTS }),
    ),
    { build: 'b1', label: 'nightly' },
  );
  const second = await ingestFiles(
    store,
    conformanceFolderFiles(
      sampleConformance({
        url: ERP_URL,
        embedded: false,
        runTag: 'P2',
        profile: 'gate',
        startedAt: '2026-11-27T10:30:00.000Z',
        verdicts: SECOND_VERDICTS,
      }),
    ),
    { build: 'b2' },
  );
  const hostile = await ingestFiles(store, conformanceFolderFiles(hostileConformance(HOSTILE_URL)), {
    build: '<b>evil</b>',
  });
  const loads: number[] = [];
  for (const [i, rate] of LOAD_RATES.entries()) {
    const { run } = await ingestFiles(
      store,
      loadFolderFiles(sampleLoad({ rate, p95: LOAD_P95[i] ?? null, startedAt: `2026-11-2${i + 1}T11:00:00.000Z` })),
      { build: `v1.${i}` },
    );
    loads.push(run.id);
  }
  const loadRun = await store.run(loads[0] ?? 0);
  return {
    first: first.run.id,
    second: second.run.id,
    hostile: hostile.run.id,
    loads,
    erpTarget: first.run.targetId,
    hostileTarget: hostile.run.targetId,
    loadTarget: loadRun?.targetId ?? 0,
  };
}
