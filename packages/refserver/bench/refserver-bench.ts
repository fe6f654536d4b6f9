// Benchmark of the reference server against the documented figures of the real ERP
// (record-rest-api.md §8 "Limits", issue 3 "Speed"). Run: pnpm bench (or pnpm --filter @erpcert/refserver bench).
// Environment: ERPCERT_BENCH_SEED (demo data size, default 110000), ERPCERT_BENCH_WRITES (default 4000).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '@erpcert/contract';
import { BenchClient, median, rawThroughput } from './http-load.js';

const SEED = Number(process.env.ERPCERT_BENCH_SEED ?? 110_000);
const WRITES = Number(process.env.ERPCERT_BENCH_WRITES ?? 4000);
const CONCURRENCY = 8;
const TEN_FIELDS = 'Number,IntYc,TransDate,RegDate,DSum,CSum,AccNumber,DebVal,CredVal,Comment';

interface Result {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly target: string;
  readonly pass: boolean;
  readonly documented: string;
  /** Server process CPU time per request (ms). */
  readonly serverCpuMs?: number;
  readonly note?: string;
}

interface Child {
  readonly url: string;
  readonly seedMs: number;
  /** The server process's CPU time so far, in ms. */
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

async function startChild(): Promise<Child> {
  const t0 = performance.now();
  const script = fileURLToPath(new URL('./bench-server.ts', import.meta.url));
  const child = spawn(process.execPath, [...process.execArgv, script, String(SEED)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let buffered = '';
  child.stdout!.on('data', (d) => {
    buffered += d;
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const w = waiters.shift();
      if (w) w(line);
      else lines.push(line);
      nl = buffered.indexOf('\n');
    }
  });
  // one exit listener for every pending line (not one per call: cpu() is called for every measure)
  const pending = new Set<(err: Error) => void>();
  child.once('exit', (code) => {
    for (const reject of pending) reject(new Error(`bench server exited ${code}`));
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const l = lines.shift();
      if (l !== undefined) return resolve(l);
      pending.add(reject);
      waiters.push((line) => {
        pending.delete(reject);
        resolve(line);
      });
    });
  const url = await nextLine();
  return {
    url,
    seedMs: performance.now() - t0,
    async cpu() {
      child.stdin!.write('\n');
      return (JSON.parse(await nextLine()) as { cpuMs: number }).cpuMs;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function timedReads(client: BenchClient, server: Child, path: string, reps: number) {
  const times: number[] = [];
  let bytes = 0;
  let cpu = 0;
  for (let i = 0; i < reps; i++) {
    const before = await server.cpu();
    const s = await client.send('GET', path);
    cpu += (await server.cpu()) - before;
    if (s.status !== 200) throw new Error(`GET ${path}: ${s.status}`);
    times.push(s.ms);
    bytes = s.bytes;
    await sleep(100);
  }
  return { ms: median(times), bytes, cpuMs: cpu / reps };
}

/** Requests per second of `total` writes (light raw-socket client), and the server's CPU time per write. */
async function timedWrites(server: Child, path: string, body: string) {
  const req = { method: 'POST', path, body };
  await rawThroughput(server.url, 300, CONCURRENCY, req);
  const before = await server.cpu();
  const rate = await rawThroughput(server.url, WRITES, CONCURRENCY, req);
  return { rate, cpuMs: ((await server.cpu()) - before) / WRITES };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

async function measure(client: BenchClient, server: Child): Promise<Result[]> {
  const results: Result[] = [];
  const invoice = 'set_field.CustCode=C0001&set_row_field.0.ArtCode=A0011&set_row_field.0.Quant=1&set_field.OKFlag=1';
  const journal =
    'set_field.TransDate=2025-06-01&set_row_field.0.AccNumber=1000&set_row_field.0.DebVal=10' +
    '&set_row_field.1.AccNumber=3000&set_row_field.1.CredVal=10';
  const inv = await timedWrites(server, '/api/1/IVVc', invoice);
  results.push({
    name: 'form POST, confirmed 1-row invoices',
    value: inv.rate,
    unit: '/s',
    target: '>= 1000/s',
    pass: inv.rate >= 1000,
    documented: '3-4/s',
    serverCpuMs: inv.cpuMs,
  });
  const tr = await timedWrites(server, '/api/1/TRVc', journal);
  results.push({
    name: 'form POST, 2-row journal entries (TRVc)',
    value: tr.rate,
    unit: '/s',
    target: '>= 2000/s',
    pass: tr.rate >= 2000,
    documented: 'about 10/s',
    serverCpuMs: tr.cpuMs,
  });
  const all = await timedReads(client, server, '/api/1/TRVc?limit=10000', 5);
  const allJson = await client.send('GET', '/api/1/TRVc?limit=10000', undefined, { accept: 'application/json' });
  results.push({
    name: 'read 10,000 TRVc, all fields (XML)',
    value: all.ms / 1000,
    unit: 's',
    target: '< 0.5 s',
    pass: all.ms < 500,
    documented: 'about 10 s, about 30 MB',
    serverCpuMs: all.cpuMs,
    note: `${mb(all.bytes)} (JSON ${mb(allJson.bytes)})`,
  });
  const ten = await timedReads(client, server, `/api/1/TRVc?limit=10000&fields=${TEN_FIELDS}`, 5);
  results.push({
    name: 'read 10,000 TRVc, 10 fields (XML)',
    value: ten.ms / 1000,
    unit: 's',
    target: '< 0.25 s',
    pass: ten.ms < 250,
    documented: 'about 7 s, about 4 MB',
    serverCpuMs: ten.cpuMs,
    note: mb(ten.bytes),
  });
  const first: number[] = [];
  const deep: number[] = [];
  for (let i = 0; i < 9; i++) {
    first.push((await client.send('GET', '/api/1/TRVc?limit=1000&offset=0')).ms);
    deep.push((await client.send('GET', '/api/1/TRVc?limit=1000&offset=100000')).ms);
  }
  const ratio = median(deep) / median(first);
  results.push({
    name: 'page of 1,000 at offset 100,000 / at offset 0',
    value: ratio,
    unit: 'x',
    target: '<= 2x',
    pass: ratio <= 2,
    documented: 'not shown',
    note: `${median(deep).toFixed(1)} ms / ${median(first).toFixed(1)} ms`,
  });
  return results;
}

async function main(): Promise<void> {
  process.stdout.write(
    `refserver bench: seeding ${SEED} journal entries (and the rest of the demo data) in a child server...\n`,
  );
  const loadBefore = loadavg()[0]!;
  const server = await startChild();
  const client = new BenchClient(server.url, CONCURRENCY);
  let results: Result[];
  try {
    results = await measure(client, server);
  } finally {
    client.close();
    await server.stop();
  }
  const loadAfter = loadavg()[0]!;

  const fmt = (r: Result) =>
    r.unit === '/s'
      ? `${Math.round(r.value)}/s`
      : r.unit === 's'
        ? `${r.value.toFixed(3)} s`
        : `${r.value.toFixed(2)}x`;
  const rows = results.map((r) => [
    r.name,
    fmt(r),
    r.target,
    r.pass ? 'yes' : 'NO',
    r.serverCpuMs === undefined ? '' : `${r.serverCpuMs.toFixed(2)} ms`,
    r.documented,
    r.note ?? '',
  ]);
  const header = ['measure', 'measured', 'target', 'met', 'server CPU/op', 'real ERP (docs §8)', 'note'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  const load = `load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after (${cpus().length} CPUs)`;
  process.stdout.write(
    `\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(line).join('\n')}\n${load}\n`,
  );

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const outDir = join(repoRoot, 'reports', 'bench', 'refserver', stamp);
  mkdirSync(outDir, { recursive: true });
  const meta = {
    timestamp: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadAverage: { before: loadBefore, after: loadAfter },
    seed: SEED,
    writes: WRITES,
    concurrency: CONCURRENCY,
    startupWithSeedMs: Math.round(server.seedMs),
  };
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify({ ...meta, results }, null, 2)}\n`);
  const md = [
    `# refserver benchmark, ${meta.timestamp}`,
    '',
    `Node ${meta.node}, ${load}; demo data size ${SEED}; ${WRITES} writes per measure over ${CONCURRENCY} connections; ` +
      `server in its own process (start-up with seeding ${(meta.startupWithSeedMs / 1000).toFixed(1)} s). ` +
      '"server CPU/op" is the server process CPU time per request: it moves less with other load than the wall-clock figures.',
    '',
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
  ].join('\n');
  writeFileSync(join(outDir, 'summary.md'), md);
  process.stdout.write(`\nwritten to ${outDir}\n`);
}

await main();
