/**
 * Incremental synchronisation through updates_after (record-rest-api.md §4 rule 6, §6 "Sequence numbers serve
 * as change feed"): each iteration writes a few objects (ObjVc) tagged for its VU, reads the changes since the
 * last `Sequence` with `filter.Comment=<tag>`, and checks they are exactly the new records. No documented
 * figure: verdict info, but every check must hold. Run: k6 run -e ERPCERT_TARGET=... load/k6/scenarios/sync.ts
 */
import { envNumber, readSettings } from '../lib/env.ts';
import { bodyText, getBasic, postForm, requireTarget, restUrl, sequenceHeader } from '../lib/erp.ts';
import { checkAll, finishOperation, loadStarts, measure } from '../lib/metrics.ts';
import { rateOptions } from '../lib/options.ts';
import { ratePlan } from '../lib/plan.ts';
import { quickProblem } from '../lib/quick-check.ts';
import { summaryHandler } from '../lib/summary.ts';
import { child, dataRecords, parseXml, text, xmlErrors } from '../lib/xml.ts';

const settings = readSettings({ rate: 2, durationSeconds: 10 });
const plan = ratePlan('sync', {
  offeredRate: settings.rate ?? 2,
  durationSeconds: settings.durationSeconds,
  saturation: settings.saturation,
  parallelism: settings.parallelism,
});
const writes = Math.max(1, Math.round(envNumber('ERPCERT_SYNC_WRITES', 3)));

export const options = rateOptions(plan, settings, writes + 2);

export function setup(): void {
  requireTarget(settings);
  loadStarts();
}

// Per VU: a random token keeps codes and tags apart across VUs and across k6 instances (execution segments).
const token = Math.random().toString(36).slice(2, 7);
const comment = `erpcert load ${settings.runId} ${token}`;
let since: number | undefined;
let written = 0;

/** The current sequence: the `Sequence` header (rule 6), else the envelope's `@sequence`. */
function currentSequence(body: string, header: number | undefined): number | undefined {
  if (header !== undefined) return header;
  const value = Number(text(child(parseXml(body), 'data'), '@sequence'));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

export default function (): void {
  if (since === undefined) {
    const res = getBasic(settings, restUrl(settings, 'ObjVc', { limit: 0 }), 'sync-start');
    measure(res);
    since = currentSequence(bodyText(res), sequenceHeader(res));
    if (!checkAll({ 'sync: a starting sequence': () => res.status === 200 && since !== undefined })) {
      finishOperation(false);
      return;
    }
  }
  const codes: string[] = [];
  let writesOk = true;
  for (let i = 0; i < writes; i++) {
    const code = `L${token}${(written++).toString(36)}`;
    const res = postForm(
      settings,
      restUrl(settings, 'ObjVc'),
      { 'set_field.Code': code, 'set_field.Comment': comment },
      'sync-write',
    );
    measure(res);
    // the cheap check per write: the read below proves by code that exactly these records were written
    writesOk &&= quickProblem(res, true) === undefined;
    codes.push(code);
  }
  const query = { updates_after: since, 'filter.Comment': comment, fields: 'Code,Comment' };
  const res = getBasic(settings, restUrl(settings, 'ObjVc', query), 'sync-read');
  measure(res);
  const body = bodyText(res);
  const doc = res.status === 200 ? parseXml(body) : undefined;
  const records = dataRecords(doc, 'ObjVc');
  const got = records.map((r) => text(r, 'Code')).sort();
  const next = res.status === 200 ? currentSequence(body, sequenceHeader(res)) : undefined;
  const newest = records.reduce((max, r) => Math.max(max, Number(text(r, '@sequence')) || 0), 0);
  const ok = checkAll({
    'sync: every write accepted': () => writesOk,
    'sync: changes read (HTTP 200, no <error>)': () => doc !== undefined && xmlErrors(doc).length === 0,
    'sync: exactly the new records since the last Sequence': () => got.join(',') === [...codes].sort().join(','),
    'sync: Sequence not behind the changes read': () => next !== undefined && next >= newest,
  });
  if (next !== undefined) since = next;
  finishOperation(ok);
}

export const handleSummary = summaryHandler(plan, settings);
