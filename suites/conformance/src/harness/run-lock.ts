/**
 * A lock shared by the test workers of one run: a file in the run folder, made by exclusive create. The holder
 * runs its work and removes the file; the others wait. A lock older than {@link LOCK_WAIT_MS} (a killed worker)
 * or a wait longer than that is broken, so a run never hangs on it.
 */
import { closeSync, openSync, statSync, unlinkSync } from 'node:fs';

/** How long a worker waits for another's lock before it goes ahead itself (a stale lock of a killed worker). */
export const LOCK_WAIT_MS = 120_000;

/** Runs `f` while holding the lock file `lock`. */
export async function withLock<T>(lock: string, signal: AbortSignal, f: () => Promise<T>): Promise<T> {
  const start = Date.now();
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let age = 0;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue; // released meanwhile: try again
      }
      if (age > LOCK_WAIT_MS || Date.now() - start > LOCK_WAIT_MS || signal.aborted) {
        try {
          unlinkSync(lock);
        } catch {}
        continue;
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  try {
    return await f();
  } finally {
    try {
      unlinkSync(lock);
    } catch {}
  }
}
