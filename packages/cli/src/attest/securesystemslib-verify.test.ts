/**
 * The independent verifier with securesystemslib (packages/cli/verifiers/securesystemslib_verify.py, shown in the
 * README), in a Python venv the test makes itself under node_modules/.cache and reuses while the pin holds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@erpcert/contract';
import { readSigningKey } from '@erpcert/runs';
import { beforeAll, describe, expect, it } from 'vitest';
import { certifyFolder } from './certify-folder.js';
import { signedFolder, writeKeyPair } from './testing.js';

/** The pinned securesystemslib (with pyca/cryptography, which its keys need). */
const SECURESYSTEMSLIB = 'securesystemslib[crypto]==1.6.0';
const VENV = join(repoRoot, 'node_modules', '.cache', 'erpcert', 'ssl-venv');
const PYTHON = join(VENV, 'bin', 'python');
const STAMP = join(VENV, 'erpcert-pin.txt');
const SCRIPT = new URL('../../verifiers/securesystemslib_verify.py', import.meta.url).pathname;

/** Makes the venv (python3 -m venv, pip install of the pin) unless it holds the pin already; the error, if any. */
function ensureVenv(): string | null {
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === SECURESYSTEMSLIB && existsSync(PYTHON)) return null;
  rmSync(VENV, { recursive: true, force: true });
  mkdirSync(join(VENV, '..'), { recursive: true });
  const steps: [string, string[]][] = [
    ['python3', ['-m', 'venv', VENV]],
    [PYTHON, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', SECURESYSTEMSLIB]],
  ];
  for (const [cmd, args] of steps) {
    const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 300_000 });
    if (r.status !== 0) return `${cmd} ${args.join(' ')} failed: ${r.error?.message ?? ''}${r.stderr}`.slice(0, 2000);
  }
  writeFileSync(STAMP, SECURESYSTEMSLIB);
  return null;
}

function sslVerify(dir: string, pub: string) {
  const r = spawnSync(PYTHON, [SCRIPT, dir, pub], { encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('securesystemslib verifies the DSSE envelope and reads an in-toto Statement', () => {
  let venvError: string | null = 'not made';
  beforeAll(() => {
    venvError = ensureVenv();
  }, 600_000);

  // a venv that cannot be made fails the test, here and in CI (.ci/run runs it): no skip
  it('the venv with the pinned securesystemslib is there', () => {
    expect(venvError).toBeNull();
  });

  it.each(['ecdsa-p256', 'ed25519'] as const)('%s: the envelope verifies and every subject holds', (alg) => {
    const f = signedFolder(alg);
    const r = sslVerify(f.dir, f.pubFile);
    expect(r.out).toContain(`signed by ${f.fingerprint.slice('sha256:'.length)}`);
    for (const name of ['results.json', 'junit.xml', 'summary.md', 'report.html'])
      expect(r.out).toContain(`${name}: OK`);
    expect(r.code).toBe(0);
  });

  it('a folder signed again with another key fails', () => {
    const f = signedFolder();
    const other = writeKeyPair(join(f.root, 'other'));
    certifyFolder(f.dir, readSigningKey(other.keyFile, {}));
    const r = sslVerify(f.dir, f.pubFile);
    expect(r.out).toMatch(/signature: Accepted signatures do not match threshold/);
    expect(r.code).toBe(1);
  });

  it('an edited subject is reported as changed', () => {
    const f = signedFolder();
    const file = join(f.dir, 'results.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"FAIL"', '"PASS"'));
    const r = sslVerify(f.dir, f.pubFile);
    expect(r.out).toMatch(/results\.json: CHANGED [0-9a-f]{64}/);
    expect(r.code).toBe(1);
  });
});
