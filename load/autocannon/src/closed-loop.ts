/// <reference path="./autocannon.d.ts" />
import { createRequire } from 'node:module';
import autocannon from 'autocannon';

/** What a closed-loop run reached. */
export interface ClosedLoopResult {
  readonly requests: number;
  readonly seconds: number;
  /** Transport errors, timeouts and non-2xx answers. */
  readonly errors: number;
  readonly requestsPerSecond: number;
}

/**
 * The generator's ceiling: `connections` keep-alive connections, each sending the same GET as soon as the last
 * answer came, for `seconds` (no rate limit, no checks). For benchmarks of the generator itself.
 */
export async function closedLoop(
  url: string,
  headers: Readonly<Record<string, string>>,
  connections: number,
  seconds: number,
): Promise<ClosedLoopResult> {
  const r = await autocannon({ url, headers: { ...headers }, connections, duration: seconds });
  return {
    requests: r.requests.total,
    seconds: r.duration,
    errors: r.errors + r.non2xx,
    requestsPerSecond: Math.round((r.requests.total / r.duration) * 10) / 10,
  };
}

/** The autocannon version this engine runs (its package.json). */
export function autocannonVersion(): string {
  const pkg = createRequire(import.meta.url)('autocannon/package.json') as { version?: string };
  return pkg.version ?? 'unknown';
}
