/**
 * Benchmark (`pnpm bench`): what each load engine costs per operation and where its invoices knee lies on the
 * embedded reference server, beside the reference server's own capacity for invoices (the newest
 * reports/bench/refserver/<stamp>/results.json, written by `pnpm --filter @erpcert/refserver bench`).
 *
 * - Cost per operation: one constant-rate step of confirmed invoices; the generator's own CPU time (autocannon:
 *   its thread, /proc/self/task; k6: the child, /proc/<pid>/stat) per operation, with every response fully
 *   checked (`fullCheckEvery` 1: how both engines checked before the cheap checks) and with the default sampling
 *   (cheap check on every response, full checks on every 16th).
 * - Knee: the stepped run of `erpcert load` (doubling, then bisection) with what limited it.
 * - Aim (issue 12): each engine's knee reaches half the refserver's invoices/s, or the run says `generator`.
 *
 * Prints a table and writes reports/bench/load-engines/<stamp>/results.json and summary.md. Nothing asserts
 * the figures: they measure this machine, and a shared machine makes them noisy (the load average is recorded).
 * ERPCERT_BENCH_COST_RATE (default 25: below the knee of a busy 2-core machine, so that the step runs whole; the
 * figure includes the generator's fixed cost per second spread over the operations), ERPCERT_BENCH_STAGE_SECONDS
 * (default 3).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { benchReportDir, repoRoot } from '@erpcert/contract';
import { brokenBecause } from '@erpcert/load-k6';
import { startEmbeddedServer } from '../src/load/embedded-server.js';
import {
  k6Path,
  type LoadRunOptions,
  type LoadScenarioResult,
  runAutocannonScenario,
  runK6Scenario,
} from '../src/load/engines.js';
import { SATURATION_P99_MS } from '../src/load/run-load.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback) || fallback;
const costRate = env('ERPCERT_BENCH_COST_RATE', 25);
const stageSeconds = env('ERPCERT_BENCH_STAGE_SECONDS', 3);
const REFSERVER_FIGURE = 'form POST, confirmed 1-row invoices';

/** The newest refserver benchmark's invoices/s, with where it came from. */
function refserverInvoices(): { perSecond: number; report: string } | undefined {
  const dir = join(repoRoot, 'reports', 'bench', 'refserver');
  if (!existsSync(dir)) return undefined;
  for (const stamp of readdirSync(dir).sort().reverse()) {
    const file = join(dir, stamp, 'results.json');
    if (!existsSync(file)) continue;
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { results?: { name: string; value: number }[] };
    const r = doc.results?.find((x) => x.name === REFSERVER_FIGURE);
    if (r) return { perSecond: Math.round(r.value * 10) / 10, report: `reports/bench/refserver/${stamp}` };
  }
  return undefined;
}

const startedAt = new Date();
const out = benchReportDir('load-engines', startedAt);

type Engine = 'autocannon' | 'k6';
const engines: Engine[] = ['autocannon', ...(k6Path() ? (['k6'] as const) : [])];
const say = (line: string) => process.stderr.write(`bench load-engines: ${line}\n`);
const server = await startEmbeddedServer({ seedSize: 200, user: 'erpcert', password: 'erpcert' });
const base = {
  scenario: 'invoices' as const,
  target: server.url,
  user: 'erpcert',
  password: 'erpcert',
  compcode: 1,
  timeoutMs: 10_000,
  // the server's own thread: each step records the target's CPU beside the generator's (as `erpcert load` does)
  targetCpuMicros: server.cpuMicros,
};
const run = (engine: Engine, o: Partial<LoadRunOptions>, dir: string): Promise<LoadScenarioResult> =>
  engine === 'k6'
    ? runK6Scenario({ ...base, ...o, outDir: join(out, 'runs', dir) })
    : runAutocannonScenario({ ...base, ...o });

interface EngineFigures {
  readonly engine: Engine;
  /** Generator CPU-µs per operation at `costRate`/s: every response fully checked, and sampled (default). */
  readonly cpuMicrosPerOp: { readonly fullEveryResponse: number | null; readonly sampled: number | null };
  readonly knee: number;
  readonly limitedBy: string;
  readonly evidence: string;
  readonly steps: LoadScenarioResult['saturation'];
}

const figures: EngineFigures[] = [];
try {
  for (const engine of engines) {
    const cost = async (fullCheckEvery: number) => {
      const r = await run(
        engine,
        {
          fullCheckEvery,
          saturation: { start: costRate, maxRate: costRate, p99LimitMs: 60_000, stageSeconds },
        },
        `${engine}-cost-${fullCheckEvery}`,
      );
      return r.saturation?.[0]?.generator?.cpuMicrosPerOp ?? null;
    };
    say(`${engine}: cost per operation at ${costRate}/s, every response fully checked`);
    const full = await cost(1);
    say(`${engine}: cost per operation at ${costRate}/s, sampled full checks (default)`);
    const sampled = await cost(16);
    say(`${engine}: knee of invoices (doubling from 4/s, then bisection, ${stageSeconds} s steps)`);
    const knee = await run(
      engine,
      { saturation: { start: 4, maxRate: 100_000, p99LimitMs: SATURATION_P99_MS, stageSeconds } },
      `${engine}-knee`,
    );
    figures.push({
      engine,
      cpuMicrosPerOp: { fullEveryResponse: full, sampled },
      knee: knee.achievedRate ?? 0,
      limitedBy: knee.saturationLimit?.limitedBy ?? 'unknown',
      evidence: knee.saturationLimit?.evidence ?? knee.reason,
      steps: knee.saturation,
    });
  }
} finally {
  await server.close();
}

const ref = refserverInvoices();
const aim = (f: EngineFigures): string => {
  if (!ref) return 'no refserver figure (run pnpm --filter @erpcert/refserver bench)';
  if (f.knee >= ref.perSecond / 2) return `met: ${Math.round((f.knee / ref.perSecond) * 100)} % of the refserver's`;
  if (f.limitedBy === 'generator') return 'says generator';
  return `NOT met: ${Math.round((f.knee / ref.perSecond) * 100)} % of the refserver's, limited by ${f.limitedBy}`;
};
const doc = {
  benchmark: 'load-engines',
  startedAt: startedAt.toISOString(),
  target: 'embedded reference server (worker thread of this process), invoices (confirmed 1-row, form POST)',
  costRate,
  stageSeconds,
  refserver: ref ?? null,
  engines: figures.map((f) => ({ ...f, aim: aim(f) })),
  machine: {
    cpus: cpus().length,
    parallelism: availableParallelism(),
    model: cpus()[0]?.model ?? 'unknown',
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    node: process.version,
  },
};
writeFileSync(join(out, 'results.json'), `${JSON.stringify(doc, null, 2)}\n`);
const n = (v: number | null | undefined) => (v === null || v === undefined ? '-' : String(v));
/** The CPU figures of the step that decided the knee: the lowest broken step (StepPlan's), else the highest. */
const deciding = (f: EngineFigures) => {
  const steps = f.steps ?? [];
  const broken = steps
    .filter((s) => brokenBecause(s, SATURATION_P99_MS) !== undefined)
    .sort((a, b) => a.offered - b.offered)[0];
  const g = (broken ?? [...steps].sort((a, b) => b.offered - a.offered)[0])?.generator;
  return g === undefined
    ? '-'
    : `${n(g.cpuCores)} / ${n(g.targetCpuCores)} / ${n(g.machineBusyCores)} of ${n(g.machineCores)}`;
};
const rows = figures.map(
  (f) =>
    `| ${f.engine} | ${n(f.cpuMicrosPerOp.fullEveryResponse)} | ${n(f.cpuMicrosPerOp.sampled)} | ${f.knee} | ${f.limitedBy} | ${deciding(f)} | ${ref ? ref.perSecond : '-'} | ${aim(f)} |`,
);
const table = [
  `| engine | CPU-µs/op, every response fully checked | CPU-µs/op, sampled (default) | invoices knee /s | limited by | CPU cores at the deciding step: generator / target / machine busy | refserver invoices /s | half the refserver or generator |`,
  '| --- | ---: | ---: | ---: | --- | --- | ---: | --- |',
  ...rows,
].join('\n');
const evidence = figures.map((f) => `- ${f.engine}: ${f.evidence}`).join('\n');
writeFileSync(
  join(out, 'summary.md'),
  `# Load engines: cost per operation and invoices knee\n\n${doc.target}; cost at ${costRate}/s, ${stageSeconds} s steps; load average ${doc.machine.loadAverage.join(' ')} on ${doc.machine.parallelism} cores.${ref ? ` Refserver figure from ${ref.report}.` : ''}\n\n${table}\n\n${evidence}\n`,
);
process.stdout.write(
  `\nbench load-engines (${doc.target}, load average ${doc.machine.loadAverage.join(' ')}):\n${table}\n${evidence}\n`,
);
process.stdout.write(`figures in ${relative(repoRoot, out)}/results.json\n`);
