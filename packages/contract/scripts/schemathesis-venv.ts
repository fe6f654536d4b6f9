/**
 * A Python virtual environment holding one pinned Schemathesis, made from PyPI on first use under
 * `tools/cache/` (git-ignored; never committed). Used by bench-schemathesis.ts only: no test needs Python.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../src/paths.js';

/** The Schemathesis release the specs were last checked with (issue 13 used 4.32.5, the newest on PyPI then). */
export const SCHEMATHESIS_VERSION = '4.32.5';

/** Why the environment could not be made: no Python, or pip failed. */
export class SchemathesisUnavailableError extends Error {
  override readonly name = 'SchemathesisUnavailableError';
}

/** `tools/cache/schemathesis-<version>/`, the environment's folder. */
export const venvDir: string = join(repoRoot, 'tools', 'cache', `schemathesis-${SCHEMATHESIS_VERSION}`);

/** The environment's `schemathesis` executable. */
export const schemathesisBin: string = join(venvDir, 'bin', 'schemathesis');

function installedVersion(): string | undefined {
  if (!existsSync(schemathesisBin)) return undefined;
  try {
    return /version (\S+)/.exec(execFileSync(schemathesisBin, ['--version'], { encoding: 'utf8' }))?.[1];
  } catch {
    return undefined;
  }
}

/**
 * The path of a working `schemathesis` of {@link SCHEMATHESIS_VERSION}: the existing environment, or a new one
 * (`python3 -m venv`, then `pip install schemathesis==<version>`). Throws SchemathesisUnavailableError.
 */
export function ensureSchemathesis(log: (line: string) => void): string {
  if (installedVersion() === SCHEMATHESIS_VERSION) return schemathesisBin;
  const python = process.env.ERPCERT_PYTHON ?? 'python3';
  log(`schemathesis: making ${venvDir.slice(repoRoot.length + 1)} (python3 -m venv, pip install from PyPI)`);
  try {
    execFileSync(python, ['-m', 'venv', '--clear', venvDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    execFileSync(
      join(venvDir, 'bin', 'pip'),
      ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  } catch (err) {
    const stderr = String((err as { stderr?: Buffer }).stderr ?? '').trim();
    throw new SchemathesisUnavailableError(
      `cannot make the Schemathesis environment with ${python} (set ERPCERT_PYTHON to another python3.9+): ` +
        `${stderr.split('\n').slice(-2).join(' ') || (err as Error).message}`,
    );
  }
  const got = installedVersion();
  if (got !== SCHEMATHESIS_VERSION)
    throw new SchemathesisUnavailableError(
      `pip installed schemathesis ${got ?? '(none)'}, not ${SCHEMATHESIS_VERSION}`,
    );
  return schemathesisBin;
}
