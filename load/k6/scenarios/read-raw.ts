/**
 * Reading 10,000 journal entries (TRVc) with all fields in offset/limit batches of each documented size,
 * judged against "about 10 seconds, about 30 MB" (record-rest-api.md §8, §4 rule 12).
 * Run: k6 run -e ERPCERT_TARGET=http://host:port load/k6/scenarios/read-raw.ts
 */
import exec from 'k6/execution';
import { envIntegers, envNumber, readSettings } from '../lib/env.ts';
import { requireTarget } from '../lib/erp.ts';
import { readOptions } from '../lib/options.ts';
import { readPlan } from '../lib/plan.ts';
import { pacedRead } from '../lib/read.ts';
import { summaryHandler } from '../lib/summary.ts';

const settings = readSettings({ durationSeconds: 10 });
const read = {
  records: envNumber('ERPCERT_RECORDS', 10_000),
  batches: envIntegers('ERPCERT_BATCH', [1000, 5000]),
  pauseMs: envNumber('ERPCERT_PAUSE_MS', 1000),
};
const plan = readPlan('read-raw', read);

export const options = readOptions(plan, settings);

export function setup(): void {
  requireTarget(settings);
}

export default function (): void {
  const batch = read.batches[exec.vu.iterationInScenario];
  if (batch !== undefined) pacedRead(settings, read, batch);
}

export const handleSummary = summaryHandler(plan, settings);
