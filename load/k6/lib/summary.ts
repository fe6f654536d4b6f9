/**
 * The scenarios' `handleSummary` (k6 calls it once at the end; jslib's textSummary cannot be downloaded here):
 * writes `<out>/<scenario>.k6.json` (the LoadScenarioResult, the plan and the raw k6 summary),
 * `<scenario>.k6.junit.xml` and `<scenario>.k6.md`, and prints one line. The password never appears: it is not
 * in the plan, the tags or the summary.
 */
import type { RunSettings } from './env.ts';
import { junitXml } from './junit.ts';
import { markdownReport } from './markdown.ts';
import type { ScenarioPlan } from './plan.ts';
import { computeResult } from './result.ts';
import type { K6SummaryData } from './summary-data.ts';

/** Prefix of the one-line JSON summary a runner prints with ERPCERT_SUMMARY_STDOUT=1. */
export const SUMMARY_LINE_PREFIX = 'erpcert-k6-summary ';

/** File names of a run's outputs, relative to the output folder. */
export function outputNames(scenario: string): { json: string; junit: string; markdown: string } {
  return { json: `${scenario}.k6.json`, junit: `${scenario}.k6.junit.xml`, markdown: `${scenario}.k6.md` };
}

/** Builds the handleSummary function of a scenario script. */
export function summaryHandler(
  plan: ScenarioPlan,
  settings: RunSettings,
): (data: K6SummaryData) => Record<string, string> {
  return (data) => {
    const result = computeResult(plan, data);
    const names = outputNames(plan.scenario);
    const dir = settings.outDir === '' ? '' : `${settings.outDir.replace(/\/+$/, '')}/`;
    const { setup_data: _setupData, ...summary } = data as K6SummaryData & { setup_data?: unknown };
    return {
      [`${dir}${names.json}`]: `${JSON.stringify({ result, plan, summary }, null, 2)}\n`,
      [`${dir}${names.junit}`]: junitXml(result),
      [`${dir}${names.markdown}`]: markdownReport(result, plan.documented),
      // ERPCERT_SUMMARY_STDOUT=1 (k6-operator runners): the JSON also goes to the log, one line, for merging
      stdout: `erpcert k6 ${plan.scenario}: ${result.verdict.toUpperCase()}: ${result.reason}\n${
        settings.summaryToStdout ? `${SUMMARY_LINE_PREFIX}${JSON.stringify({ result, plan, summary })}\n` : ''
      }`,
    };
  };
}
