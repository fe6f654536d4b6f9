// Benchmark of the reference server against the documented figures of the real ERP
// (record-rest-api.md §8 "Limits", issue 3 "Speed"). Run: pnpm bench (or pnpm --filter @erpcert/refserver bench).
// Environment: ERPCERT_BENCH_SEED (demo data size, default 110000), ERPCERT_BENCH_WRITES (default 4000).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '@erpcert/contract';
import { BenchClient, median } from './http-load.js';

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
  readonly note?: string;
}

async function startChild(): Promise<{ url: string; stop: () => Promise<void>; seedMs: number }> {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(new URL('./bench-server.ts', import.meta.url)), String(SEED)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`bench server exited ${code}`)));
  });
  const seedMs = performance.now() - t0;
  const stop = () =>
    new Promise<void>((resolve) => {
      child.on('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, stop, seedMs };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function timedReads(client: BenchClient, path: string, reps: number) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < reps; i++) {
    const s = await client.send('GET', path);
    if (s.status !== 200) throw new Error(`GET ${path}: ${s.status}`);
    times.push(s.ms);
    bytes = s.bytes;
    await sleep(100);
  }
  return { ms: median(times), bytes };
}

async function main(): Promise<void> {
  process.stdout.write(
    `refserver bench: seeding ${SEED} journal entries (and the rest of the demo data) in a child server...\n`,
  );
  const server = await startChild();
  const client = new BenchClient(server.url, CONCURRENCY);
  const results: Result[] = [];
  try {
    const invoice = 'set_field.CustCode=C0001&set_row_field.0.ArtCode=A0011&set_row_field.0.Quant=1&set_field.OKFlag=1';
    const journal =
      'set_field.TransDate=2025-06-01&set_row_field.0.AccNumber=1000&set_row_field.0.DebVal=10' +
      '&set_row_field.1.AccNumber=3000&set_row_field.1.CredVal=10';
    await client.throughput(300, CONCURRENCY, () => ['POST', '/api/1/IVVc', invoice]);
    const invRate = await client.throughput(WRITES, CONCURRENCY, () => ['POST', '/api/1/IVVc', invoice]);
    results.push({
      name: 'form POST, confirmed 1-row invoices',
      value: invRate,
      unit: '/s',
      target: '>= 1000/s',
      pass: invRate >= 1000,
      documented: '3-4/s',
    });
    await client.throughput(300, CONCURRENCY, () => ['POST', '/api/1/TRVc', journal]);
    const trRate = await client.throughput(WRITES, CONCURRENCY, () => ['POST', '/api/1/TRVc', journal]);
    results.push({
      name: 'form POST, 2-row journal entries (TRVc)',
      value: trRate,
      unit: '/s',
      target: '>= 2000/s',
      pass: trRate >= 2000,
      documented: 'about 10/s',
    });

    const all = await timedReads(client, '/api/1/TRVc?limit=10000', 5);
    results.push({
      name: 'read 10,000 TRVc, all fields (XML)',
      value: all.ms / 1000,
      unit: 's',
      target: '< 0.5 s',
      pass: all.ms < 500,
      documented: 'about 10 s, about 30 MB',
      note: `${(all.bytes / 1e6).toFixed(1)} MB`,
    });
    const ten = await timedReads(client, `/api/1/TRVc?limit=10000&fields=${TEN_FIELDS}`, 5);
    results.push({
      name: 'read 10,000 TRVc, 10 fields (XML)',
      value: ten.ms / 1000,
      unit: 's',
      target: '< 0.25 s',
      pass: ten.ms < 250,
      documented: 'about 7 s, about 4 MB',
      note: `${(ten.bytes / 1e6).toFixed(1)} MB`,
    });
    const allJson = (await client.send('GET', '/api/1/TRVc?limit=10000', undefined, { accept: 'application/json' }))
      .bytes;
    results[results.length - 2] = {
      ...results[results.length - 2]!,
      note: `${(all.bytes / 1e6).toFixed(1)} MB (JSON ${(allJson / 1e6).toFixed(1)} MB)`,
    };

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
  } finally {
    client.close();
    await server.stop();
  }

  const fmt = (r: Result) =>
    r.unit === '/s'
      ? `${Math.round(r.value)}/s`
      : r.unit === 's'
        ? `${r.value.toFixed(3)} s`
        : `${r.value.toFixed(2)}x`;
  const rows = results.map((r) => [r.name, fmt(r), r.target, r.pass ? 'yes' : 'NO', r.documented, r.note ?? '']);
  const header = ['measure', 'measured', 'target', 'met', 'real ERP (docs §8)', 'note'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  process.stdout.write(
    `\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(line).join('\n')}\n`,
  );

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const outDir = join(repoRoot, 'reports', 'bench', 'refserver', stamp);
  mkdirSync(outDir, { recursive: true });
  const meta = {
    timestamp: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    seed: SEED,
    writes: WRITES,
    concurrency: CONCURRENCY,
    startupWithSeedMs: Math.round(server.seedMs),
  };
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify({ ...meta, results }, null, 2)}\n`);
  const md = [
    `# refserver benchmark, ${meta.timestamp}`,
    '',
    `Node ${meta.node}, ${meta.cpus} CPUs; demo data size ${SEED}; ${WRITES} writes per measure, ${CONCURRENCY} connections; server in its own process (start-up with seeding ${(meta.startupWithSeedMs / 1000).toFixed(1)} s).`,
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
