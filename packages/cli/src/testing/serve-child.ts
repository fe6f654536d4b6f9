import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RawResponse } from '@erpcert/client';
import { expect } from 'vitest';

/** Helpers of the tests that run `erpcert serve` or `erpcert hub` as a separate process. */
const BIN = fileURLToPath(new URL('../../bin/erpcert.mjs', import.meta.url));

/** A running `erpcert serve` or `erpcert hub` child, its base URL and what it wrote to stderr so far. */
export interface Served {
  readonly url: string;
  readonly child: ChildProcess;
  readonly stderr: string;
  /** What it wrote to stdout so far (the URL line first). */
  readonly stdout: string;
}

/** Starts `erpcert <command> --port 0 <args>` and resolves once it prints its URL. */
export function startChild(
  command: 'serve' | 'hub',
  args: readonly string[],
  o: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<Served> {
  const child = spawn(process.execPath, [BIN, command, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(o.cwd ? { cwd: o.cwd } : {}),
    ...(o.env ? { env: o.env } : {}),
  });
  let err = '';
  child.stderr!.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const url = /^(http:\/\/\S+)$/m.exec(out)?.[1];
      if (url)
        resolve({
          url,
          child,
          get stderr() {
            return err;
          },
          get stdout() {
            return out;
          },
        });
    });
    child.on('exit', (code) => reject(new Error(`erpcert ${command} exited with ${code}: ${err}`)));
  });
}

/** Starts `erpcert serve --port 0 <args>` and resolves once it prints its URL. */
export function serveChild(args: readonly string[]): Promise<Served> {
  return startChild('serve', args);
}

/** `erpcert serve` that is expected to stop on its own: its exit code and stderr. */
export function serveExit(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

/** Stops a child started by startChild or serveChild (SIGTERM) and waits for it. */
export async function stopChild(served: Served | undefined): Promise<void> {
  if (!served || served.child.exitCode !== null) return;
  const exited = new Promise((r) => served.child.once('exit', r));
  served.child.kill('SIGTERM');
  await exited;
}

/** A form body as the apps send it: pairs percent-encoded (`%20` for spaces, never `+`). */
export const form = (pairs: [string, string][]): string =>
  pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

export type Rec = Record<string, unknown> & { rows?: Record<string, string>[] };

/** The JSON body of an answer; the test fails on anything but HTTP 200. */
export function json(res: RawResponse): Record<string, unknown> {
  expect(res.status, res.text).toBe(200);
  return JSON.parse(res.text) as Record<string, unknown>;
}

/** The records of a JSON envelope; the test fails on an error answer. */
export function records(res: RawResponse, register: string): Rec[] {
  const doc = json(res);
  expect(doc.error, res.text).toBeUndefined();
  return (doc.data as Record<string, unknown>)[register] as Rec[];
}
