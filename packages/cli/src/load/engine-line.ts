/**
 * The engine line of a load report: the engine and its version, never a path of this machine (a report goes to a
 * customer). For example `k6 v2.2.0 (built from source with xk6)` or `autocannon 9.0.0 (Node v20.20.2)`.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { autocannonVersion, builtK6 } from './engines.js';

/** `k6 v2.2.0` from the first line of `k6 version`; undefined when it cannot be read. */
export function k6VersionOf(output: string): string | undefined {
  return /\bk6 (v\d+\.\d+\.\d+\S*)/.exec(output)?.[1];
}

/** Where a k6 binary came from, in words without its path. */
export function k6Origin(path: string): string {
  if (resolve(path) === builtK6) return 'built from source with xk6';
  if (process.env.ERPCERT_K6 !== undefined && process.env.ERPCERT_K6 !== '') return 'the binary ERPCERT_K6 names';
  return 'found on the PATH';
}

/** The engine line for `engine` (k6: the binary at `k6` is asked for its version). */
export function engineLine(engine: 'k6' | 'autocannon', k6?: string): string {
  if (engine === 'autocannon') return `autocannon ${autocannonVersion()} (Node ${process.version})`;
  let version: string | undefined;
  try {
    version = k6VersionOf(execFileSync(k6!, ['version'], { encoding: 'utf8', timeout: 30_000 }));
  } catch {
    version = undefined;
  }
  return `k6 ${version ?? '(version unknown)'} (${k6Origin(k6!)})`;
}
