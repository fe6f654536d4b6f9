/**
 * Benchmark (`pnpm bench`): the specs in the ecosystem's own tool. Schemathesis (pinned, in a virtual environment
 * made from PyPI under tools/cache/, see schemathesis-venv.ts) fuzzes both specs against `erpcert serve --port 0`
 * with a fixed seed and HTTP Basic auth, twice per spec:
 *
 * - bare: `--checks all`, no configuration, as a new user would. Prints the generated cases, the server errors
 *   (ST101, ST102: must be 0) and the remaining findings by check; every finding must be one specs/README.md
 *   explains ("Schemathesis" table: check code and spec);
 * - configured: with examples/schemathesis.toml. Must report no failure.
 *
 * Writes reports/bench/schemathesis/<timestamp>/results.json and summary.md; exits 1 when a spec has a server
 * error, an unexplained finding or a failure under the shipped configuration. Python is needed here only.
 *
 * ERPCERT_BENCH_SCHEMATHESIS_EXAMPLES (default 20): --max-examples per operation. ERPCERT_BENCH_SCHEMATHESIS_SEED (42).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { benchReportDir, repoRoot, specsDir } from '../src/paths.js';
import {
  ensureSchemathesis,
  SCHEMATHESIS_VERSION,
  SchemathesisUnavailableError,
  venvDir,
} from './schemathesis-venv.js';

const SPECS = ['record-rest', 'portal-action'] as const;
type Spec = (typeof SPECS)[number];
const SERVER_ERROR_CODES = new Set(['ST101', 'ST102']);
const examples = Number(process.env.ERPCERT_BENCH_SCHEMATHESIS_EXAMPLES ?? 20) || 20;
const seed = Number(process.env.ERPCERT_BENCH_SCHEMATHESIS_SEED ?? 42) || 42;
const configFile = join(repoRoot, 'examples', 'schemathesis.toml');
const log = (line: string) => process.stderr.write(`${line}\n`);

/** One Schemathesis run, from its JSON report. */
interface RunFigures {
  spec: Spec;
  mode: 'bare' | 'configured';
  seconds: number;
  exitCode: number;
  operations: number;
  generated: number;
  serverErrors: number;
  errored: number;
  findings: { code: string; title: string; count: number; operations: number }[];
}

interface StReport {
  running_time: number;
  operations: { tested: number };
  test_cases: { generated: number; errored: number };
  failures: { code: string; title: string; count: number; operations: unknown[] }[];
  errors: unknown[];
}

/** `| ST201 | record-rest, portal-action | ...` rows of the "Schemathesis" table of specs/README.md. */
export function explainedFindings(readme: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const line of readme.split('\n')) {
    const m = /^\|\s*(ST\d{3})\s*\|([^|]*)\|/.exec(line);
    if (!m) continue;
    const specs = m[2]!.split(',').map((s) => s.replace(/`/g, '').trim());
    out.set(m[1]!, new Set([...(out.get(m[1]!) ?? []), ...specs]));
  }
  return out;
}

/** Starts `erpcert serve --port 0` as its own process; resolves with its base URL once it prints it. */
function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const bin = join(repoRoot, 'packages', 'cli', 'bin', 'erpcert.mjs');
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('erpcert serve printed no URL within 120 s')), 120_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const url = /^(http:\/\/\S+)$/m.exec(text)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    });
    child.stderr!.resume();
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`erpcert serve exited with ${code} before printing its URL`));
    });
  });
}

/** Stops the server by its pid (SIGTERM) and waits for it to exit. */
function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    if (child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
  });
}

function runSchemathesis(bin: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = execFile(bin, args, { cwd: repoRoot, maxBuffer: 256 * 1024 * 1024 }, (err) => {
      if (err && typeof (err as { code?: unknown }).code !== 'number') reject(err);
      else resolve(child.exitCode ?? 0);
    });
  });
}

async function run(bin: string, url: string, spec: Spec, mode: RunFigures['mode'], work: string): Promise<RunFigures> {
  const reportDir = join(work, `${spec}-${mode}`);
  const common = [
    join('specs', `${spec}.openapi.yaml`),
    '--url',
    url,
    '--max-examples',
    String(examples),
    '--seed',
    String(seed),
    '--no-color',
    '--report',
    'json',
    '--report-dir',
    reportDir,
  ];
  // the bare run authenticates on the command line; the configured run takes auth, company and checks from the file
  const args =
    mode === 'bare'
      ? ['run', ...common, '--auth', 'erpcert:erpcert', '--checks', 'all']
      : ['--config-file', configFile, 'run', ...common];
  log(`schemathesis ${mode} run of ${spec}.openapi.yaml (${examples} examples per operation, seed ${seed})`);
  const exitCode = await runSchemathesis(bin, args);
  const file = readdirSync(reportDir).find((f) => f.endsWith('.json'));
  if (!file) throw new Error(`schemathesis wrote no JSON report for ${spec} (${mode}); exit code ${exitCode}`);
  const report = JSON.parse(readFileSync(join(reportDir, file), 'utf8')) as StReport;
  const findings = report.failures.map((f) => ({
    code: f.code,
    title: f.title,
    count: f.count,
    operations: f.operations.length,
  }));
  return {
    spec,
    mode,
    seconds: Math.round(report.running_time * 10) / 10,
    exitCode,
    operations: report.operations.tested,
    generated: report.test_cases.generated,
    serverErrors: findings.filter((f) => SERVER_ERROR_CODES.has(f.code)).reduce((n, f) => n + f.count, 0),
    errored: report.test_cases.errored + report.errors.length,
    findings,
  };
}

const startedAt = new Date();
const outDir = benchReportDir('schemathesis', startedAt);

let bin: string;
try {
  bin = ensureSchemathesis(log);
} catch (err) {
  if (!(err instanceof SchemathesisUnavailableError)) throw err;
  const skipped = { benchmark: 'schemathesis', startedAt: startedAt.toISOString(), skipped: err.message };
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(skipped, null, 2)}\n`);
  process.stdout.write(`\nbench schemathesis skipped: ${err.message}\n`);
  process.exit(0);
}

const explained = explainedFindings(readFileSync(join(specsDir, 'README.md'), 'utf8'));
const work = mkdtempSync(join(tmpdir(), 'erpcert-schemathesis-'));
const runs: RunFigures[] = [];
const server = await startServer();
try {
  // the two specs side by side (each: bare, then configured), to halve the wall time on a small machine
  const perSpec = await Promise.all(
    SPECS.map(async (spec) => [
      await run(bin, server.url, spec, 'bare', work),
      await run(bin, server.url, spec, 'configured', work),
    ]),
  );
  runs.push(...perSpec.flat());
} finally {
  await stopServer(server.child);
  rmSync(work, { recursive: true, force: true });
}

const unexplained = runs
  .filter((r) => r.mode === 'bare')
  .flatMap((r) =>
    r.findings
      .filter((f) => !SERVER_ERROR_CODES.has(f.code) && !explained.get(f.code)?.has(r.spec))
      .map((f) => `${r.spec} ${f.code} ${f.title}`),
  );
const configuredFailures = runs
  .filter((r) => r.mode === 'configured')
  .flatMap((r) => r.findings.map((f) => `${r.spec} ${f.code} ${f.title} (${f.count})`));
const serverErrors = runs.reduce((n, r) => n + r.serverErrors, 0);
const ok = serverErrors === 0 && unexplained.length === 0 && configuredFailures.length === 0;

const figures = {
  benchmark: 'schemathesis',
  startedAt: startedAt.toISOString(),
  schemathesis: SCHEMATHESIS_VERSION,
  environment: venvDir.slice(repoRoot.length + 1),
  target: 'erpcert serve --port 0 (in memory, default demo data)',
  maxExamples: examples,
  seed,
  runs,
  serverErrors,
  unexplained,
  configuredFailures,
  ok,
  machine: {
    cpus: cpus().length,
    parallelism: availableParallelism(),
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    node: process.version,
  },
};
writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(figures, null, 2)}\n`);

const rows = runs.map(
  (r) =>
    `| ${r.spec} | ${r.mode} | ${r.operations} | ${r.generated} | ${r.serverErrors} | ` +
    `${r.findings.map((f) => `${f.code} x${f.count}`).join(', ') || 'none'} | ${r.seconds} |`,
);
const table = [
  '| spec | run | operations | generated cases | server errors | findings by check | seconds |',
  '| --- | --- | ---: | ---: | ---: | --- | ---: |',
  ...rows,
].join('\n');
const verdict = ok
  ? 'All findings are explained in specs/README.md; the shipped examples/schemathesis.toml gives no failure.'
  : [
      ...(serverErrors > 0 ? [`${serverErrors} server error(s)`] : []),
      ...unexplained.map((u) => `unexplained: ${u}`),
      ...configuredFailures.map((c) => `failure with examples/schemathesis.toml: ${c}`),
    ].join('\n');
const summary =
  `# Schemathesis ${SCHEMATHESIS_VERSION} against the reference server\n\n` +
  `${figures.target}; --max-examples ${examples}, --seed ${seed}; load average ` +
  `${figures.machine.loadAverage.join(' ')} (run times are noisy on a shared machine).\n\n${table}\n\n${verdict}\n`;
writeFileSync(join(outDir, 'summary.md'), summary);
process.stdout.write(`\nbench schemathesis ${SCHEMATHESIS_VERSION}:\n${table}\n\n${verdict}\n`);
process.stdout.write(`figures in ${relative(repoRoot, outDir)}/results.json\n`);
process.exitCode = ok ? 0 : 1;
