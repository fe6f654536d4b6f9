/**
 * Benchmark (`pnpm bench`): the hub at a team's size (issue 25 "Performance"). On SQLite and on PostgreSQL it seeds
 * a store with 1,000 conformance runs (10 targets x 100 builds, 417 rules each, a few FAILs that move between
 * builds, a HAR per failure) and 100 load runs (one target's trend over 100 builds, six scenarios each), every one
 * through the real ingest path (`ingestFiles`: schema check, digest, signature check, one transaction). Then it
 * measures the server time (in-process `app.request`, the body read to its end) of each page and its API twin,
 * N requests each over different runs, signed in as an engineer of the organisation that owns the runs (a session
 * cookie for the pages, a read-scoped API token for the API, both made by the hub's accounts code: each request
 * resolves its session or token and is authorized as a person's would be), and the ingest of a real report folder (`erpcert conform --out`) from its
 * folder and from its zip. Aims: p95 <= 150 ms per page, ingest <= 1 s per run. Prints a table and writes
 * reports/bench/hub/<timestamp>/results.json and summary.md. Exits 1 when a request does not answer 200 or a
 * PostgreSQL was to be had and failed; a missed aim is printed, not an exit code (the figures are the point).
 *
 * ERPCERT_BENCH_HUB_REQUESTS (default 40): N per page. ERPCERT_BENCH_HUB_BUILDS (default 100): builds per target.
 * ERPCERT_BENCH_HUB_INGESTS (default 10): ingests of the real folder per form. ERPCERT_BENCH_HUB_DIALECTS
 * (default sqlite,postgres). ERPCERT_BENCH_HUB_FOLDER: a report folder to ingest instead of running conform.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { benchReportDir, repoRoot } from '@erpcert/contract';
import { sql } from 'kysely';
import { API_BASE, createHubApp } from '../src/api/hub-app.js';
import { hubAuth } from '../src/auth/hub-auth.js';
import { csrfTokenOf, SESSION_COOKIE } from '../src/auth/sessions.js';
import { ingestFiles } from '../src/ingest/ingest.js';
import { DEFAULT_LIMITS } from '../src/ingest/limits.js';
import { readRunFolder } from '../src/ingest/read-folder.js';
import { readZip } from '../src/ingest/read-zip.js';
import { HubStore } from '../src/store/hub-store.js';
import { DEFAULT_ORGANISATION_ID } from '../src/store/migrations/0003-accounts.js';
import { writeZip } from '../src/testing/zip-writer.js';
import { type BenchDatabase, postgresDatabase, postgresServer, sqliteDatabase } from './bench-hub-databases.js';
import { benchConformance, benchLoad, benchRules, conformanceFolder, loadFolder, unit } from './bench-hub-runs.js';

const num = (name: string, fallback: number) => Math.max(1, Number(process.env[name] ?? fallback) || fallback);
const N = num('ERPCERT_BENCH_HUB_REQUESTS', 40);
const BUILDS = num('ERPCERT_BENCH_HUB_BUILDS', 100);
const INGESTS = num('ERPCERT_BENCH_HUB_INGESTS', 10);
const TARGETS = 10;
const LOAD_RUNS = 100;
const MATRIX_RUNS = 50;
const AIM_MS = 150;
const AIM_INGEST_MS = 1000;
const dialects = (process.env.ERPCERT_BENCH_HUB_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const log = (line: string) => process.stderr.write(`${line}\n`);
const BENCH_EMAIL = 'bench@example.com';

interface Figures {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
}

/** Nearest-rank percentiles in milliseconds, one decimal. */
function figures(ms: readonly number[]): Figures {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
  const r = (x: number) => Math.round(x * 10) / 10;
  return { n: sorted.length, p50: r(at(0.5)), p95: r(at(0.95)), max: r(sorted[sorted.length - 1] ?? 0) };
}

interface Measured extends Figures {
  /** The hub process's own CPU time per request (p50, p95): what the machine's load does not inflate. */
  readonly cpu: { readonly p50: number; readonly p95: number };
  readonly name: string;
  readonly path: string;
  readonly aimMs: number;
  readonly met: boolean;
}

interface DialectResult {
  readonly dialect: string;
  readonly seeded?: { conformanceRuns: number; loadRuns: number; seconds: number; ingest: Figures };
  readonly pages?: Measured[];
  readonly ingest?: Measured[];
  readonly skipped?: string;
  readonly error?: string;
}

const since = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

/** A real report folder: the one given, or `erpcert conform` against the embedded server. */
function realFolder(work: string): { dir: string; source: string } {
  const given = process.env.ERPCERT_BENCH_HUB_FOLDER;
  if (given) return { dir: given, source: 'ERPCERT_BENCH_HUB_FOLDER' };
  const out = join(work, 'conform');
  const bin = join(repoRoot, 'packages', 'cli', 'bin', 'erpcert.mjs');
  log('hub bench: erpcert conform --out <tmp> against the embedded server (the real folder to ingest)');
  const r = spawnSync(process.execPath, [bin, 'conform', '--out', out], { stdio: 'ignore', timeout: 600_000 });
  if (!existsSync(join(out, 'results.json')))
    throw new Error(`erpcert conform wrote no results.json (exit ${r.status ?? r.signal})`);
  return { dir: out, source: `erpcert conform against the embedded server (exit ${r.status})` };
}

/** The folder's files with results.json made a new run (its start time moved): the same folder is otherwise one run. */
function renewed(files: ReadonlyMap<string, Buffer>, i: number): Map<string, Buffer> {
  const doc = JSON.parse(files.get('results.json')!.toString('utf8'));
  doc.run.startedAt = new Date(Date.UTC(2027, 0, 1) + i * 60_000).toISOString();
  return new Map([...files, ['results.json', Buffer.from(`${JSON.stringify(doc, null, 2)}\n`)]]);
}

async function seed(store: HubStore, setClock: (d: Date) => void) {
  const rules = benchRules();
  const times: number[] = [];
  const t0 = process.hrtime.bigint();
  const base = Date.UTC(2026, 0, 1);
  for (let b = 0; b < BUILDS; b++) {
    for (let t = 0; t < TARGETS; t++) {
      const at = new Date(base + (b * TARGETS + t) * 3_600_000);
      setClock(at);
      const doc = benchConformance(rules, { target: t, build: b, startedAt: at.toISOString() });
      const s = process.hrtime.bigint();
      await ingestFiles(store, conformanceFolder(doc), { build: `1.${b}.0`, label: b % 7 === 0 ? 'nightly' : null });
      times.push(since(s));
    }
    // the load runs: one target's trend, spread over the builds
    for (let l = Math.floor((b * LOAD_RUNS) / BUILDS); l < Math.floor(((b + 1) * LOAD_RUNS) / BUILDS); l++) {
      const at = new Date(base + (b * TARGETS + TARGETS - 0.5) * 3_600_000);
      setClock(at);
      const s = process.hrtime.bigint();
      await ingestFiles(store, loadFolder(benchLoad({ target: 0, build: l, startedAt: at.toISOString() })), {
        build: `1.${b}.${l}`,
      });
      times.push(since(s));
    }
    if ((b + 1) % 10 === 0) log(`  seeded ${(b + 1) * TARGETS} conformance runs`);
  }
  return {
    conformanceRuns: BUILDS * TARGETS,
    loadRuns: LOAD_RUNS,
    seconds: Math.round(since(t0) / 100) / 10,
    ingest: figures(times),
  };
}

/**
 * Who the bench is: an engineer of the organisation that owns the seeded runs, made through the hub's own accounts
 * code (a session cookie with its CSRF token, as a browser sends after signing in), and a read-scoped API token of
 * that organisation for the API twins. Every request then resolves its session or token and is authorized, as a
 * person's would be.
 */
async function signedIn(store: HubStore) {
  const auth = hubAuth(store.db);
  const user = await auth.accounts.createUser(BENCH_EMAIL);
  await auth.accounts.setMembership(user.id, DEFAULT_ORGANISATION_ID, 'engineer');
  const session = (await auth.sessions.open(user.id, 'link')).secret;
  const token = (
    await auth.tokens.create({
      organisationId: DEFAULT_ORGANISATION_ID,
      name: 'hub bench',
      scopes: ['read'],
      days: 1,
      createdBy: user.id,
    })
  ).secret;
  const page = { cookie: `${SESSION_COOKIE}=${session}`, 'x-csrf-token': csrfTokenOf(session) };
  const api = { authorization: `Bearer ${token}` };
  return { auth, headers: (path: string) => (path.startsWith(`${API_BASE}/`) ? api : page) };
}

async function measurePages(store: HubStore): Promise<Measured[]> {
  const { auth, headers } = await signedIn(store);
  const app = createHubApp({ store, auth, log });
  const conformance = (
    await store.db.selectFrom('runs').select(['id', 'target_id']).where('kind', '=', 'conformance').execute()
  ).map((r) => ({ id: Number(r.id), target: Number(r.target_id) }));
  const targets = [...new Set(conformance.map((r) => r.target))];
  const loadTarget = Number(
    (await store.db.selectFrom('runs').select('target_id').where('kind', '=', 'load').executeTakeFirstOrThrow())
      .target_id,
  );
  const pick = <T>(list: readonly T[], i: number, salt: string) => list[Math.floor(unit(salt, i) * list.length)] as T;
  const byTarget = (t: number) => conformance.filter((r) => r.target === t).map((r) => r.id);
  const rule = benchRules()[0]?.id ?? '';
  const cases: { name: string; path: (i: number) => string }[] = [
    { name: 'targets page', path: () => '/' },
    { name: 'targets API', path: () => '/api/v1/targets' },
    { name: 'run page', path: (i) => `/runs/${pick(conformance, i, 'run').id}` },
    { name: 'run API', path: (i) => `/api/v1/runs/${pick(conformance, i, 'run').id}` },
    { name: 'rule page', path: (i) => `/runs/${pick(conformance, i, 'rule').id}/rules/${rule}` },
    { name: 'history page', path: (i) => `/targets/${pick(targets, i, 'history')}` },
    { name: 'history API', path: (i) => `/api/v1/targets/${pick(targets, i, 'history')}/runs` },
    { name: 'matrix page', path: (i) => `/matrix?target=${pick(targets, i, 'matrix')}&last=${MATRIX_RUNS}` },
    { name: 'matrix API', path: (i) => `/api/v1/matrix?target=${pick(targets, i, 'matrix')}&last=${MATRIX_RUNS}` },
    { name: 'matrix page (version)', path: () => '/matrix?version=0.1.0' },
    ...(['compare page', 'compare API'] as const).map((name) => ({
      name,
      path: (i: number) => {
        const runs = byTarget(pick(targets, i, 'compare'));
        const k = 1 + Math.floor(unit('k', i) * (runs.length - 1));
        return `${name === 'compare API' ? '/api/v1' : ''}/compare?a=${runs[k - 1]}&b=${runs[k]}`;
      },
    })),
    { name: 'trends page', path: () => `/targets/${loadTarget}/trends` },
    { name: 'trends API', path: () => `/api/v1/targets/${loadTarget}/load-trends` },
  ];
  const out: Measured[] = [];
  for (const c of cases) {
    const ms: number[] = [];
    const cpuMs: number[] = [];
    // one request first, not counted: the code paths are compiled, as in a hub that has served a page
    for (let i = -1; i < N; i++) {
      const path = c.path(i + 1000);
      const t0 = process.hrtime.bigint();
      const c0 = process.cpuUsage();
      const res = await app.request(path, { headers: headers(path) });
      const body = await res.text();
      const took = since(t0);
      const cpu = process.cpuUsage(c0);
      if (res.status !== 200) throw new Error(`${c.name}: GET ${path} answered ${res.status}: ${body.slice(0, 200)}`);
      // a page is the signed-in user's (its account bar names them), not a sign-in page that happened to answer 200
      if (!path.startsWith(`${API_BASE}/`) && !body.includes(BENCH_EMAIL))
        throw new Error(`${c.name}: GET ${path} answered a page that does not show the signed-in user`);
      if (i >= 0) {
        ms.push(took);
        cpuMs.push((cpu.user + cpu.system) / 1000);
      }
    }
    const f = figures(ms);
    const { p50, p95 } = figures(cpuMs);
    out.push({ name: c.name, path: c.path(1000), aimMs: AIM_MS, met: f.p95 <= AIM_MS, cpu: { p50, p95 }, ...f });
    log(`  ${c.name}: p50 ${f.p50} ms, p95 ${f.p95} ms, max ${f.max} ms (CPU p95 ${p95} ms)`);
  }
  return out;
}

async function measureIngest(store: HubStore, folder: string, work: string): Promise<Measured[]> {
  const files = readRunFolder(folder, DEFAULT_LIMITS, 'the real folder');
  const folderTimes: number[] = [];
  const zipTimes: number[] = [];
  const folderCpu: number[] = [];
  const zipCpu: number[] = [];
  const cpuSince = (c0: NodeJS.CpuUsage) => {
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  for (let i = 0; i < INGESTS; i++) {
    const dir = join(work, `ingest-${i}`);
    cpSync(folder, dir, { recursive: true });
    const again = renewed(files, 2 * i);
    writeFileSync(join(dir, 'results.json'), again.get('results.json')!);
    let t0 = process.hrtime.bigint();
    let c0 = process.cpuUsage();
    const a = await ingestFiles(store, readRunFolder(dir, DEFAULT_LIMITS, 'the folder'), { build: `ingest-${i}` });
    folderTimes.push(since(t0));
    folderCpu.push(cpuSince(c0));
    rmSync(dir, { recursive: true, force: true });
    const zip = writeZip([...renewed(files, 2 * i + 1)].map(([name, data]) => ({ name, data })));
    t0 = process.hrtime.bigint();
    c0 = process.cpuUsage();
    const b = await ingestFiles(store, await readZip(zip, DEFAULT_LIMITS), { build: `ingest-zip-${i}` });
    zipTimes.push(since(t0));
    zipCpu.push(cpuSince(c0));
    if (!a.created || !b.created) throw new Error('an ingest of a new run found it already stored');
  }
  return [
    { name: 'ingest folder', path: 'readRunFolder + ingestFiles', times: folderTimes, cpuTimes: folderCpu },
    { name: 'ingest zip', path: 'readZip + ingestFiles', times: zipTimes, cpuTimes: zipCpu },
  ].map(({ name, path, times, cpuTimes }) => {
    const f = figures(times);
    const { p50, p95 } = figures(cpuTimes);
    log(`  ${name}: p50 ${f.p50} ms, p95 ${f.p95} ms, max ${f.max} ms (CPU p95 ${p95} ms)`);
    return { name, path, aimMs: AIM_INGEST_MS, met: f.max <= AIM_INGEST_MS, cpu: { p50, p95 }, ...f };
  });
}

async function benchDialect(
  dialect: string,
  database: BenchDatabase,
  folder: string,
  work: string,
): Promise<DialectResult> {
  let clock = new Date();
  const store = await HubStore.open(database.database, { now: () => clock, log });
  try {
    log(`hub bench on ${dialect}: seeding ${BUILDS * TARGETS} conformance and ${LOAD_RUNS} load runs`);
    const seeded = await seed(store, (d) => {
      clock = d;
    });
    clock = new Date();
    if (store.dialect === 'postgres') {
      // a store that grew over weeks has been vacuumed and analyzed; right after 1,100 bulk ingests PostgreSQL's
      // autovacuum would do it during the measurement (on the same cores), and index-only scans would still visit
      // the table: the bench does it first, as autovacuum would have
      log(`hub bench on ${dialect}: VACUUM ANALYZE after seeding`);
      await sql`vacuum analyze`.execute(store.db);
    }
    log(`hub bench on ${dialect}: ${N} requests per page`);
    const pages = await measurePages(store);
    log(`hub bench on ${dialect}: ${INGESTS} ingests of the real folder, from the folder and from its zip`);
    const ingest = await measureIngest(store, folder, work);
    return { dialect, seeded, pages, ingest };
  } finally {
    await store.close();
    await database.drop();
  }
}

const startedAt = new Date();
const outDir = benchReportDir('hub', startedAt);
const work = mkdtempSync(join(tmpdir(), 'erpcert-hub-bench-work-'));
const results: DialectResult[] = [];
let failed = false;
let real: { dir: string; source: string };
try {
  real = realFolder(work);
  for (const dialect of dialects) {
    if (dialect === 'sqlite') {
      results.push(await benchDialect('sqlite', sqliteDatabase(), real.dir, work));
      continue;
    }
    if (dialect !== 'postgres') throw new Error(`ERPCERT_BENCH_HUB_DIALECTS: no dialect ${dialect}`);
    const server = postgresServer(log);
    if (server.url === undefined) {
      log(`hub bench: PostgreSQL NOT measured: ${server.why}`);
      results.push({ dialect: 'postgres', skipped: `not measured: ${server.why}` });
      continue;
    }
    try {
      results.push(await benchDialect('postgres', await postgresDatabase(server.url), real.dir, work));
    } catch (err) {
      failed = true;
      log(`hub bench on postgres failed: ${(err as Error).stack}`);
      results.push({ dialect: 'postgres', error: (err as Error).message });
    } finally {
      server.stop();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const rows: string[] = [];
for (const r of results) {
  if (!r.pages || !r.ingest) {
    rows.push(`| ${r.dialect} | ${r.skipped ?? `ERROR: ${r.error}`} | | | | | | | |`);
    continue;
  }
  for (const m of [...r.pages, ...r.ingest])
    rows.push(
      `| ${r.dialect} | ${m.name} | ${m.n} | ${m.p50} | ${m.p95} | ${m.max} | ${m.cpu.p50} | ${m.cpu.p95} | ${m.met ? 'yes' : `**no** (aim ${m.aimMs} ms)`} |`,
    );
}
const table = [
  '| database | measured | n | p50 ms | p95 ms | max ms | CPU p50 ms | CPU p95 ms | aim met |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ...rows,
].join('\n');
const seededLines = results
  .filter((r) => r.seeded)
  .map(
    (r) =>
      `- ${r.dialect}: ${r.seeded!.conformanceRuns} conformance + ${r.seeded!.loadRuns} load runs seeded through ingestFiles in ` +
      `${r.seeded!.seconds} s (per run: p50 ${r.seeded!.ingest.p50} ms, p95 ${r.seeded!.ingest.p95} ms, max ${r.seeded!.ingest.max} ms)`,
  );
const missed = results.flatMap((r) =>
  [...(r.pages ?? []), ...(r.ingest ?? [])].filter((m) => !m.met).map((m) => `${r.dialect} ${m.name}`),
);
const machine = {
  cpus: cpus().length,
  parallelism: availableParallelism(),
  loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
  node: process.version,
};
const figuresOut = {
  benchmark: 'hub',
  startedAt: startedAt.toISOString(),
  seeded: {
    targets: TARGETS,
    builds: BUILDS,
    conformanceRuns: TARGETS * BUILDS,
    loadRuns: LOAD_RUNS,
    rulesPerRun: benchRules().length,
  },
  requestsPerPage: N,
  ingestsPerForm: INGESTS,
  realFolder: real!.source,
  timing:
    'server time: in-process app.request, from the call to the last byte of the body; one unmeasured request first; ' +
    "signed in as an engineer of the runs' organisation (a session cookie for the pages, a read-scoped API token for the API); " +
    'on PostgreSQL after a VACUUM ANALYZE of the seeded store. ' +
    "CPU: the hub process's own (user + system), without PostgreSQL's server processes; the aims are judged on the server time",
  aims: { pageP95Ms: AIM_MS, ingestMs: AIM_INGEST_MS },
  results,
  missed,
  machine,
};
writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(figuresOut, null, 2)}\n`);
const summary =
  `# erpcert hub bench\n\n${TARGETS} targets x ${BUILDS} builds of conformance runs (${benchRules().length} rules each) and ` +
  `${LOAD_RUNS} load runs; ${N} requests per page, ${INGESTS} ingests per form of a real folder (${real!.source}). ` +
  `Load average ${machine.loadAverage.join(' ')} on ${machine.cpus} cores: the machine may be shared, the figures are indicative.\n\n` +
  `${seededLines.join('\n')}\n\n${table}\n\n${missed.length === 0 ? 'Every aim met.' : `Aims missed: ${missed.join(', ')}`}\n`;
writeFileSync(join(outDir, 'summary.md'), summary);
process.stdout.write(`\n${summary}\nfigures in ${relative(repoRoot, outDir)}/results.json\n`);
process.exitCode = failed ? 1 : 0;
