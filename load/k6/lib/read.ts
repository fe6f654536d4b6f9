/**
 * One paced read of `records` journal entries (TRVc) in offset/limit batches (record-rest-api.md §4 "Query
 * parameters", rule 12: 1,000 to 5,000 records per request, pauses of about one second). The measured read time
 * is the sum of the request times; the wall time with the pauses is recorded beside it. Large bodies are
 * checked with a scan of the record start tags, not parsed (see xml.ts).
 */
import { sleep } from 'k6';
import type { RunSettings } from './env.ts';
import { bodyText, getBasic, restUrl } from './erp.ts';
import { checkAll, finishOperation, measure, recordRead } from './metrics.ts';
import type { ReadPlan } from './plan.ts';
import { attributeValues } from './xml.ts';

/** Reads `plan.records` records in batches of `batch`; stops at the first batch that fails a check. */
export function pacedRead(settings: RunSettings, plan: ReadPlan, batch: number): void {
  const seen = new Set<string>();
  let ms = 0;
  let bytes = 0;
  const started = Date.now();
  for (let offset = 0; offset < plan.records; offset += batch) {
    if (offset > 0 && plan.pauseMs > 0) sleep(plan.pauseMs / 1000);
    const limit = Math.min(batch, plan.records - offset);
    const query = { offset, limit, fields: plan.fields?.join(',') };
    const res = getBasic(settings, restUrl(settings, 'TRVc', query), `read-${batch}`);
    bytes += measure(res);
    ms += res.timings.duration;
    const body = res.status === 200 ? bodyText(res) : '';
    const urls = attributeValues(body, 'TRVc', 'url');
    const before = seen.size;
    for (const url of urls) seen.add(url);
    const ok = checkAll({
      'read: HTTP 200': () => res.status === 200,
      'read: no <error>': () => body.indexOf('<error') === -1,
      'read: a full batch (limit honoured, enough records)': () => urls.length === limit,
      'read: no record twice across batches': () => seen.size - before === urls.length,
    });
    finishOperation(ok);
    if (!ok) break;
  }
  recordRead(batch, { records: seen.size, ms, wallMs: Date.now() - started, bytes });
}
