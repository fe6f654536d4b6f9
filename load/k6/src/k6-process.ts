/**
 * One k6 child process, bounded: stopped with SIGTERM when it outlives its limit (k6 then still writes its
 * summary), SIGKILL five seconds later. Output is passed on and kept with the password masked.
 */
import { spawn } from 'node:child_process';
import { MIN_SECRET_LENGTH } from '@erpcert/client';
import { K6Error } from './errors.js';

export interface K6Exit {
  /** k6's exit code (0 all thresholds held, 99 a threshold failed, 108 aborted by the script); null if killed. */
  readonly exitCode: number | null;
  /** The last 16 KiB of k6's output, password masked. */
  readonly log: string;
  /** Whether the process was stopped by the limit or the signal. */
  readonly stopped: boolean;
}

const TAIL_CHARS = 16_384;

/**
 * Replaces every occurrence of `secret` by `***` in k6's free-text output, when the secret is long enough to be
 * searched for (the client's MIN_SECRET_LENGTH: a shorter one would mask ordinary words of the output).
 */
export function maskSecret(text: string, secret: string | undefined): string {
  return secret === undefined || secret.length < MIN_SECRET_LENGTH ? text : text.split(secret).join('***');
}

/** The message of the last error line k6 logged (`level=error msg="..."`, unescaped), if any. */
export function lastK6Error(log: string): string | undefined {
  const line = log
    .split('\n')
    .filter((l) => /level=(error|fatal)|test aborted/i.test(l))
    .pop()
    ?.trim();
  if (line === undefined) return undefined;
  const msg = /msg="((?:[^"\\]|\\.)*)"/.exec(line)?.[1];
  if (msg === undefined) return line;
  return msg.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? ' ' : c === 't' ? '' : c));
}

/** Runs k6 with `args` and resolves when it has exited. */
export function runK6Process(
  k6: string,
  args: readonly string[],
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    limitMs: number;
    secret?: string;
    signal?: AbortSignal;
    onOutput?: (text: string) => void;
  },
): Promise<K6Exit> {
  return new Promise((done, fail) => {
    const child = spawn(k6, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    let stopped = false;
    const keep = (chunk: Buffer): void => {
      const text = maskSecret(chunk.toString('utf8'), options.secret);
      options.onOutput?.(text);
      tail = (tail + text).slice(-TAIL_CHARS);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const stop = (): void => {
      stopped = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    };
    const timer = setTimeout(stop, options.limitMs);
    options.signal?.addEventListener('abort', stop, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      fail(new K6Error('not-found', `k6 could not be started (${k6}): ${error.message}`, { cause: error }));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
      done({ exitCode: code, log: tail, stopped });
    });
  });
}
