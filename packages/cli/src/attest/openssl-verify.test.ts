/** The independent verifier with openssl (packages/cli/verifiers/openssl-verify.sh, shown in the README). */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSigningKey } from '@erpcert/runs';
import { describe, expect, it } from 'vitest';
import { certifyFolder } from './certify-folder.js';
import { signedFolder, writeKeyPair } from './testing.js';

const SCRIPT = new URL('../../verifiers/openssl-verify.sh', import.meta.url).pathname;

function opensslVerify(dir: string, pub: string) {
  const r = spawnSync('bash', [SCRIPT, dir, pub], { encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('openssl verifies the DSSE signature over the PAE', () => {
  it.each([
    ['ecdsa-p256', /Verified OK/],
    ['ed25519', /Signature Verified Successfully/],
  ] as const)('%s: signature and every subject digest hold', (alg, said) => {
    const f = signedFolder(alg);
    const r = opensslVerify(f.dir, f.pubFile);
    expect(r.out).toMatch(said);
    for (const name of ['results.json', 'junit.xml', 'summary.md', 'report.html'])
      expect(r.out).toContain(`${name}: OK`);
    expect(r.code).toBe(0);
  });

  it.each(['ecdsa-p256', 'ed25519'] as const)('%s: a folder signed again with another key fails', (alg) => {
    const f = signedFolder(alg);
    const other = writeKeyPair(join(f.root, 'other'), alg);
    certifyFolder(f.dir, readSigningKey(other.keyFile, {}));
    const r = opensslVerify(f.dir, f.pubFile);
    expect(r.out).toMatch(/Verification failure|Signature Verification Failure/);
    expect(r.code).not.toBe(0);
  });

  it('an edited subject fails its digest', () => {
    const f = signedFolder();
    const file = join(f.dir, 'junit.xml');
    writeFileSync(file, `${readFileSync(file, 'utf8')} `);
    const r = opensslVerify(f.dir, f.pubFile);
    expect(r.out).toContain('junit.xml: FAILED');
    expect(r.code).not.toBe(0);
  });

  it("openssl's SHA-256 of the public key's DER is the fingerprint keygen prints", () => {
    const f = signedFolder();
    const der = execFileSync('openssl', ['pkey', '-pubin', '-in', f.pubFile, '-outform', 'DER']);
    const digest = execFileSync('sha256sum', { input: der, encoding: 'utf8' }).split(' ')[0];
    expect(`sha256:${digest}`).toBe(f.fingerprint);
  });
});
