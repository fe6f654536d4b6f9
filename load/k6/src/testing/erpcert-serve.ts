/** Test helper: `erpcert serve` as a child process on 127.0.0.1 port 0, stopped with SIGTERM afterwards. */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { packageDir } from '../k6-binary.js';

export interface ServedErp {
  readonly url: string;
  stop(): Promise<void>;
}

const repoRoot = resolve(packageDir, '..', '..');

/** Starts the reference server with `args` (for example `--seed-size 10000`) and waits for its URL line. */
export function serveErp(args: readonly string[], timeoutMs = 60_000): Promise<ServedErp> {
  const child: ChildProcess = spawn(
    process.execPath,
    [resolve(repoRoot, 'packages/cli/bin/erpcert.mjs'), 'serve', '--host', '127.0.0.1', '--port', '0', ...args],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const stop = (): Promise<void> =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return new Promise((done, fail) => {
    let out = '';
    const timer = setTimeout(() => {
      void stop();
      fail(new Error(`erpcert serve printed no URL within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line?.startsWith('http')) {
        clearTimeout(timer);
        done({ url: line!.trim(), stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`erpcert serve exited with ${code}: ${stderr}`));
    });
  });
}
