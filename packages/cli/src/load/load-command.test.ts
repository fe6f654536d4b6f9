import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningServer, startServer } from '@erpcert/refserver';
import type { LoadRunDocument } from '@erpcert/runs';
import { validateLoadResults } from '@erpcert/runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandIO } from '../command.js';
import { load as command } from '../commands/load.js';
import { parseArgs } from '../options.js';
import { scanReportFiles } from '../testing/report-paths.js';
import { k6Path } from './engines.js';
import { type LoadHooks, runLoad } from './run-load.js';
import { startThrottleProxy, type ThrottleProxy } from './throttle-proxy.js';

const bin = fileURLToPath(new URL('../../bin/erpcert.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'erpcert-load-cli-'));
const auth = ['--user', 'erpcert', '--password', 'erpcert', '--compcode', '1'];
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ port: 0, seed: 200, log: () => {} });
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Runs `erpcert load` in this process with captured output. */
async function load(args: string[], hooks: LoadHooks = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CommandIO = {
    out: {
      write(t: string) {
        out += t;
        return true;
      },
    } as NodeJS.WritableStream,
    err: {
      write(t: string) {
        err += t;
        return true;
      },
    } as NodeJS.WritableStream,
    env: {},
    cwd: work,
  };
  const code = await withHooks(args, io, hooks);
  return { code, out, err };
}

/** The parsing of main(), then runLoad with the test seams (no signal handlers). */
async function withHooks(args: string[], io: CommandIO, hooks: LoadHooks): Promise<number> {
  try {
    const parsed = parseArgs('load', command.flags, args, io.env, io.cwd);
    return await runLoad(parsed.values, io, { signals: false, ...hooks });
  } catch (e) {
    io.err.write(`erpcert load: ${(e as Error).message}\n`);
    return 2;
  }
}

const results = (dir: string) => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as LoadRunDocument;

describe('erpcert load as a process', () => {
  function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [bin, 'load', ...args], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (b: Buffer) => (out += b));
      child.stderr.on('data', (b: Buffer) => (err += b));
      child.on('exit', (code) => resolve({ code, out, err }));
    });
  }

  const engines = [['autocannon'], ...(k6Path() ? [['k6']] : [])];
  it.each(engines)(
    'erpcert load --scenario invoices --duration 3 --engine %s writes results.json, summary.md and report.html',
    async (engine) => {
      const out = join(work, `e2e-${engine}`);
      const r = await cli([
        '--scenario',
        'invoices',
        '--duration',
        '3',
        '--engine',
        engine!,
        '--saturation-stages',
        '2',
        '--saturation-stage-seconds',
        '1',
        '--out',
        out,
      ]);
      expect(r.err).toContain(`engine ${engine}: asked for with --engine ${engine}`);
      expect(r.err).toContain('starting the embedded reference server with 10000 journal entries');
      expect(r.code).toBe(0);
      for (const f of ['results.json', 'summary.md', 'report.html']) expect(existsSync(join(out, f))).toBe(true);
      const doc = results(out);
      expect(validateLoadResults(doc).errors).toEqual([]);
      expect(doc.run).toMatchObject({ engine, outcome: 'pass', exitCode: 0 });
      expect(doc.scenarios[0]).toMatchObject({ scenario: 'invoices', engine, verdict: 'pass', offeredRate: 4 });
      expect(doc.scenarios[0]!.saturation?.length).toBeGreaterThanOrEqual(1);
      const html = readFileSync(join(out, 'report.html'), 'utf8');
      expect(html).toContain('class="saturation-chart"');
      expect(r.out).toMatch(/invoices\s+3 to 4 per second\s+4\/s checked \(offered 4\/s\)\s+1\.33x\s+pass/);
      // p95 measured by either engine, in order among the other percentiles, and printed
      const latency = doc.scenarios[0]!.latencyMs;
      expect(latency.p95).toEqual(expect.any(Number));
      expect(latency.p90).toBeLessThanOrEqual(latency.p95!);
      expect(latency.p95).toBeLessThanOrEqual(latency.p99);
      expect(r.out).toMatch(/Scenario\s+Requests\s+p50 ms\s+p90 ms\s+p95 ms\s+p99 ms\s+max ms/);
      // what stopped the steps, with the evidence, in all three report files
      const v = doc.scenarios[0]!.saturationVerdict!;
      expect(v.limitedBy).toMatch(/^(target|generator|step-limit)$/);
      expect(v.evidence).not.toBe('');
      if (v.limitedBy === 'step-limit') expect(v.evidence).toContain('in the 2 steps allowed');
      // measured at every step (a 1 s step at 4/s may use less than one 10 ms clock tick of generator CPU)
      for (const step of doc.scenarios[0]!.saturation ?? []) {
        expect(step.generator?.workers).toBeGreaterThanOrEqual(1);
        expect(step.generator?.cpuCores).toBeGreaterThanOrEqual(0);
        // and the whole machine's CPU over the step, where /proc/stat exists (absent elsewhere)
        if (existsSync('/proc/stat')) {
          expect(step.generator?.machineCores).toBeGreaterThanOrEqual(1);
          expect(step.generator?.machineBusyCores).toBeLessThanOrEqual(step.generator?.machineCores ?? 0);
        }
      }
      expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain(`**Limited by: ${v.limitedBy}**`);
      expect(html).toContain(`<g class="limited-by" data-limited-by="${v.limitedBy}">`);
      expect(html).toContain(`<strong>Limited by: ${v.limitedBy}</strong>`);
      expect(r.out).toContain(`Saturation invoices: limited by ${v.limitedBy}: `);
      // no local path in any report file: the engine line names the engine and its version
      expect(scanReportFiles(out)).toEqual([]);
      expect(doc.run.engineNote).toMatch(
        engine === 'k6' ? /\(k6 v\d+\.\d+\.\d+ \(/ : /\(autocannon \d+\.\d+\.\d+ \(Node v/,
      );
    },
    180_000,
  );
});

describe('erpcert load against a target', () => {
  it('without k6 it runs autocannon and says so', async () => {
    const out = join(work, 'fallback');
    const r = await load(
      ['--target', server.url, ...auth, '--scenario', 'transactions', '--duration', '1', '--out', out],
      { k6Path: () => undefined },
    );
    expect(r.err).toContain('engine autocannon: k6 is not built');
    expect(r.code).toBe(0);
    expect(results(out).run).toMatchObject({ engine: 'autocannon', settings: { saturation: null } });
  }, 60_000);

  it('--engine k6 without k6 is a configuration error (exit 2)', async () => {
    const r = await load(['--target', server.url, ...auth, '--engine', 'k6', '--out', join(work, 'nok6')], {
      k6Path: () => undefined,
    });
    expect(r.code).toBe(2);
    expect(r.err).toContain('k6 is not built');
  });

  it('an unreachable target exits 2 and the report says why', async () => {
    const out = join(work, 'unreachable');
    const r = await load(['--target', 'http://127.0.0.1:9', ...auth, '--engine', 'autocannon', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('cannot be reached');
    expect(results(out).run).toMatchObject({ outcome: 'error', exitCode: 2 });
    expect(results(out).problems[0]).toContain('cannot be reached');
  }, 60_000);

  it('refused credentials exit 2, and the password is never printed', async () => {
    const r = await load([
      '--target',
      server.url,
      '--user',
      'erpcert',
      '--password',
      'Wr0ng-Secret',
      '--engine',
      'autocannon',
      '--out',
      join(work, 'refused'),
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('refused the credentials');
    expect(`${r.out}${r.err}${readFileSync(join(work, 'refused', 'results.json'), 'utf8')}`).not.toContain(
      'Wr0ng-Secret',
    );
  }, 60_000);

  it('--baseline prints and reports the change of every figure', async () => {
    const first = join(work, 'base-1');
    const second = join(work, 'base-2');
    const args = [
      '--target',
      server.url,
      ...auth,
      '--engine',
      'autocannon',
      '--scenario',
      'transactions',
      '--duration',
      '1',
    ];
    expect((await load([...args, '--out', first])).code).toBe(0);
    const r = await load([...args, '--out', second, '--baseline', first]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Change against the baseline base-1 '); // relative to the working folder: no local path
    expect(r.out).toMatch(/transactions\s+achievedRate\s+10\s+10\s+0 %\s+same/);
    const doc = results(second);
    expect(doc.baseline?.changes.map((c) => c.figure)).toEqual(
      expect.arrayContaining(['latencyMs.p95', 'latencyMs.p99']),
    );
    expect(readFileSync(join(second, 'report.html'), 'utf8')).toContain('id="baseline"');
  }, 60_000);

  // runs only where k6 is built (pnpm --filter @erpcert/load-k6 build); .ci/run builds it
  it.skipIf(!k6Path())(
    '--dashboard exports the k6 web dashboard beside the k6 outputs',
    async () => {
      const out = join(work, 'dashboard');
      const r = await load([
        '--target',
        server.url,
        ...auth,
        '--engine',
        'k6',
        '--scenario',
        'sync',
        '--duration',
        '4',
        '--dashboard',
        '--out',
        out,
      ]);
      expect(r.code).toBe(0);
      const html = readFileSync(join(out, 'k6', 'sync-dashboard.html'), 'utf8');
      expect(html.slice(0, 200).toLowerCase()).toContain('<!doctype html>');
    },
    120_000,
  );

  it('a scenario the target cannot serve fails with the reason; the others still run', async () => {
    const out = join(work, 'no-portal');
    const r = await load([
      '--target',
      server.url,
      ...auth,
      '--portal-path',
      '/NoSuchPortal.hal',
      '--engine',
      'autocannon',
      '--scenario',
      'portal-mix,sync',
      '--duration',
      '1',
      '--out',
      out,
    ]);
    expect(r.code).toBe(1);
    const [portal, sync] = results(out).scenarios;
    expect(portal).toMatchObject({ scenario: 'portal-mix', verdict: 'fail', requests: 0 });
    expect(portal!.reason).toContain('the scenario could not run: portal login');
    expect(sync).toMatchObject({ scenario: 'sync', verdict: 'info' });
    expect(results(out).problems[0]).toContain('portal-mix');
  }, 60_000);

  it('an interrupted run stops at once, writes what was measured and exits 2', async () => {
    const out = join(work, 'interrupted');
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 1500);
    const args = ['--target', server.url, ...auth, '--engine', 'autocannon', '--scenario', 'invoices,transactions'];
    const r = await load([...args, '--duration', '600', '--out', out], { signal: abort.signal });
    expect(r.code).toBe(2);
    const doc = results(out);
    expect(doc.run).toMatchObject({ outcome: 'error', exitCode: 2, interrupted: true });
    expect(doc.scenarios.map((e) => e.scenario)).toEqual(['invoices']);
    expect(doc.scenarios[0]!.reason).toContain('stopped before it finished');
  }, 60_000);

  it('a folder that is not a load run is refused as a baseline (exit 2)', async () => {
    const r = await load(['--target', server.url, ...auth, '--engine', 'autocannon', '--baseline', work]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--baseline');
  });
});

describe('a throttled target: 2 invoice POSTs per second', () => {
  let proxy: ThrottleProxy;
  beforeAll(async () => {
    proxy = await startThrottleProxy({ target: server.url, ratePerSecond: 2 });
  });
  afterAll(() => proxy?.close());

  it('queued: the invoice scenario fails its threshold and the report says why; transactions still pass', async () => {
    const out = join(work, 'throttled');
    const r = await load([
      '--target',
      proxy.url,
      ...auth,
      '--engine',
      'autocannon',
      '--scenario',
      'invoices,transactions',
      '--duration',
      '6',
      '--out',
      out,
    ]);
    expect(r.code).toBe(1);
    expect(proxy.stats.queued).toBeGreaterThan(0);
    const doc = results(out);
    const [invoices, transactions] = doc.scenarios;
    expect(invoices).toMatchObject({ scenario: 'invoices', verdict: 'fail' });
    expect(invoices!.reason).toMatch(/dropped: the target did not keep up with 4\/s/);
    expect(invoices!.reason).toMatch(/below the documented 3\/s/);
    expect(invoices!.achievedRate!).toBeLessThan(3);
    expect(transactions).toMatchObject({ scenario: 'transactions', verdict: 'pass' });
    expect(r.out).toContain('FAIL invoices: ');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('FAIL: 1 scenario(s) missed their threshold');
    expect(html).toContain('below the documented 3/s');
  }, 60_000);

  it('refused with 503: the errors fail the scenario (a fast error is not throughput)', async () => {
    const refusing = await startThrottleProxy({ target: server.url, ratePerSecond: 2, mode: 'refuse' });
    try {
      const out = join(work, 'refusing');
      const r = await load([
        '--target',
        refusing.url,
        ...auth,
        '--engine',
        'autocannon',
        '--scenario',
        'invoices',
        '--duration',
        '2',
        '--out',
        out,
      ]);
      expect(r.code).toBe(1);
      expect(refusing.stats.refused).toBeGreaterThan(0);
      expect(results(out).scenarios[0]!.reason).toContain('HTTP 503');
    } finally {
      await refusing.close();
    }
  }, 60_000);
});
