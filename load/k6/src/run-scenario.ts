/**
 * Runs one scenario script under k6 as a child process and returns its `LoadScenarioResult`. Every run is
 * bounded: the scenario's own duration and request timeouts, then a hard kill of k6; a run that produced no
 * summary is a failed verdict with the reason, never a hang. The password travels in the child's environment
 * only (not on the command line) and is masked in the captured output.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ScenarioPlan } from '../lib/plan.js';
import { isK6SummaryData, type K6SummaryData } from '../lib/summary-data.js';
import type { LoadScenarioResult, ScenarioName } from '../scenarios/catalogue.js';
import { scenarios } from '../scenarios/catalogue.js';
import { K6Error } from './errors.js';
import { k6Path, packageDir } from './k6-binary.js';
import { failedResult, type K6ScenarioOptions, k6Env, k6OutputFiles } from './run-options.js';
import { ensureVendorBundle } from './vendor.js';

/** What one k6 run produced, beyond the result: the files, the raw summary and k6's exit. */
export interface K6ScenarioRun {
  readonly result: LoadScenarioResult;
  readonly files: { readonly json: string; readonly junit: string; readonly markdown: string };
  /** k6's exit code (0 all thresholds held, 99 a threshold failed, 108 aborted by the script), null if killed. */
  readonly exitCode: number | null;
  readonly summary?: K6SummaryData;
  readonly plan?: ScenarioPlan;
  /** Last lines k6 wrote to stderr, password masked. */
  readonly log: string;
}

const TAIL_BYTES = 16_384;

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
  const seconds = sat === undefined ? (options.durationSeconds ?? 10) : sat.stages * sat.stageSeconds;
  return seconds * 1000 + 4 * timeout + 60_000;
}

function mask(text: string, secret: string | undefined): string {
  return secret === undefined || secret === '' ? text : text.split(secret).join('***');
}

/** Runs `options.scenario` under k6 and returns the result with the files and the raw summary. */
export async function runK6ScenarioDetailed(options: K6ScenarioOptions): Promise<K6ScenarioRun> {
  if (!scenarios.some((s) => s.name === options.scenario)) {
    throw new K6Error(
      'config',
      `unknown scenario "${options.scenario}"; known: ${scenarios.map((s) => s.name).join(', ')}`,
    );
  }
  const k6 = options.k6Path ?? k6Path();
  if (k6 === undefined) {
    throw new K6Error(
      'not-found',
      'k6 is not built: run "pnpm --filter @erpcert/load-k6 build" (needs Go), or use autocannon',
    );
  }
  const outDir = resolve(options.outDir);
  const dashboard = options.webDashboardExport === undefined ? undefined : resolve(options.webDashboardExport);
  const env = k6Env({ ...options, outDir, webDashboardExport: dashboard });
  await ensureVendorBundle();
  await mkdir(outDir, { recursive: true });
  const files = k6OutputFiles(outDir, options.scenario);
  await Promise.all(Object.values(files).map((f) => rm(f, { force: true })));

  const script = join(packageDir, 'scenarios', `${options.scenario}.ts`);
  const args = ['run', '--quiet', '--no-usage-report'];
  if (options.executionSegment !== undefined) args.push('--execution-segment', options.executionSegment);
  if (options.executionSegmentSequence !== undefined) {
    args.push('--execution-segment-sequence', options.executionSegmentSequence);
  }
  args.push(script);

  const limitMs = hardTimeoutMs(options);
  const started = Date.now();
  const { exitCode, log, killed } = await new Promise<{ exitCode: number | null; log: string; killed: boolean }>(
    (done, fail) => {
      const child = spawn(k6, args, { cwd: packageDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let tail = '';
      let killedByUs = false;
      const keep = (chunk: Buffer): void => {
        const text = mask(chunk.toString('utf8'), options.password);
        options.onOutput?.(text);
        tail = (tail + text).slice(-TAIL_BYTES);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      const stop = (): void => {
        killedByUs = true;
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      };
      const timer = setTimeout(stop, limitMs);
      options.signal?.addEventListener('abort', stop, { once: true });
      child.on('error', (error) => {
        clearTimeout(timer);
        fail(new K6Error('not-found', `k6 could not be started (${k6}): ${error.message}`, { cause: error }));
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', stop);
        done({ exitCode: code, log: tail, killed: killedByUs });
      });
    },
  );

  const seconds = Math.round((Date.now() - started) / 100) / 10;
  const lastError = log
    .split('\n')
    .filter((line) => /level=(error|fatal)|^\s*ERRO|test aborted/i.test(line))
    .pop()
    ?.trim();
  if (!existsSync(files.json)) {
    const why = killed
      ? `k6 did not finish within ${Math.round(limitMs / 1000)} s and was stopped`
      : `k6 exited with ${exitCode} without a summary${lastError === undefined ? '' : `: ${lastError}`}`;
    return { result: failedResult(options.scenario, why, seconds), files, exitCode, log };
  }
  const parsed = JSON.parse(await readFile(files.json, 'utf8')) as {
    result: LoadScenarioResult;
    plan: ScenarioPlan;
    summary: unknown;
  };
  let result = parsed.result;
  const abnormal = killed || (exitCode !== 0 && exitCode !== 99);
  if (abnormal) {
    const why = killed ? `k6 was stopped after ${Math.round(limitMs / 1000)} s` : `k6 exited with ${exitCode}`;
    result = {
      ...result,
      verdict: 'fail',
      reason: `${why}${lastError === undefined ? '' : ` (${lastError})`}; ${result.reason}`,
    };
  }
  return {
    result,
    files,
    exitCode,
    summary: isK6SummaryData(parsed.summary) ? parsed.summary : undefined,
    plan: parsed.plan,
    log,
  };
}

/** Runs one scenario under k6 and returns its result (files in `options.outDir`, see `k6OutputFiles`). */
export async function runK6Scenario(options: K6ScenarioOptions): Promise<LoadScenarioResult> {
  return (await runK6ScenarioDetailed(options)).result;
}

export type { K6ScenarioOptions, ScenarioName };
