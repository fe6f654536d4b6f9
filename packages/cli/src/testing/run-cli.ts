/** Runs the CLI in-process for tests: `erpcert <args>` with captured output. */
import { PassThrough } from 'node:stream';
import type { CommandIO } from '../command.js';
import { main } from '../main.js';

/** Runs `erpcert <args>` in this process; resolves to the exit code and what it printed. */
export async function erpcert(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (d) => {
    stdout += d;
  });
  err.on('data', (d) => {
    stderr += d;
  });
  const io: CommandIO = { out, err, env, cwd };
  const code = await main(args, io);
  return { code, stdout, stderr };
}
