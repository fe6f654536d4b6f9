/**
 * The load generators' own ceiling: the most requests per second each engine drives against one trivial
 * endpoint in a closed loop (a fixed number of connections, each sending as soon as the last answer came),
 * beside wrk on the same endpoint. A benchmark, not a test: it measures this machine.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closedLoop } from './engines.js';

/** What one generator reached. */
export interface CeilingMeasurement {
  readonly engine: 'autocannon' | 'k6' | 'wrk';
  readonly requestsPerSecond: number;
  readonly requests: number;
  readonly seconds: number;
  /** Transport errors, timeouts and non-2xx answers. */
  readonly errors: number;
}

/** The endpoint and the load shape, the same for every generator. */
export interface CeilingPlan {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly connections: number;
  readonly seconds: number;
}

/** A generator that could not run (missing binary, crash): why. */
export class CeilingError extends Error {
  override readonly name = 'CeilingError';
}

const round = (n: number) => Math.round(n * 10) / 10;

/** autocannon in this process: `connections` keep-alive connections, no rate limit. */
export async function autocannonCeiling(p: CeilingPlan): Promise<CeilingMeasurement> {
  const r = await closedLoop(p.url, p.headers, p.connections, p.seconds);
  return { engine: 'autocannon', ...r };
}

function run(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, boundMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b));
    child.stderr.on('data', (b: Buffer) => (out += b));
    const timer = setTimeout(() => child.kill('SIGKILL'), boundMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new CeilingError(`${cmd}: ${e.message}`));
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new CeilingError(`${cmd} exited with ${code}: ${out.slice(-400)}`));
    });
  });
}

/** The k6 script: `connections` VUs for `seconds`, each looping one GET, the summary written as JSON. */
export function k6CeilingScript(p: CeilingPlan, summaryFile: string): string {
  return [
    "import http from 'k6/http';",
    `export const options = { vus: ${p.connections}, duration: '${p.seconds}s', discardResponseBodies: true };`,
    `const params = { headers: ${JSON.stringify(p.headers)} };`,
    `export default function () { http.get(${JSON.stringify(p.url)}, params); }`,
    `export function handleSummary(data) { return { ${JSON.stringify(summaryFile)}: JSON.stringify(data) }; }`,
    '',
  ].join('\n');
}

/** k6 as a child process (K6_AUTO_EXTENSION_RESOLUTION=false: it never downloads anything). */
export async function k6Ceiling(k6: string, p: CeilingPlan): Promise<CeilingMeasurement> {
  const dir = mkdtempSync(join(tmpdir(), 'erpcert-k6-ceiling-'));
  try {
    const summary = join(dir, 'summary.json');
    writeFileSync(join(dir, 'ceiling.js'), k6CeilingScript(p, summary));
    const env = { ...process.env, K6_AUTO_EXTENSION_RESOLUTION: 'false', K6_NO_USAGE_REPORT: 'true' };
    await run(k6, ['run', '--quiet', '--no-usage-report', join(dir, 'ceiling.js')], env, (p.seconds + 60) * 1000);
    const data = JSON.parse(readFileSync(summary, 'utf8')) as {
      state: { testRunDurationMs: number };
      metrics: Record<string, { values: Record<string, number> }>;
    };
    const requests = data.metrics.http_reqs?.values.count ?? 0;
    const failed = data.metrics.http_req_failed?.values.passes ?? 0;
    const seconds = data.state.testRunDurationMs / 1000;
    return {
      engine: 'k6',
      requestsPerSecond: round(requests / seconds),
      requests,
      seconds: round(seconds),
      errors: failed,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Figures from wrk's text output (wrk 4.1). */
export function parseWrkOutput(text: string): { requests: number; seconds: number; errors: number } {
  const total = /(\d+) requests in ([\d.]+)(ms|s|m)/.exec(text);
  if (!total) throw new CeilingError(`wrk printed no "N requests in T" line: ${text.slice(0, 300)}`);
  const unit = total[3] === 'ms' ? 0.001 : total[3] === 'm' ? 60 : 1;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const socketErrors = socket ? socket.slice(1).reduce((n, v) => n + Number(v), 0) : 0;
  return { requests: Number(total[1]), seconds: Number(total[2]) * unit, errors: non2xx + socketErrors };
}

/** wrk with `threads` threads over the same connections. */
export async function wrkCeiling(wrk: string, p: CeilingPlan, threads = 2): Promise<CeilingMeasurement> {
  const headers = Object.entries(p.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const args = ['-t', String(Math.min(threads, p.connections)), '-c', String(p.connections), '-d', `${p.seconds}s`];
  const text = await run(wrk, [...args, ...headers, p.url], process.env, (p.seconds + 30) * 1000);
  const f = parseWrkOutput(text);
  return {
    engine: 'wrk',
    requestsPerSecond: round(f.requests / f.seconds),
    requests: f.requests,
    seconds: f.seconds,
    errors: f.errors,
  };
}
