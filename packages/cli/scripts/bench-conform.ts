/**
 * Benchmark (`pnpm bench`): one default full `erpcert conform` against the embedded reference server, run
 * as its own process (`node bin/erpcert.mjs conform`) and timed from spawn to exit, start-up included. Prints the wall time and writes it with the run's totals to
 * reports/bench/conform/<timestamp>/results.json; the run's own report goes beside it (conform/).
 * The target on the reference machine (2 cores) is under 60 s (issue 5); nothing asserts it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@erpcert/contract';

const startedAt = new Date();
const dir = join(
  repoRoot,
  'reports',
  'bench',
  'conform',
  startedAt
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-'),
);
const out = join(dir, 'conform');
mkdirSync(dir, { recursive: true });

const bin = join(repoRoot, 'packages', 'cli', 'bin', 'erpcert.mjs');
const t0 = process.hrtime.bigint();
const exitCode = await new Promise<number>((resolve, reject) => {
  const child = spawn(process.execPath, [bin, 'conform', '--out', out], { stdio: 'inherit' });
  child.on('error', reject);
  child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 2)));
});
const wallMs = Number((process.hrtime.bigint() - t0) / 1_000_000n);

const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
  totals: Record<string, number>;
  tests: unknown[];
  run: { runs: number | null; profile: string };
};
const figures = {
  benchmark: 'conform-embedded-full',
  startedAt: startedAt.toISOString(),
  command: 'node packages/cli/bin/erpcert.mjs conform',
  wallMs,
  targetMs: 60_000,
  withinTarget: wallMs < 60_000,
  exitCode,
  profile: results.run.profile,
  runsPerProperty: results.run.runs ?? 'suite default',
  tests: results.tests.length,
  totals: results.totals,
  machine: {
    cpus: cpus().length,
    parallelism: availableParallelism(),
    model: cpus()[0]?.model ?? 'unknown',
    memoryBytes: totalmem(),
    node: process.version,
  },
  report: out,
};
writeFileSync(join(dir, 'results.json'), `${JSON.stringify(figures, null, 2)}\n`);
process.stdout.write(
  `\nbench conform: ${(wallMs / 1000).toFixed(1)} s wall for ${results.tests.length} tests ` +
    `(target < 60 s: ${figures.withinTarget ? 'met' : 'NOT met'}); exit ${exitCode}; figures in ${join(dir, 'results.json')}\n`,
);
// the benchmark measures; the conformance verdict is the run's own business (its exit code is recorded)
process.exitCode = 0;
