/**
 * Benchmark (`pnpm bench`): the suite against mutants it was not written for (issue 18). Runs
 * `erpcert self-test --family all --sample N --seeds 3`: a sample of N generated mutants (from the specs and the
 * catalogue), drawn by the seed round-robin over every rule area, plus the whole hand-written set, each through
 * the mutating proxy with three seeds, and a clean baseline per seed. The self-test prints detection, precision
 * and repeatability per family, with the size of the whole family and of its sample, and writes detection.json to
 * reports/bench/selftest/<timestamp>/. Nothing asserts the figures.
 *
 * ERPCERT_BENCH_SELFTEST_SAMPLE (default 240, at least 200): N. ERPCERT_BENCH_SELFTEST_SEED (default the
 * self-test's fixed seed): the seed that draws the sample and the first fast-check seed.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@erpcert/contract';
import { SELFTEST_SEED } from '../src/commands/self-test.js';

const N = Math.max(200, Number(process.env.ERPCERT_BENCH_SELFTEST_SAMPLE ?? 240) || 240);
const SEED = Number(process.env.ERPCERT_BENCH_SELFTEST_SEED ?? SELFTEST_SEED) || SELFTEST_SEED;
const stamp = new Date()
  .toISOString()
  .replace(/\.\d+Z$/, 'Z')
  .replace(/:/g, '-');
const dir = join(repoRoot, 'reports', 'bench', 'selftest', stamp);
mkdirSync(dir, { recursive: true });
const bin = join(repoRoot, 'packages', 'cli', 'bin', 'erpcert.mjs');
const args = ['self-test', '--family', 'all', '--sample', String(N), '--seed', String(SEED), '--seeds', '3'];
args.push('--out', dir);

process.stdout.write(`bench self-test: erpcert ${args.slice(0, -2).join(' ')}\n`);
const code = await new Promise<number>((resolve) => {
  const child = spawn(process.execPath, [bin, ...args], { stdio: 'inherit', cwd: repoRoot });
  child.on('exit', (c) => resolve(c ?? 1));
});
process.stdout.write(`bench self-test: exit ${code}; detection.json in reports/bench/selftest/${stamp}/\n`);
// the figures are the benchmark's output, not a pass/fail gate of `pnpm bench`
process.exitCode = code === 2 ? 2 : 0;
