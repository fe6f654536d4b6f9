import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { scenarios } from '@erpcert/load-k6';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAutocannonScenario } from './run-scenario.js';

/**
 * Smoke run of every scenario on autocannon against `erpcert serve --seed-size 10000` (a child process: the
 * load tools speak HTTP only), a couple of seconds each. Throughput figures live in benchmarks, not here.
 */
const bin = fileURLToPath(new URL('../../../packages/cli/bin/erpcert.mjs', import.meta.url));
let child: ChildProcess;
let target: string;
const auth = { user: 'erpcert', password: 'erpcert', compcode: 1 };

beforeAll(async () => {
  child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--seed-size', '10000'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  target = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`erpcert serve exited with ${code}`)));
  });
}, 60_000);

afterAll(() => {
  child?.kill('SIGTERM');
});

async function countInvoices(): Promise<number> {
  const res = await fetch(`${target}/api/1/IVVc?fields=SerNr&limit=1000000`, {
    headers: { authorization: `Basic ${Buffer.from('erpcert:erpcert').toString('base64')}` },
  });
  return ((await res.text()).match(/<IVVc\s/g) ?? []).length;
}

describe('every scenario on autocannon against the reference server', () => {
  it('covers the whole catalogue', () => {
    expect(scenarios.map((s) => s.name).sort()).toEqual(
      ['invoices', 'portal-mix', 'read-fields', 'read-raw', 'sync', 'transactions'].sort(),
    );
  });

  it('invoices: 4/s confirmed invoices pass, and exactly the offered ones were created', async () => {
    const before = await countInvoices();
    const r = await runAutocannonScenario({ scenario: 'invoices', target, ...auth, durationSeconds: 2 });
    expect(r).toMatchObject({ scenario: 'invoices', engine: 'autocannon', verdict: 'pass', errors: 0 });
    expect(r.offeredRate).toBe(4);
    expect(r.achievedRate).toBe(4);
    expect(r.droppedIterations).toBe(0);
    expect(r.checks).toEqual({ passes: 8, fails: 0 });
    expect((await countInvoices()) - before).toBe(8);
  }, 30_000);

  it('invoices, stepped: doubling up to the maximum, each step with the generator load measured', async () => {
    const r = await runAutocannonScenario({
      scenario: 'invoices',
      target,
      ...auth,
      saturation: { start: 4, maxRate: 16, p99LimitMs: 5000, stageSeconds: 1 },
    });
    // a 2-core machine shared with other work may break a step; the steps then stop there, else run to the top
    const offered = r.saturation?.map((s) => s.offered) ?? [];
    expect(offered[0]).toBe(4);
    expect(offered.slice(0, 3)).toEqual([4, 8, 16].slice(0, Math.min(3, offered.length)));
    for (const s of r.saturation ?? []) {
      // measured at every step: autocannon's one thread, its CPU (a 1 s step may stay under one 10 ms tick)
      expect(s.generator?.workers).toBe(1);
      expect(s.generator?.cpuCores).toBeGreaterThanOrEqual(0);
      expect(s.generator?.eventLoopDelayMs).toBeGreaterThanOrEqual(0);
      if (existsSync('/proc/stat')) expect(s.generator?.machineCores).toBeGreaterThanOrEqual(1);
    }
    expect(r.saturationLimit?.limitedBy).toMatch(/^(target|generator|step-limit)$/);
    if (r.saturationLimit?.limitedBy === 'step-limit') {
      expect(offered).toEqual([4, 8, 16]);
      expect(r.saturationLimit.evidence).toContain('maximum of 16/s');
      expect(r).toMatchObject({ verdict: 'pass', achievedRate: 16 });
    }
  }, 30_000);

  it('transactions: 10/s journal entries pass', async () => {
    const r = await runAutocannonScenario({ scenario: 'transactions', target, ...auth, durationSeconds: 2 });
    expect(r).toMatchObject({ verdict: 'pass', errors: 0, droppedIterations: 0, requests: 20 });
  }, 30_000);

  it.each(['read-raw', 'read-fields'] as const)(
    '%s: 10,000 TRVc in pages of 1,000 and 5,000 (back to back)',
    async (scenario) => {
      const r = await runAutocannonScenario({ scenario, target, ...auth, pauseMs: 0 });
      expect(r).toMatchObject({ verdict: 'pass', errors: 0, requests: 12 });
      expect(r.reads?.map((x) => [x.records, x.batch])).toEqual([
        [10_000, 1000],
        [10_000, 5000],
      ]);
      expect(r.read!.bytes).toBeGreaterThan(0);
      expect(r.reason).toContain('back to back');
    },
    30_000,
  );

  it('read-fields with the documented pause: pages of 5,000, paced', async () => {
    const r = await runAutocannonScenario({ scenario: 'read-fields', target, ...auth, batchSizes: [5000] });
    expect(r).toMatchObject({ verdict: 'pass', requests: 2 });
    expect(r.reason).toContain('1000 ms between page starts');
  }, 30_000);

  it('the 10-field read is smaller per record than the raw one', async () => {
    const one = { target, ...auth, pauseMs: 0, batchSizes: [5000] };
    const raw = await runAutocannonScenario({ scenario: 'read-raw', ...one });
    const ten = await runAutocannonScenario({ scenario: 'read-fields', ...one });
    expect(ten.bytesPerRecord!).toBeLessThan(raw.bytesPerRecord!);
  }, 30_000);

  it('sync: every write is seen through updates_after (info, checks hold)', async () => {
    const r = await runAutocannonScenario({ scenario: 'sync', target, ...auth, durationSeconds: 2 });
    expect(r).toMatchObject({ verdict: 'info', errors: 0, droppedIterations: 0, requests: 8 });
  }, 30_000);

  it('portal-mix: lookups, list pages and documents on the HSESSION cookie alone', async () => {
    const r = await runAutocannonScenario({ scenario: 'portal-mix', target, ...auth, durationSeconds: 2 });
    expect(r).toMatchObject({ verdict: 'info', errors: 0, requests: 10 });
  }, 30_000);

  it('a wrong password is a setup error before any load', async () => {
    await expect(
      runAutocannonScenario({ scenario: 'invoices', target, user: 'erpcert', password: 'wrong', durationSeconds: 1 }),
    ).rejects.toThrow(/refused the credentials/);
  }, 30_000);
});
