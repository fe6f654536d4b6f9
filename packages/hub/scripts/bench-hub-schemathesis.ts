/**
 * Benchmark (`pnpm bench`): Schemathesis against the hub's API (issue 25 "An API for everything"). Starts a seeded
 * hub on 127.0.0.1 (port 0, a SQLite file in a temporary folder, an admin's session, an API token of every scope
 * and a random secret): conformance and load runs published through ingest, a saved target and a queued live run
 * (no executor: it stays queued), then runs the pinned Schemathesis of packages/contract (the same virtual
 * environment under tools/cache/) over the hub's OpenAPI document with `--checks all`, the API token as a bearer
 * header, a fixed seed. Prints the findings by check and
 * writes reports/bench/hub-schemathesis/<timestamp>/results.json and summary.md. Exits 1 on a server error
 * (a 500 on any input is a bug) or any other finding: what Schemathesis found was fixed in the hub or its document.
 *
 * ERPCERT_BENCH_HUB_SCHEMATHESIS_EXAMPLES (default 30): --max-examples per operation;
 * ERPCERT_BENCH_HUB_SCHEMATHESIS_SEED (default 42).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { benchReportDir, repoRoot } from '@erpcert/contract';
// the one pinned Schemathesis environment of the repository (packages/contract makes it and benches the specs)
import {
  ensureSchemathesis,
  SCHEMATHESIS_VERSION,
  SchemathesisUnavailableError,
} from '../../contract/scripts/schemathesis-venv.js';
import { HUB_OPENAPI } from '../src/api/openapi-document.js';
import { csrfTokenOf, SESSION_COOKIE } from '../src/auth/sessions.js';
import { ingestFiles } from '../src/ingest/ingest.js';
import { startHub } from '../src/server.js';
import { DEFAULT_ORGANISATION_ID } from '../src/store/migrations/0003-accounts.js';
import { testResolver } from '../src/testing/test-resolver.js';
import { benchConformance, benchLoad, benchRules, conformanceFolder, loadFolder } from './bench-hub-runs.js';

const SERVER_ERROR_CODES = new Set(['ST101', 'ST102']);

/**
 * Findings that are the nature of the operation, not a deviation: a body the schema allows is almost never what the
 * operation needs, and the schema cannot say more. The hub refuses them with a 4xx that names what is wrong.
 */
export const EXPLAINED: Readonly<Record<string, string>> = {
  'ST202 POST /keys':
    'a string the schema allows is almost never a public key in PEM: 400 "pem must be a public key in PEM"',
  'ST202 POST /runs':
    'a zip or multipart body the schema allows is almost never a report folder (a results.json that matches its ' +
    'JSON Schema): 400 or 422 saying what is missing',
};
const examples = Number(process.env.ERPCERT_BENCH_HUB_SCHEMATHESIS_EXAMPLES ?? 30) || 30;
const seed = Number(process.env.ERPCERT_BENCH_HUB_SCHEMATHESIS_SEED ?? 42) || 42;
const log = (line: string) => process.stderr.write(`${line}\n`);

interface StReport {
  running_time: number;
  operations: { tested: number };
  test_cases: { generated: number; errored: number };
  failures: { code: string; title: string; count: number; operations: string[] }[];
  errors: unknown[];
}

function runSchemathesis(bin: string, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(bin, args, { cwd: repoRoot, maxBuffer: 256 * 1024 * 1024 }, (err, stdout) => {
      if (err && typeof (err as { code?: unknown }).code !== 'number') reject(err);
      else resolve({ code: child.exitCode ?? 0, stdout });
    });
  });
}

const startedAt = new Date();
const outDir = benchReportDir('hub-schemathesis', startedAt);

let bin: string;
try {
  bin = ensureSchemathesis(log);
} catch (err) {
  if (!(err instanceof SchemathesisUnavailableError)) throw err;
  const skipped = { benchmark: 'hub-schemathesis', startedAt: startedAt.toISOString(), skipped: err.message };
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(skipped, null, 2)}\n`);
  process.stdout.write(`\nbench hub-schemathesis NOT run: ${err.message}\n`);
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'erpcert-hub-schemathesis-'));
const hubLog: string[] = [];
const hub = await startHub({
  port: 0,
  database: join(work, 'hub.sqlite'),
  secret: randomBytes(32).toString('hex'),
  log: (line) => hubLog.push(line),
  // the saved target's name (*.example) resolves to a public documentation address, as the SSRF guard requires
  resolver: testResolver(),
});
// an admin of the default organisation (its session seeds a saved target) and an API token of every scope for
// Schemathesis: the hub has accounts, no shared token
const admin = await hub.auth.accounts.createUser('bench@example.com');
await hub.auth.accounts.setMembership(admin.id, DEFAULT_ORGANISATION_ID, 'admin');
const session = (await hub.auth.sessions.open(admin.id, 'link')).secret;
const token = (
  await hub.auth.tokens.create({
    organisationId: DEFAULT_ORGANISATION_ID,
    name: 'schemathesis',
    scopes: ['publish', 'read', 'run'],
    days: 1,
    createdBy: admin.id,
  })
).secret;
let report: StReport;
let exitCode: number;
let output: string;
try {
  const rules = benchRules();
  for (let build = 0; build < 3; build++)
    for (let target = 0; target < 2; target++) {
      const startedAt = new Date(Date.UTC(2026, 0, 1, build, target)).toISOString();
      await ingestFiles(hub.store, conformanceFolder(benchConformance(rules, { target, build, startedAt })), {
        build: `1.${build}.0`,
      });
    }
  for (let build = 0; build < 3; build++)
    await ingestFiles(
      hub.store,
      loadFolder(benchLoad({ target: 0, build, startedAt: new Date(Date.UTC(2026, 0, 2, build)).toISOString() })),
      { build: `1.${build}.0` },
    );
  const auth = {
    cookie: `${SESSION_COOKIE}=${session}`,
    'x-csrf-token': csrfTokenOf(session),
    'content-type': 'application/json',
  };
  const saved = await fetch(`${hub.url}/api/v1/saved-targets`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: 'staging', url: 'https://erp.bench.example', username: 'erpcert', password: 'x' }),
  });
  const savedBody = (await saved.json()) as { id?: number };
  if (!saved.ok || savedBody.id === undefined) throw new Error(`saving a target answered ${saved.status}`);
  const queued = await fetch(`${hub.url}/api/v1/saved-targets/${savedBody.id}/live-runs`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ kind: 'conformance' }),
  });
  if (queued.status !== 202) throw new Error(`queueing a live run answered ${queued.status}`);

  const reportDir = join(work, 'report');
  log(
    `schemathesis ${SCHEMATHESIS_VERSION} over the hub's OpenAPI document (${examples} examples per operation, seed ${seed})`,
  );
  const r = await runSchemathesis(bin, [
    'run',
    HUB_OPENAPI,
    '--url',
    `${hub.url}/api/v1`,
    '--header',
    `Authorization: Bearer ${token}`,
    '--checks',
    'all',
    '--max-examples',
    String(examples),
    '--seed',
    String(seed),
    '--request-timeout',
    '10',
    '--no-color',
    '--report',
    'json',
    '--report-dir',
    reportDir,
  ]);
  exitCode = r.code;
  // the token is random for this run, and still never written out
  output = r.stdout.split(token).join('***');
  const file = readdirSync(reportDir).find((f) => f.endsWith('.json'));
  if (!file) throw new Error(`schemathesis wrote no JSON report (exit ${exitCode}):\n${output.slice(-3000)}`);
  const reportText = readFileSync(join(reportDir, file), 'utf8').split(token).join('***');
  writeFileSync(join(outDir, 'schemathesis-report.json'), reportText);
  report = JSON.parse(reportText) as StReport;
} finally {
  await hub.close();
  rmSync(work, { recursive: true, force: true });
}

const findings = report.failures.map((f) => ({
  code: f.code,
  title: f.title,
  count: f.count,
  operations: f.operations,
  explained: f.operations.every((op) => EXPLAINED[`${f.code} ${op}`] !== undefined),
}));
const serverErrors = findings.filter((f) => SERVER_ERROR_CODES.has(f.code)).reduce((n, f) => n + f.count, 0);
const hubErrors = hubLog.filter((l) => /failed:/.test(l)).map((l) => l.split('\n')[0]?.split(token).join('***') ?? '');
const unexplained = findings.filter((f) => !f.explained);
const ok = unexplained.length === 0 && hubErrors.length === 0 && report.errors.length === 0;
const figures = {
  benchmark: 'hub-schemathesis',
  startedAt: startedAt.toISOString(),
  schemathesis: SCHEMATHESIS_VERSION,
  document: relative(repoRoot, HUB_OPENAPI),
  target: 'startHub on 127.0.0.1, port 0, SQLite; 6 conformance + 3 load runs, a saved target, a queued live run',
  maxExamples: examples,
  seed,
  exitCode,
  seconds: Math.round(report.running_time * 10) / 10,
  operations: report.operations.tested,
  generated: report.test_cases.generated,
  errored: report.test_cases.errored + report.errors.length,
  serverErrors,
  findings,
  explained: Object.fromEntries(
    findings
      .filter((f) => f.explained)
      .flatMap((f) => f.operations.map((op) => [`${f.code} ${op}`, EXPLAINED[`${f.code} ${op}`]])),
  ),
  hubErrors,
  ok,
  machine: {
    cpus: cpus().length,
    parallelism: availableParallelism(),
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    node: process.version,
  },
};
writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(figures, null, 2)}\n`);
writeFileSync(join(outDir, 'schemathesis.txt'), output);
const table = [
  '| operations | generated cases | server errors | findings by check | seconds |',
  '| ---: | ---: | ---: | --- | ---: |',
  `| ${figures.operations} | ${figures.generated} | ${serverErrors} | ${findings.map((f) => `${f.code} ${f.title} x${f.count}`).join(', ') || 'none'} | ${figures.seconds} |`,
].join('\n');
const explainedLines = findings
  .filter((f) => f.explained)
  .flatMap((f) => f.operations.map((op) => `explained: ${f.code} ${op}: ${EXPLAINED[`${f.code} ${op}`]}`));
const verdict = ok
  ? [
      'No server error and no unexplained finding: every other answer matched the document, and the hub logged no internal error.',
      ...explainedLines,
    ].join('\n')
  : [
      ...unexplained.map((f) => `finding: ${f.code} ${f.title} (${f.count}: ${f.operations.join(', ')})`),
      ...hubErrors.map((e) => `hub error: ${e}`),
      ...(report.errors.length > 0 ? [`${report.errors.length} Schemathesis error(s): see schemathesis.txt`] : []),
    ].join('\n');
const summary =
  `# Schemathesis ${SCHEMATHESIS_VERSION} against the hub API\n\n${figures.target}; --checks all, --max-examples ` +
  `${examples}, --seed ${seed}; load average ${figures.machine.loadAverage.join(' ')}.\n\n${table}\n\n${verdict}\n`;
writeFileSync(join(outDir, 'summary.md'), summary);
process.stdout.write(`\n${summary}\nfigures in ${relative(repoRoot, outDir)}/ (schemathesis.txt: its output)\n`);
process.exitCode = ok ? 0 : 1;
