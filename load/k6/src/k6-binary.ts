/**
 * Where the k6 binary is: `ERPCERT_K6` when set, else `tools/bin/k6` (built by scripts/build-k6.sh), else `k6`
 * on the PATH.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package folder (load/k6). */
export const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The binary scripts/build-k6.sh builds. */
export const builtK6 = resolve(packageDir, '..', '..', 'tools', 'bin', 'k6');

/**
 * How to build k6 here: in a checkout the package's build script; in an installed package (no workspace two folders
 * up) the same shell script, which puts the binary where {@link builtK6} looks (`node_modules/tools/bin/k6`).
 */
export function k6BuildCommand(dir: string = packageDir): string {
  if (existsSync(resolve(dir, '..', '..', 'pnpm-workspace.yaml'))) return 'pnpm --filter @erpcert/load-k6 build';
  return 'bash node_modules/@erpcert/load-k6/scripts/build-k6.sh';
}

/** One line for a run without k6: the build command, and the two other ways to give erpcert a k6. */
export function k6MissingHint(): string {
  return `build it with "${k6BuildCommand()}" (needs Go), put a k6 with the xk6 extensions on the PATH, or set ERPCERT_K6`;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && executable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** Path of the k6 binary to run, or undefined when there is none. */
export function k6Path(): string | undefined {
  const configured = process.env.ERPCERT_K6;
  if (configured !== undefined && configured !== '') return executable(configured) ? configured : undefined;
  if (executable(builtK6)) return builtK6;
  return onPath('k6');
}

/** Whether a k6 binary is there (the CLI falls back to autocannon and says so when it is not). */
export function k6Available(): boolean {
  return k6Path() !== undefined;
}
