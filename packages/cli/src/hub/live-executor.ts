/**
 * The executor of the hub's live runs (packages/hub sits below the CLI and never imports it: `erpcert hub` hands
 * it this). A run is the `erpcert` bin in a child process: `conform` (with `--events` to follow it) or `load`,
 * against the saved target, its password in the child's environment (ERPCERT_PASSWORD, never on argv; the
 * hub's own ERPCERT_* variables are not passed on), `--out` a temporary folder the hub ingests, `--target-guard`
 * the hub's SSRF allow-list (conform checks the address of every connection it makes; load pins the run to the
 * address it checked). A cancel sends
 * the child SIGINT, so conform stops its tests and still cleans up what it created.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  EMBEDDED_TARGET,
  type ExecutorContext,
  type ExecutorResult,
  type ExecutorRun,
  type LiveRunExecutor,
  type ProgressEvent,
} from '@erpcert/hub';

export const ERPCERT_BIN = fileURLToPath(new URL('../../bin/erpcert.mjs', import.meta.url));

/**
 * The command line of a live run (no credential on it). The embedded reference server (EMBEDDED_TARGET) runs without
 * --target: the child starts it; any other target goes with the hub's allow-list (`--target-guard`), which the child
 * applies to every connection (conform: checked at connect time; load: pinned to the checked address).
 */
export function liveRunArgs(run: ExecutorRun, out: string, events: string): string[] {
  const t = run.target;
  const flag = (name: string, v: string | number | null | undefined) =>
    v === null || v === undefined ? [] : [`--${name}`, String(v)];
  const embedded = t.url === EMBEDDED_TARGET;
  const connection = [
    ...(embedded ? [] : [...flag('target', t.url), '--target-guard', run.targetGuard ?? 'none']),
    ...flag('user', t.user),
    ...flag('compcode', t.compcode),
    ...flag('usercode', t.usercode),
    ...flag('portalcc', t.portalcc),
    ...flag('portal-path', t.portalPath),
    ...flag('company-in', t.companyIn),
  ];
  const s = run.settings;
  if (s.kind === 'conformance')
    return [
      'conform',
      ...connection,
      ...flag('other-compcode', t.otherCompcode),
      ...flag('unok-usercode', t.unokUsercode),
      ...flag('limited-usercode', t.limitedUsercode),
      '--profile',
      s.profile,
      ...(s.only.length > 0 ? ['--only', s.only.join(',')] : []),
      '--out',
      out,
      '--events',
      events,
    ];
  return [
    'load',
    ...connection,
    '--scenario',
    s.scenario,
    '--engine',
    s.engine,
    '--duration',
    String(s.durationSeconds),
    '--out',
    out,
  ];
}

/** The child's environment: the hub's, without its ERPCERT_* settings, and the target's password. */
export function liveRunEnv(parent: NodeJS.ProcessEnv, password: string | null): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(parent).filter(([k]) => !k.startsWith('ERPCERT_')));
  if (password !== null) env.ERPCERT_PASSWORD = password;
  return env;
}

/** Reads the lines appended to a file since the last call. */
class Tail {
  #offset = 0;
  #rest = '';
  constructor(private readonly path: string) {}
  lines(): string[] {
    if (!existsSync(this.path)) return [];
    const size = statSync(this.path).size;
    if (size <= this.#offset) return [];
    const fd = openSync(this.path, 'r');
    try {
      const buf = Buffer.alloc(size - this.#offset);
      readSync(fd, buf, 0, buf.length, this.#offset);
      this.#offset = size;
      const text = this.#rest + buf.toString('utf8');
      const parts = text.split('\n');
      this.#rest = parts.pop() ?? '';
      return parts.filter((l) => l.trim() !== '');
    } finally {
      closeSync(fd);
    }
  }
}

export interface LiveExecutorOptions {
  readonly bin?: string;
  /** How often the events file is read. */
  readonly tailMs?: number;
  /** After a cancel's SIGINT, how long cleanup may take before SIGKILL. */
  readonly graceMs?: number;
  readonly env?: NodeJS.ProcessEnv;
}

export function liveExecutor(o: LiveExecutorOptions = {}): LiveRunExecutor {
  return {
    async execute(run: ExecutorRun, ctx: ExecutorContext): Promise<ExecutorResult> {
      const dir = mkdtempSync(join(tmpdir(), 'erpcert-live-'));
      const out = join(dir, 'report');
      const eventsPath = join(dir, 'events.jsonl');
      const password = run.target.password;
      const clean = (line: string) => (password ? line.split(password).join('***') : line).slice(0, 500);
      const started = Date.now();
      let filesTotal = 0;
      let filesDone = 0;
      let tests = 0;
      const tail = new Tail(eventsPath);
      const follow = () => {
        for (const line of tail.lines()) {
          let e: { type?: string; files?: number; verdicts?: { rule: string; verdict: string | null }[] };
          try {
            e = JSON.parse(line);
          } catch {
            continue;
          }
          if (e.type === 'run-start') filesTotal = e.files ?? 0;
          else if (e.type === 'test') {
            tests++;
            for (const v of e.verdicts ?? [])
              if (v.verdict) ctx.progress({ type: 'rule', rule: v.rule, verdict: v.verdict });
          } else if (e.type === 'module-end') filesDone++;
          else continue;
          const elapsed = (Date.now() - started) / 1000;
          const p: ProgressEvent = {
            type: 'progress',
            filesDone,
            filesTotal,
            tests,
            ...(filesDone > 0 && filesTotal > filesDone
              ? { secondsLeft: Math.round((elapsed / filesDone) * (filesTotal - filesDone)) }
              : {}),
          };
          ctx.progress(p);
        }
      };
      if (run.settings.kind === 'load') ctx.progress({ type: 'progress', secondsLeft: run.settings.durationSeconds });
      const child: ChildProcess = spawn(
        process.execPath,
        [o.bin ?? ERPCERT_BIN, ...liveRunArgs(run, out, eventsPath)],
        {
          cwd: dir,
          env: liveRunEnv(o.env ?? process.env, password),
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      const stderr: string[] = [];
      let partial = '';
      child.stderr?.on('data', (d: Buffer) => {
        const parts = (partial + d.toString('utf8')).split('\n');
        partial = parts.pop() ?? '';
        for (const l of parts) {
          const line = clean(l.trimEnd());
          if (line === '') continue;
          stderr.push(line);
          if (stderr.length > 20) stderr.shift();
          ctx.progress({ type: 'log', line });
        }
      });
      const timer = setInterval(follow, o.tailMs ?? 250);
      let killer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        child.kill('SIGINT');
        killer = setTimeout(() => child.kill('SIGKILL'), o.graceMs ?? 120_000);
      };
      if (ctx.signal.aborted) onAbort();
      else ctx.signal.addEventListener('abort', onAbort, { once: true });
      const code = await new Promise<number | null>((resolve) => {
        child.once('error', () => resolve(null));
        child.once('exit', (c) => resolve(c));
      });
      clearInterval(timer);
      if (killer) clearTimeout(killer);
      ctx.signal.removeEventListener('abort', onAbort);
      follow();
      return {
        exitCode: code,
        folder: out,
        message:
          code === 2
            ? `erpcert ${run.settings.kind === 'load' ? 'load' : 'conform'} could not run: ${stderr.slice(-3).join(' / ')}`
            : undefined,
        dispose: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  };
}
