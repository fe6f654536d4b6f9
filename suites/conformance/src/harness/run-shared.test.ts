import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runShared, sharedFiles } from './run-shared.js';

const dirs: string[] = [];
function runFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'erpcert-run-shared-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const signal = new AbortController().signal;
/** What a worker of the run with this ledger passes (target and signal only). */
const worker = (ledger: string) => ({ target: { ledger }, signal });

describe('runShared', () => {
  it('computes the value once and hands it to a later worker through the run folder', async () => {
    const ledger = join(runFolder(), 'ledger.jsonl');
    let computed = 0;
    const first = await runShared(worker(ledger), 'registers', async () => {
      computed++;
      return ['CUVc', 'INVc'];
    });
    expect(first).toEqual(['CUVc', 'INVc']);
    const { file, lock } = sharedFiles(ledger, 'registers');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(['CUVc', 'INVc']);
    expect(existsSync(lock)).toBe(false);
    // another worker (another process: a fresh memory) reads the file instead of computing
    const key = Symbol.for('erpcert.conformance.runShared');
    (globalThis as Record<symbol, unknown>)[key] = undefined;
    const second = await runShared(worker(ledger), 'registers', async () => {
      computed++;
      return ['other'];
    });
    expect(second).toEqual(['CUVc', 'INVc']);
    expect(computed).toBe(1);
  });

  it('lets workers asking at the same time compute once: the others wait for the lock', async () => {
    const ledger = join(runFolder(), 'ledger.jsonl');
    const key = Symbol.for('erpcert.conformance.runShared');
    let computed = 0;
    const ask = () => {
      (globalThis as Record<symbol, unknown>)[key] = undefined; // as if each were its own worker
      return runShared(worker(ledger), 'x', async () => {
        computed++;
        await new Promise((r) => setTimeout(r, 50));
        return computed;
      });
    };
    expect(await Promise.all([ask(), ask(), ask()])).toEqual([1, 1, 1]);
    expect(computed).toBe(1);
  });

  it('writes nothing when the computation throws, so that the next asker tries again', async () => {
    const ledger = join(runFolder(), 'ledger.jsonl');
    await expect(
      runShared(worker(ledger), 'y', async () => {
        throw new Error('the target answered 503');
      }),
    ).rejects.toThrow('503');
    expect(existsSync(sharedFiles(ledger, 'y').file)).toBe(false);
    expect(await runShared(worker(ledger), 'y', async () => 'again')).toBe('again');
  });

  it('keeps the files of a run beside its ledger, named after a ledger that is not ledger.jsonl', () => {
    expect(sharedFiles('/r/run-EC1234.jsonl', 'table')).toEqual({
      file: '/r/run-EC1234-shared-table.json',
      lock: '/r/run-EC1234-shared-table.lock',
    });
  });
});
