/**
 * Benchmark (`pnpm bench`): verdicts a CI gate can trust (issue 9 "Figures"). Runs N consecutive default
 * full `erpcert conform` runs against the embedded reference server, then N more two at a time, each as its
 * own process (`node bin/erpcert.mjs conform`) timed from spawn to exit, start-up included. Prints, per
 * phase, how many runs had any FAIL or ERROR (aim: 0) and the median and maximum wall time (aim for a
 * default full run: under 15 s), and writes them to reports/bench/conform/<timestamp>/results.json. The
 * report of every run with a FAIL or ERROR is kept beside it (runs/<phase>-<n>/); clean ones are removed.
 * Nothing asserts the figures.
 *
 * ERPCERT_BENCH_CONFORM_RUNS (default 50): N, per phase.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { benchReportDir, repoRoot } from '@erpcert/contract';

const N = Math.max(1, Number(process.env.ERPCERT_BENCH_CONFORM_RUNS ?? 50) || 50);
const TARGET_MS = 15_000;

const startedAt = new Date();
const dir = benchReportDir('conform', startedAt);
mkdirSync(join(dir, 'runs'), { recursive: true });
const bin = join(repoRoot, 'packages', 'cli', 'bin', 'erpcert.mjs');

/** One default full run, as the benchmark saw it. */
interface ConformRun {
  readonly name: string;
  readonly wallMs: number;
  readonly exitCode: number;
  readonly failed: readonly string[];
  readonly errored: readonly string[];
  readonly tests: number;
}

async function conformOnce(name: string): Promise<ConformRun> {
  const out = join(dir, 'runs', name);
  const t0 = process.hrtime.bigint();
  const exitCode = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'conform', '--out', out], { stdio: ['ignore', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 2)));
  });
  const wallMs = Number((process.hrtime.bigint() - t0) / 1_000_000n);
  const file = join(out, 'results.json');
  const doc = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { rules: { id: string; verdict: string }[]; tests: unknown[] })
    : { rules: [], tests: [] };
  const ids = (v: string) => doc.rules.filter((r) => r.verdict === v).map((r) => r.id);
  const run = { name, wallMs, exitCode, failed: ids('FAIL'), errored: ids('ERROR'), tests: doc.tests.length };
  // a clean run's report is not needed; a red one is kept to be read
  if (exitCode === 0 && run.failed.length === 0 && run.errored.length === 0)
    rmSync(out, { recursive: true, force: true });
  return run;
}

const red = (r: ConformRun) => r.exitCode !== 0 || r.failed.length > 0 || r.errored.length > 0;

function progress(phase: string, done: number, r: ConformRun): void {
  const verdict = red(r)
    ? `exit ${r.exitCode}${r.failed.length ? `, FAIL ${r.failed.join(' ')}` : ''}${r.errored.length ? `, ERROR ${r.errored.join(' ')}` : ''}`
    : 'clean';
  process.stdout.write(`bench conform: ${phase} ${done}/${N}: ${(r.wallMs / 1000).toFixed(1)} s, ${verdict}\n`);
}

/** N runs, `parallel` at a time. */
async function phase(name: string, parallel: number): Promise<ConformRun[]> {
  const runs: ConformRun[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = next++; i < N; i = next++) {
        const r = await conformOnce(`${name}-${String(i + 1).padStart(3, '0')}`);
        runs.push(r);
        progress(name, runs.length, r);
      }
    }),
  );
  return runs.sort((a, b) => a.name.localeCompare(b.name));
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : Math.round((s[mid - 1]! + s[mid]!) / 2);
}

function summary(runs: readonly ConformRun[]) {
  const bad = runs.filter(red);
  return {
    runs: runs.length,
    withFailOrError: bad.length,
    failedRules: [...new Set(bad.flatMap((r) => r.failed))].sort(),
    erroredRules: [...new Set(bad.flatMap((r) => r.errored))].sort(),
    medianWallMs: median(runs.map((r) => r.wallMs)),
    maxWallMs: Math.max(...runs.map((r) => r.wallMs)),
    redRuns: bad.map((r) => r.name),
  };
}

process.stdout.write(`bench conform: ${N} consecutive default full runs, then ${N} two at a time\n`);
const loadBefore = loadavg();
const sequential = await phase('sequential', 1);
const paired = await phase('paired', 2);
const seq = summary(sequential);
const par = summary(paired);
const figures = {
  benchmark: 'conform-embedded-full',
  startedAt: startedAt.toISOString(),
  finishedAt: new Date().toISOString(),
  command: 'node packages/cli/bin/erpcert.mjs conform',
  runsPerPhase: N,
  targetWallMs: TARGET_MS,
  sequential: { ...seq, withinTarget: seq.medianWallMs < TARGET_MS },
  paired: par,
  runs: { sequential, paired },
  machine: {
    cpus: cpus().length,
    parallelism: availableParallelism(),
    model: cpus()[0]?.model ?? 'unknown',
    memoryBytes: totalmem(),
    node: process.version,
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadavg(),
  },
};
writeFileSync(join(dir, 'results.json'), `${JSON.stringify(figures, null, 2)}\n`);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
process.stdout.write(
  [
    '',
    `bench conform: sequential: ${seq.withFailOrError}/${N} runs with a FAIL or ERROR; wall time median ${s(seq.medianWallMs)}, max ${s(seq.maxWallMs)} (target < ${s(TARGET_MS)}: ${seq.medianWallMs < TARGET_MS ? 'met' : 'NOT met'})`,
    `bench conform: two at a time: ${par.withFailOrError}/${N} runs with a FAIL or ERROR; wall time median ${s(par.medianWallMs)}, max ${s(par.maxWallMs)}`,
    ...(seq.failedRules.length + par.failedRules.length > 0
      ? [`bench conform: FAILed rules: ${[...new Set([...seq.failedRules, ...par.failedRules])].join(' ')}`]
      : []),
    ...(seq.erroredRules.length + par.erroredRules.length > 0
      ? [`bench conform: ERRORed rules: ${[...new Set([...seq.erroredRules, ...par.erroredRules])].join(' ')}`]
      : []),
    `bench conform: load average ${loadBefore.map((x) => x.toFixed(1)).join(' ')} before, ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} after (${cpus().length} cpus); figures in ${join(dir, 'results.json')}`,
    '',
  ].join('\n'),
);
// the benchmark measures; a red run is a finding it reports, not a failure of the benchmark
process.exitCode = 0;
