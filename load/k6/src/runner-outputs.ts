/**
 * Reads what the runners of a distributed run left: `<scenario>.k6.json` files, or logs (`kubectl logs`) with
 * the one-line summaries that ERPCERT_SUMMARY_STDOUT=1 prints, and judges them together.
 */
import { readFile } from 'node:fs/promises';
import type { ScenarioPlan } from '../lib/plan.js';
import { isK6SummaryData, type K6SummaryData } from '../lib/summary-data.js';
import type { LoadScenarioResult } from '../scenarios/catalogue.js';
import { resultOfSegments } from './merge-summaries.js';

/** Prefix of a runner's summary line (lib/summary.ts SUMMARY_LINE_PREFIX). */
export const SUMMARY_LINE = 'erpcert-k6-summary ';

export interface RunnerOutput {
  readonly plan: ScenarioPlan;
  readonly summary: K6SummaryData;
}

function parseOutput(value: unknown, source: string): RunnerOutput {
  const v = value as { plan?: ScenarioPlan; summary?: unknown };
  if (v?.plan === undefined || !isK6SummaryData(v.summary)) {
    throw new Error(`${source}: not a k6 summary of erpcert (no plan or summary)`);
  }
  return { plan: v.plan, summary: v.summary };
}

/** Every runner output in a file: a whole `.k6.json`, or the summary lines of a log. */
export function runnerOutputsOf(text: string, source: string): RunnerOutput[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) return [parseOutput(JSON.parse(trimmed), source)];
  const outputs = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith(SUMMARY_LINE))
    .map((line, i) => parseOutput(JSON.parse(line.slice(SUMMARY_LINE.length)), `${source} line ${i + 1}`));
  if (outputs.length === 0) throw new Error(`${source}: no "${SUMMARY_LINE.trim()}" line and not a JSON summary`);
  return outputs;
}

/** The result of the whole run from the runners' files or logs. */
export async function resultOfRunnerFiles(paths: readonly string[]): Promise<LoadScenarioResult> {
  const outputs: RunnerOutput[] = [];
  for (const path of paths) outputs.push(...runnerOutputsOf(await readFile(path, 'utf8'), path));
  const scenarios = new Set(outputs.map((o) => o.plan.scenario));
  if (scenarios.size !== 1) throw new Error(`the runner outputs mix scenarios: ${[...scenarios].join(', ')}`);
  return resultOfSegments(outputs);
}
