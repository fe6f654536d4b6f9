/**
 * 2-row journal entries: form POST /api/1/TRVc with one debit and one credit row (record-rest-api.md §4
 * "Create records, form"), at a constant arrival rate, judged against "about 10 per second" (§8).
 * Run: k6 run -e ERPCERT_TARGET=http://host:port load/k6/scenarios/transactions.ts
 */
import exec from 'k6/execution';
import { envString, readSettings } from '../lib/env.ts';
import { answerOf, bodyText, getBasic, postForm, requireTarget, restUrl } from '../lib/erp.ts';
import { checkAll, finishOperation, loadStarts, measure } from '../lib/metrics.ts';
import { rateOptions } from '../lib/options.ts';
import { ratePlan } from '../lib/plan.ts';
import { fullCheckNow, quickProblem } from '../lib/quick-check.ts';
import { summaryHandler } from '../lib/summary.ts';
import { asArray, child, dataRecords, parseXml, text, xmlErrors } from '../lib/xml.ts';

const settings = readSettings({ rate: 10, durationSeconds: 10 });
const plan = ratePlan('transactions', {
  offeredRate: settings.rate ?? 10,
  durationSeconds: settings.durationSeconds,
  saturation: settings.saturation,
  parallelism: settings.parallelism,
});
const debit = envString('ERPCERT_DEBIT_ACC', '1200');
const credit = envString('ERPCERT_CREDIT_ACC', '1500');

export const options = rateOptions(plan, settings, 1);

/** Both accounts must exist (AccVc), or every POST would fail for a reason that is not throughput. */
export function setup(): void {
  requireTarget(settings);
  for (const account of [debit, credit]) {
    const url = restUrl(settings, 'AccVc', { 'filter.AccNumber': account, fields: 'AccNumber', limit: 1 });
    const res = getBasic(settings, url, 'setup');
    if (res.status !== 200 || dataRecords(parseXml(bodyText(res)), 'AccVc').length !== 1) {
      exec.test.abort(
        `setup: account ${account} not found on the target (${answerOf(res)}); set ERPCERT_DEBIT_ACC/ERPCERT_CREDIT_ACC`,
      );
    }
  }
  loadStarts();
}

export default function (): void {
  // cents from the iteration number: every entry differs, and the sums stay exact decimals
  const amount = (10 + (exec.scenario.iterationInTest % 9000) / 100).toFixed(2);
  const tag = `erpcert load ${settings.runId}`;
  const form = {
    'set_row_field.0.AccNumber': debit,
    'set_row_field.0.DebVal': amount,
    'set_row_field.0.Comment': tag,
    'set_row_field.1.AccNumber': credit,
    'set_row_field.1.CredVal': amount,
    'set_row_field.1.Comment': tag,
  };
  const res = postForm(settings, restUrl(settings, 'TRVc'), form, 'create-transaction');
  measure(res);
  const problem = quickProblem(res, true);
  if (problem !== undefined || !fullCheckNow(settings)) {
    finishOperation(checkAll({ 'transaction: HTTP 200, Sequence header, no <error> (cheap check)': () => !problem }));
    return;
  }
  const doc = parseXml(bodyText(res));
  const entry = dataRecords(doc, 'TRVc')[0];
  const ok = checkAll({
    'transaction: HTTP 200, Sequence header, no <error> (cheap check)': () => true,
    'transaction: no <error>': () => doc !== undefined && xmlErrors(doc).length === 0,
    'transaction: created with a Number': () => text(entry, 'Number') !== '',
    'transaction: two rows': () => asArray(child(entry, 'rows')?.row).length === 2,
    'transaction: balanced (DSum = CSum)': () =>
      Number(text(entry, 'DSum')) === Number(amount) && text(entry, 'DSum') === text(entry, 'CSum'),
  });
  finishOperation(ok);
}

export const handleSummary = summaryHandler(plan, settings);
