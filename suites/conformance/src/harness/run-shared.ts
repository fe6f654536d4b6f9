/**
 * A value computed once per run and shared by its test workers (issue 19: one register discovery per run, not
 * one per worker). The first worker that asks computes it under the run's lock for that value (run-lock.ts) and
 * writes it as JSON beside the run's ledger; the others wait for the lock and read the file. Within a worker the
 * answer is also kept in memory. A computation that throws writes nothing, so the next asker tries again.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { withLock } from './run-lock.js';

/** The file and lock of a shared value `name` of the run whose ledger is `ledger`. */
export function sharedFiles(ledger: string, name: string): { file: string; lock: string } {
  const stem = basename(ledger) === 'ledger.jsonl' ? '' : `${basename(ledger, '.jsonl')}-`;
  const base = join(dirname(ledger), `${stem}shared-${name}`);
  return { file: `${base}.json`, lock: `${base}.lock` };
}

const KEY = Symbol.for('erpcert.conformance.runShared');
type Holder = { [KEY]?: Map<string, Promise<unknown>> };

function memory(): Map<string, Promise<unknown>> {
  const holder = globalThis as Holder;
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/**
 * The run's value `name`: read from the shared file when a worker already computed it, else computed now by
 * `compute` and written for the others. `name` is a kebab-case word (it becomes part of a file name).
 */
export function runShared<T>(
  ctx: { readonly target: { readonly ledger: string }; readonly signal: AbortSignal },
  name: string,
  compute: () => Promise<T>,
): Promise<T> {
  const { file, lock } = sharedFiles(ctx.target.ledger, name);
  const cache = memory();
  const hit = cache.get(file) as Promise<T> | undefined;
  if (hit) return hit;
  const value = withLock(lock, ctx.signal, async () => {
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as T;
    const computed = await compute();
    // written whole, then renamed: a reader never sees half a file
    writeFileSync(`${file}.tmp`, JSON.stringify(computed));
    renameSync(`${file}.tmp`, file);
    return computed;
  });
  cache.set(file, value);
  value.catch(() => cache.delete(file));
  return value;
}
