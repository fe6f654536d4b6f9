/**
 * Runs one scenario script under k6 as a child process and returns its `LoadScenarioResult`. Every run is
 * bounded: the scenario's own duration and request timeouts, then a hard stop of k6; a run that produced no
 * summary is a failed verdict with the reason, never a hang. The password travels in the child's environment
 * only (not on the command line) and is masked in the captured output.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { junitXml } from '../lib/junit.js';
import { markdownReport } from '../lib/markdown.js';
import { documentedFigure, type ScenarioPlan } from '../lib/plan.js';
import { isK6SummaryData, type K6SummaryData } from '../lib/summary-data.js';
import type { LoadScenarioResult } from '../scenarios/catalogue.js';
import { scenarios } from '../scenarios/catalogue.js';
import { K6Error } from './errors.js';
import { k6MissingHint, k6Path, packageDir } from './k6-binary.js';
import { type K6GeneratorUse, lastK6Error, runK6Process } from './k6-process.js';
import { failedResult, type K6ScenarioOptions, type K6Step, k6Env, k6OutputFiles } from './run-options.js';
import { runK6Saturation } from './run-saturation.js';
import { ensureVendorBundle } from './vendor.js';

/** What one k6 run produced, beyond the result: the files, the raw summary and k6's exit. */
export interface K6ScenarioRun {
  readonly result: LoadScenarioResult;
  readonly files: { readonly json: string; readonly junit: string; readonly markdown: string };
  /** k6's exit code (0 all thresholds held, 99 a threshold failed, 108 aborted by the script), null if killed. */
  readonly exitCode: number | null;
  readonly summary?: K6SummaryData;
  readonly plan?: ScenarioPlan;
  /** The last lines of k6's output, password masked. */
  readonly log: string;
  /** A step of a stepped run: k6's own CPU over the step and its "Insufficient VUs" warnings. */
  readonly generator?: K6GeneratorUse;
}

/** Milliseconds after which k6 is stopped: the scenario's own bound plus a margin for setup and summary. */
export function hardTimeoutMs(options: K6ScenarioOptions): number {
  if (options.hardTimeoutMs !== undefined) return options.hardTimeoutMs;
  const timeout = options.timeoutMs ?? 10_000;
  if (options.scenario === 'read-raw' || options.scenario === 'read-fields') {
    const records = options.records ?? 10_000;
    const requests = (options.batchSizes ?? [1000, 5000]).reduce((sum, b) => sum + Math.ceil(records / b), 0);
    return requests * (timeout + (options.pauseMs ?? 1000)) + 60_000;
  }
  const sat = options.saturation;
  const seconds = sat === undefined ? (options.durationSeconds ?? 10) : (sat.maxSteps ?? 20) * (sat.stageSeconds + 5);
  return seconds * 1000 + 4 * timeout + 60_000;
}

/** k6's command line (settings go by environment, see k6Env). */
function k6Args(options: K6ScenarioOptions): string[] {
  const args = ['run', '--quiet', '--no-usage-report'];
  if (options.executionSegment !== undefined) args.push('--execution-segment', options.executionSegment);
  if (options.executionSegmentSequence !== undefined) {
    args.push('--execution-segment-sequence', options.executionSegmentSequence);
  }
  args.push(join(packageDir, 'scenarios', `${options.scenario}.ts`));
  return args;
}

async function writeOutputs(
  files: K6ScenarioRun['files'],
  result: LoadScenarioResult,
  plan: ScenarioPlan | null,
  summary: unknown,
): Promise<void> {
  await writeFile(files.json, `${JSON.stringify({ result, plan, summary }, null, 2)}\n`);
  await writeFile(files.junit, junitXml(result));
  await writeFile(files.markdown, markdownReport(result, documentedFigure(result.scenario)));
}

/**
 * Runs `options.scenario` under k6 and returns the result with the files and the raw summary; with `step`, one
 * constant-rate step of a stepped run (see runK6Saturation), k6's own CPU measured over it.
 */
export async function runK6ScenarioDetailed(options: K6ScenarioOptions, step?: K6Step): Promise<K6ScenarioRun> {
  if (!scenarios.some((s) => s.name === options.scenario)) {
    const known = scenarios.map((s) => s.name).join(', ');
    throw new K6Error('config', `unknown scenario "${options.scenario}"; known: ${known}`);
  }
  const k6 = options.k6Path ?? k6Path();
  if (k6 === undefined) {
    throw new K6Error('not-found', `k6 is not built: ${k6MissingHint()}; or use autocannon`);
  }
  const outDir = resolve(options.outDir);
  const dashboard = options.webDashboardExport === undefined ? undefined : resolve(options.webDashboardExport);
  const env = k6Env({ ...options, outDir, webDashboardExport: dashboard }, step);
  await ensureVendorBundle();
  await mkdir(outDir, { recursive: true });
  const files = k6OutputFiles(outDir, options.scenario);
  await Promise.all(Object.values(files).map((f) => rm(f, { force: true })));

  const limitMs = step
    ? (step.seconds + 5) * 1000 + 4 * (options.timeoutMs ?? 10_000) + 60_000
    : hardTimeoutMs(options);
  const started = Date.now();
  const exit = await runK6Process(k6, k6Args(options), {
    cwd: packageDir,
    env,
    limitMs,
    secret: options.password,
    signal: options.signal,
    onOutput: options.onOutput,
    ...(step
      ? { watch: { seconds: step.seconds, ...(options.targetCpuMicros ? { target: options.targetCpuMicros } : {}) } }
      : {}),
  });
  const { exitCode, log, generator } = exit;
  const error = lastK6Error(log);
  const limit = `${Math.round(limitMs / 1000)} s`;

  if (!existsSync(files.json)) {
    const why = exit.stopped
      ? `k6 did not finish within ${limit} and was stopped`
      : `k6 exited with ${exitCode} without a summary${error === undefined ? '' : `: ${error}`}`;
    const result = failedResult(options.scenario, why, Math.round((Date.now() - started) / 100) / 10);
    await writeOutputs(files, result, null, null);
    return { result, files, exitCode, log, ...(generator ? { generator } : {}) };
  }
  const written = JSON.parse(await readFile(files.json, 'utf8')) as {
    result: LoadScenarioResult;
    plan: ScenarioPlan;
    summary: unknown;
  };
  let result = written.result;
  if (exit.stopped || (exitCode !== 0 && exitCode !== 99)) {
    const why = exit.stopped ? `k6 was stopped after ${limit}` : `k6 exited with ${exitCode}`;
    result = {
      ...result,
      verdict: 'fail',
      reason: `${why}${error === undefined ? '' : ` (${error})`}; ${result.reason}`,
    };
  } else if (options.executionSegment !== undefined) {
    const part = `execution segment ${options.executionSegment} only: merge the segments (resultOfSegments) for the verdict`;
    result = { ...result, verdict: 'info', reason: `${part}; this part: ${result.reason}` };
  }
  if (result !== written.result) await writeOutputs(files, result, written.plan, written.summary);
  const summary = isK6SummaryData(written.summary) ? written.summary : undefined;
  return { result, files, exitCode, summary, plan: written.plan, log, ...(generator ? { generator } : {}) };
}

/**
 * Runs one scenario under k6 and returns its result (files in `options.outDir`, see `k6OutputFiles`); with
 * `saturation`, the stepped run of a rate scenario (runK6Saturation).
 */
export async function runK6Scenario(options: K6ScenarioOptions): Promise<LoadScenarioResult> {
  if (options.saturation !== undefined && documentedFigure(options.scenario).read === undefined)
    return runK6Saturation(options, options.saturation);
  return (await runK6ScenarioDetailed(options)).result;
}
