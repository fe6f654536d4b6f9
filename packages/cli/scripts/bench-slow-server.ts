/**
 * Benchmark (`pnpm bench`): the cost of a conformance run against a slow server (issue 19 "Slow and
 * rate-limited servers"). For each profile (default `full`, then `gate`) it starts a fresh reference server
 * (`erpcert serve`, its own process), puts a proxy in front of it that answers one request at a time after
 * 100 ms (scripts/slow-proxy.ts), and runs `erpcert conform --target <proxy>` with the embedded server's
 * accounts. It prints the wall time, the requests the proxy answered, the rules judged (PASS, FAIL, ERROR or
 * WARN) and the requests per judged rule, compares the judged-rule sets of the profiles, and writes all of it
 * to reports/bench/slow-server/<timestamp>/results.json. Nothing asserts the figures; the gate's aim (at most
 * 90 s here) is printed beside its time.
 *
 * ERPCERT_BENCH_SLOW_PROFILES (default full,gate): the profiles, in order.
 * ERPCERT_BENCH_SLOW_DELAY_MS (default 100): the proxy's delay per request.
 * ERPCERT_BENCH_SLOW_LOG (dev only, default none): a file the proxy appends `<profile>\t<method> <path>` to for
 * each request, in arrival order (preflight first, cleanup last). With ERPCERT_REQUEST_LOG (the suite's own
 * log, src/harness/request-log.ts) it shows where a run's requests go.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { benchReportDir, repoRoot } from '@erpcert/contract';
import { startSlowProxy } from './slow-proxy.js';

const PROFILES = (process.env.ERPCERT_BENCH_SLOW_PROFILES ?? 'full,gate').split(',').filter((p) => p !== '');
const DELAY_MS = Number(process.env.ERPCERT_BENCH_SLOW_DELAY_MS ?? 100);
const LOG = process.env.ERPCERT_BENCH_SLOW_LOG;
/** The aim for the gate profile behind the 100 ms proxy. */
const GATE_AIM_MS = 90_000;
/** The embedded server's accounts (conform-settings.ts EMBEDDED_DEFAULT), given as flags to a --target run. */
const ACCOUNTS = [
  ...['--user', 'erpcert', '--password', 'erpcert', '--compcode', '1', '--other-compcode', '2'],
  ...['--usercode', 'ADMIN', '--unok-usercode', 'ACC', '--limited-usercode', 'JD'],
];
const JUDGED = new Set(['PASS', 'FAIL', 'ERROR', 'WARN']);

const startedAt = new Date();
const dir = benchReportDir('slow-server', startedAt);
const bin = join(repoRoot, 'packages', 'cli', 'bin', 'erpcert.mjs');

/** `erpcert serve` on a free port; resolves with its URL once it prints it. */
function serve(): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, [bin, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ url: out.split('\n')[0]!.trim(), proc });
    });
    proc.on('exit', (code) => reject(new Error(`erpcert serve exited ${code} before printing its URL`)));
  });
}

/** What one profile's run showed. */
interface SlowRun {
  readonly profile: string;
  readonly wallMs: number;
  readonly exitCode: number;
  readonly requests: number;
  readonly judged: readonly string[];
  readonly requestsPerJudgedRule: number | null;
  readonly failed: readonly string[];
  readonly errored: readonly string[];
}

async function runProfile(profile: string): Promise<SlowRun> {
  const server = await serve();
  const log = LOG
    ? (method: string, url: string) => appendFileSync(LOG, `${profile}\t${method} ${url.split('?')[0]}\n`)
    : undefined;
  const proxy = await startSlowProxy(server.url, DELAY_MS, log);
  const out = join(dir, 'runs', profile);
  try {
    const t0 = process.hrtime.bigint();
    const exitCode = await new Promise<number>((resolve, reject) => {
      const args = [bin, 'conform', '--target', proxy.url, ...ACCOUNTS, '--profile', profile, '--out', out];
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
      child.on('error', reject);
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 2)));
    });
    const wallMs = Number((process.hrtime.bigint() - t0) / 1_000_000n);
    const file = join(out, 'results.json');
    const rules: { id: string; verdict: string | null }[] = existsSync(file)
      ? JSON.parse(readFileSync(file, 'utf8')).rules
      : [];
    const ids = (keep: (v: string | null) => boolean) => rules.filter((r) => keep(r.verdict)).map((r) => r.id);
    const judged = ids((v) => v !== null && JUDGED.has(v));
    const requests = proxy.requests();
    return {
      profile,
      wallMs,
      exitCode,
      requests,
      judged,
      requestsPerJudgedRule: judged.length > 0 ? Math.round((10 * requests) / judged.length) / 10 : null,
      failed: ids((v) => v === 'FAIL'),
      errored: ids((v) => v === 'ERROR'),
    };
  } finally {
    await proxy.close();
    server.proc.kill('SIGTERM');
  }
}

const runs: SlowRun[] = [];
for (const profile of PROFILES) {
  process.stderr.write(`bench slow-server: ${profile} through a proxy of ${DELAY_MS} ms per request, one at a time\n`);
  runs.push(await runProfile(profile));
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(`\nconform against a server answering one request at a time after ${DELAY_MS} ms`);
console.log('profile  wall      requests  judged rules  requests/judged rule  exit  FAIL  ERROR');
for (const r of runs) {
  const aim =
    r.profile === 'gate' && DELAY_MS === 100
      ? ` (aim <= ${s(GATE_AIM_MS)}: ${r.wallMs <= GATE_AIM_MS ? 'met' : 'NOT MET'})`
      : '';
  console.log(
    `${r.profile.padEnd(8)} ${s(r.wallMs).padEnd(9)} ${String(r.requests).padEnd(9)} ${String(r.judged.length).padEnd(13)} ${String(r.requestsPerJudgedRule ?? '-').padEnd(21)} ${String(r.exitCode).padEnd(5)} ${String(r.failed.length).padEnd(5)} ${r.errored.length}${aim}`,
  );
}
const full = runs.find((r) => r.profile === 'full');
const gate = runs.find((r) => r.profile === 'gate');
const comparison =
  full && gate
    ? {
        onlyFull: full.judged.filter((id) => !gate.judged.includes(id)),
        onlyGate: gate.judged.filter((id) => !full.judged.includes(id)),
      }
    : undefined;
if (comparison) {
  const same = comparison.onlyFull.length === 0 && comparison.onlyGate.length === 0;
  console.log(
    same
      ? `gate judged the same ${gate!.judged.length} rules as full`
      : `gate and full judged different rules: only full ${comparison.onlyFull.join(', ') || '-'}; only gate ${comparison.onlyGate.join(', ') || '-'}`,
  );
}

const file = join(dir, 'results.json');
writeFileSync(
  file,
  `${JSON.stringify(
    {
      kind: 'erpcert-bench-slow-server',
      startedAt: startedAt.toISOString(),
      delayMs: DELAY_MS,
      machine: { cpus: cpus().length, parallelism: availableParallelism(), loadavg: loadavg() },
      runs: runs.map(({ judged, ...r }) => ({ ...r, judgedRules: judged.length })),
      judgedRuleSets: comparison ?? null,
    },
    null,
    2,
  )}\n`,
);
console.log(`\nwritten: ${file.slice(repoRoot.length + 1)}`);
