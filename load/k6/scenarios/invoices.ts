/**
 * Confirmed 1-row sales invoices: form POST /api/1/IVVc with set_field.OKFlag=1 and one item row
 * (record-rest-api.md §3, §4 "Create records, form"), at a constant arrival rate, judged against
 * "3 to 4 per second" (§8). Run: k6 run -e ERPCERT_TARGET=http://host:port load/k6/scenarios/invoices.ts
 */
import exec from 'k6/execution';
import { envString, readSettings } from '../lib/env.ts';
import { answerOf, bodyText, getBasic, postForm, requireTarget, restUrl } from '../lib/erp.ts';
import { checkAll, finishOperation, loadStarts, measure } from '../lib/metrics.ts';
import { rateOptions } from '../lib/options.ts';
import { ratePlan } from '../lib/plan.ts';
import { fullCheckNow, quickProblem } from '../lib/quick-check.ts';
import { summaryHandler } from '../lib/summary.ts';
import { dataRecords, parseXml, text, xmlErrors } from '../lib/xml.ts';

const settings = readSettings({ rate: 4, durationSeconds: 10 });
const plan = ratePlan('invoices', {
  offeredRate: settings.rate ?? 4,
  durationSeconds: settings.durationSeconds,
  saturation: settings.saturation,
  parallelism: settings.parallelism,
});
const custCode = envString('ERPCERT_CUSTCODE', 'C0001');
const artCode = envString('ERPCERT_ARTCODE', 'A0010');

export const options = rateOptions(plan, settings, 1);

/** The customer and the item must exist, or every POST would fail for a reason that is not throughput. */
export function setup(): void {
  requireTarget(settings);
  for (const [register, code] of [
    ['CUVc', custCode],
    ['INVc', artCode],
  ] as const) {
    const res = getBasic(
      settings,
      restUrl(settings, register, { 'filter.Code': code, fields: 'Code', limit: 1 }),
      'setup',
    );
    const doc = parseXml(bodyText(res));
    if (res.status !== 200 || dataRecords(doc, register).length !== 1) {
      exec.test.abort(
        `setup: ${register} ${code} not found on the target (${answerOf(res)}); set ERPCERT_CUSTCODE/ERPCERT_ARTCODE`,
      );
    }
  }
  loadStarts();
}

export default function (): void {
  const form = {
    'set_field.CustCode': custCode,
    'set_field.OKFlag': '1',
    'set_row_field.0.ArtCode': artCode,
    'set_row_field.0.Quant': '1',
    'set_row_field.0.Spec': `erpcert load ${settings.runId}`,
  };
  const res = postForm(settings, restUrl(settings, 'IVVc'), form, 'create-invoice');
  measure(res);
  const problem = quickProblem(res, true);
  if (problem !== undefined || !fullCheckNow(settings)) {
    finishOperation(checkAll({ 'invoice: HTTP 200, Sequence header, no <error> (cheap check)': () => !problem }));
    return;
  }
  const doc = parseXml(bodyText(res));
  const invoice = dataRecords(doc, 'IVVc')[0];
  const ok = checkAll({
    'invoice: HTTP 200, Sequence header, no <error> (cheap check)': () => true,
    'invoice: no <error>': () => doc !== undefined && xmlErrors(doc).length === 0,
    'invoice: created with a SerNr': () => text(invoice, 'SerNr') !== '',
    'invoice: confirmed (OKFlag 1)': () => text(invoice, 'OKFlag') === '1',
    'invoice: for the customer': () => text(invoice, 'CustCode') === custCode,
  });
  finishOperation(ok);
}

export const handleSummary = summaryHandler(plan, settings);
