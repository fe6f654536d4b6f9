/**
 * One k6 child process, bounded: stopped with SIGTERM when it outlives its limit (k6 then still writes its
 * summary), SIGKILL five seconds later. Output is passed on and kept with the password masked.
 */
import { spawn } from 'node:child_process';
import { MIN_SECRET_LENGTH } from '@erpcert/client';
import { K6Error } from './errors.js';
import {
  type MachineCpuReading,
  type MachineCpuUse,
  machineCpuBetween,
  readMachineCpu,
  statCpuMicros,
} from './machine-cpu.js';

export interface K6Exit {
  /** k6's exit code (0 all thresholds held, 99 a threshold failed, 108 aborted by the script); null if killed. */
  readonly exitCode: number | null;
  /** The last 16 KiB of k6's output, password masked. */
  readonly log: string;
  /** Whether the process was stopped by the limit or the signal. */
  readonly stopped: boolean;
  /** With `watch`: k6's own CPU time over the load window, and its "Insufficient VUs" warnings. */
  readonly generator?: K6GeneratorUse;
}

/** k6's own load during a run, from /proc/<pid>/stat (Linux; undefined elsewhere). */
export interface K6GeneratorUse {
  /** CPU microseconds of the k6 process (all its threads) over the window. */
  readonly cpuMicros: number;
  /** Seconds of the window. */
  readonly seconds: number;
  /** True when the window started at the scripts' load-start mark (after setup), false for the whole process. */
  readonly marked: boolean;
  readonly insufficientVUs: number;
  /** The whole machine's CPU over the same window (/proc/stat); absent where it cannot be read. */
  readonly machine?: MachineCpuUse;
  /** CPU microseconds of the target over the same window, when it can be read (the embedded server's thread). */
  readonly targetCpuMicros?: number;
}

/** The line a scenario logs when setup() is done and the arrivals start (lib/erp.ts loadStarts). */
export const LOAD_START_MARK = 'erpcert-load-start';

/** utime + stime of a process in microseconds, from /proc/<pid>/stat; undefined when it cannot be read. */
export function processCpuMicros(pid: number): number | undefined {
  return statCpuMicros(`/proc/${pid}/stat`);
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
    /**
     * Measure k6's CPU over `seconds` from the load-start mark (a step of a stepped run), and the target's with
     * `target` (its CPU microseconds so far) when it can be read.
     */
    watch?: { seconds: number; target?: () => number | undefined };
  },
): Promise<K6Exit> {
  return new Promise((done, fail) => {
    const child = spawn(k6, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    let stopped = false;
    // generator use: samples of k6's CPU time, the mark, the warnings
    const samples: { t: number; cpu: number; machine: MachineCpuReading | undefined; target: number | undefined }[] =
      [];
    let mark: number | undefined;
    let insufficientVUs = 0;
    const sample = (): void => {
      const cpu = child.pid === undefined ? undefined : processCpuMicros(child.pid);
      if (cpu !== undefined)
        samples.push({ t: performance.now(), cpu, machine: readMachineCpu(), target: options.watch?.target?.() });
    };
    const sampler = options.watch ? setInterval(sample, 200) : undefined;
    const keep = (chunk: Buffer): void => {
      const text = maskSecret(chunk.toString('utf8'), options.secret);
      if (options.watch) {
        if (mark === undefined && text.includes(LOAD_START_MARK)) {
          sample();
          mark = performance.now();
        }
        insufficientVUs += text.match(/Insufficient VUs/g)?.length ?? 0;
      }
      options.onOutput?.(text.replace(/^.*erpcert-load-start.*\n?/gm, ''));
      tail = (tail + text).slice(-TAIL_CHARS);
    };
    const use = (): K6GeneratorUse | undefined => {
      const watch = options.watch;
      if (!watch || samples.length < 2) return undefined;
      const from = mark === undefined ? samples[0]! : (samples.find((x) => x.t >= mark! - 1) ?? samples[0]!);
      const end = from.t + watch.seconds * 1000 + 100;
      const to = [...samples].reverse().find((x) => x.t <= end && x.t > from.t) ?? samples[samples.length - 1]!;
      const seconds = (to.t - from.t) / 1000;
      if (!(seconds > 0)) return undefined;
      const machine = machineCpuBetween(from.machine, to.machine);
      return {
        cpuMicros: to.cpu - from.cpu,
        seconds,
        marked: mark !== undefined,
        insufficientVUs,
        ...(machine ? { machine } : {}),
        ...(from.target !== undefined && to.target !== undefined ? { targetCpuMicros: to.target - from.target } : {}),
      };
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
      clearInterval(sampler);
      fail(new K6Error('not-found', `k6 could not be started (${k6}): ${error.message}`, { cause: error }));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      clearInterval(sampler);
      options.signal?.removeEventListener('abort', stop);
      const generator = use();
      done({ exitCode: code, log: tail, stopped, ...(generator ? { generator } : {}) });
    });
  });
}
