/**
 * Benchmark (`pnpm bench`): the load generators' own ceiling on this machine. The embedded reference server
 * (its own thread) answers `GET /api/1/` (record-rest-api.md §4 "API root") with a session cookie; autocannon,
 * k6 and wrk each drive it in a closed loop with the same connections, and each engine's best requests/s is
 * compared with wrk's (aim: at least 70 %). Prints a table and writes
 * reports/bench/load-generators/<timestamp>/results.json and summary.md. Nothing asserts the figures.
 *
 * ERPCERT_BENCH_SECONDS (default 10), ERPCERT_BENCH_CONNECTIONS (16), ERPCERT_BENCH_ROUNDS (2).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { benchReportDir } from '@erpcert/contract';
import { startEmbeddedServer } from '../src/load/embedded-server.js';
import { k6Path } from '../src/load/engines.js';
import {
  autocannonCeiling,
  type CeilingMeasurement,
  type CeilingPlan,
  k6Ceiling,
  wrkCeiling,
} from '../src/load/generator-ceiling.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback) || fallback;
const seconds = env('ERPCERT_BENCH_SECONDS', 10);
const connections = env('ERPCERT_BENCH_CONNECTIONS', 16);
const rounds = env('ERPCERT_BENCH_ROUNDS', 2);
const AIM = 0.7;

function which(cmd: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const startedAt = new Date();
const dir = benchReportDir('load-generators', startedAt);

const server = await startEmbeddedServer({ seedSize: 100, user: 'erpcert', password: 'erpcert' });
const measured: CeilingMeasurement[] = [];
const skipped: { engine: string; reason: string }[] = [];
try {
  const url = `${server.url}/api/1/`;
  const login = await fetch(url, {
    headers: { authorization: `Basic ${Buffer.from('erpcert:erpcert').toString('base64')}` },
  });
  const session = /HSESSION=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
  if (!session) throw new Error('the embedded server opened no HSESSION session');
  const plan: CeilingPlan = { url, headers: { cookie: `HSESSION=${session}` }, connections, seconds };
  const check = await fetch(url, { headers: plan.headers });
  if (check.status !== 200) throw new Error(`GET /api/1/ with the session cookie answered ${check.status}`);

  const k6 = k6Path();
  const wrk = which('wrk');
  if (!k6) skipped.push({ engine: 'k6', reason: 'not built (pnpm --filter @erpcert/load-k6 build)' });
  if (!wrk) skipped.push({ engine: 'wrk', reason: 'not installed (Debian: apt-get install -y wrk)' });
  process.stderr.write(
    `bench load-generators: warm-up, then ${rounds} round(s) of ${seconds} s per engine, ${connections} connections\n`,
  );
  await autocannonCeiling({ ...plan, seconds: 2 });
  for (let round = 1; round <= rounds; round++) {
    const engines: [string, () => Promise<CeilingMeasurement>][] = [
      ...(wrk ? [['wrk', () => wrkCeiling(wrk, plan)] as [string, () => Promise<CeilingMeasurement>]] : []),
      ['autocannon', () => autocannonCeiling(plan)],
      ...(k6 ? [['k6', () => k6Ceiling(k6, plan)] as [string, () => Promise<CeilingMeasurement>]] : []),
    ];
    for (const [name, measure] of engines) {
      try {
        const m = await measure();
        measured.push(m);
        process.stderr.write(`  round ${round} ${name}: ${m.requestsPerSecond} requests/s (${m.errors} errors)\n`);
      } catch (e) {
        skipped.push({ engine: name, reason: (e as Error).message });
      }
    }
  }
} finally {
  await server.close();
}

const best = (engine: string) =>
  measured
    .filter((m) => m.engine === engine)
    .reduce<CeilingMeasurement | undefined>(
      (a, m) => (a && a.requestsPerSecond >= m.requestsPerSecond ? a : m),
      undefined,
    );
const wrkBest = best('wrk');
const engines = (['autocannon', 'k6', 'wrk'] as const).flatMap((e) => {
  const m = best(e);
  if (!m) return [];
  const ratio =
    wrkBest && e !== 'wrk' ? Math.round((m.requestsPerSecond / wrkBest.requestsPerSecond) * 1000) / 1000 : null;
  return [{ ...m, ratioToWrk: ratio, meetsAim: ratio === null ? null : ratio >= AIM }];
});
const figures = {
  benchmark: 'load-generator-ceiling',
  startedAt: startedAt.toISOString(),
  endpoint: 'GET /api/1/ with the HSESSION cookie (embedded reference server, own thread)',
  connections,
  secondsPerRun: seconds,
  rounds,
  aim: `each engine at least ${AIM * 100} % of wrk's requests/s`,
  engines,
  runs: measured,
  skipped,
  machine: {
    cpus: cpus().length,
    parallelism: availableParallelism(),
    model: cpus()[0]?.model ?? 'unknown',
    memoryBytes: totalmem(),
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    node: process.version,
  },
};
writeFileSync(join(dir, 'results.json'), `${JSON.stringify(figures, null, 2)}\n`);
const rows = engines.map(
  (e) =>
    `| ${e.engine} | ${e.requestsPerSecond} | ${e.requests} | ${e.errors} | ${e.ratioToWrk === null ? '-' : `${Math.round(e.ratioToWrk * 100)} %`} |`,
);
const table = [
  '| engine | requests/s (best) | requests | errors | of wrk |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...rows,
].join('\n');
writeFileSync(
  join(dir, 'summary.md'),
  `# Load generator ceiling\n\n${figures.endpoint}, ${connections} connections, ${seconds} s x ${rounds} rounds, load average ${figures.machine.loadAverage.join(' ')}.\n\n${table}\n\n${skipped.map((s) => `- ${s.engine} skipped: ${s.reason}`).join('\n')}\n`,
);
process.stdout.write(`\nbench load-generators (${figures.endpoint}, ${connections} connections):\n${table}\n`);
for (const s of skipped) process.stdout.write(`${s.engine} skipped: ${s.reason}\n`);
process.stdout.write(`figures in ${join(dir, 'results.json')}\n`);
