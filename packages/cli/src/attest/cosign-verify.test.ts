/**
 * The independent verifier with cosign (`cosign verify-blob-attestation`, shown in the README). cosign is not
 * installed by .ci/run: built from the Go module proxy it took 21 minutes on this 2-core machine (README
 * "Certification", cosign). The test runs wherever a cosign binary is given (ERPCERT_COSIGN) or on PATH.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CERTIFICATION_PREDICATE_TYPE, SUBJECT_FILES } from '@erpcert/runs';
import { describe, expect, it } from 'vitest';
import { signedFolder, writeKeyPair } from './testing.js';

const COSIGN =
  process.env.ERPCERT_COSIGN ??
  (spawnSync('sh', ['-c', 'command -v cosign'], { encoding: 'utf8' }).stdout.trim() || undefined);

function cosignVerify(dir: string, pub: string, blob: string) {
  const r = spawnSync(
    COSIGN!,
    [
      'verify-blob-attestation',
      '--key',
      pub,
      '--signature',
      join(dir, 'attestation.intoto.jsonl'),
      '--type',
      CERTIFICATION_PREDICATE_TYPE,
      '--insecure-ignore-tlog',
      join(dir, blob),
    ],
    // cosign fetches Sigstore's TUF root even with --insecure-ignore-tlog: a dead loopback proxy keeps it on this
    // machine (it warns and goes on)
    {
      encoding: 'utf8',
      env: { ...process.env, HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '' },
    },
  );
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

// skipped where no cosign binary is installed (CI does not build it: 21 minutes of a 2-core machine)
describe.skipIf(COSIGN === undefined)('cosign verify-blob-attestation accepts the envelope', () => {
  it.each(SUBJECT_FILES)('ECDSA P-256: %s is an attested subject', (name) => {
    const f = signedFolder();
    const r = cosignVerify(f.dir, f.pubFile, name);
    expect(r.out).toContain('Verified OK');
    expect(r.code).toBe(0);
  });

  it('Ed25519: the envelope verifies', () => {
    const f = signedFolder('ed25519');
    const r = cosignVerify(f.dir, f.pubFile, 'results.json');
    expect(r.out).toContain('Verified OK');
    expect(r.code).toBe(0);
  });

  it('an edited results.json is no attested subject', () => {
    const f = signedFolder();
    const file = join(f.dir, 'results.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"FAIL"', '"PASS"'));
    const r = cosignVerify(f.dir, f.pubFile, 'results.json');
    expect(r.out).not.toContain('Verified OK');
    expect(r.code).not.toBe(0);
  });

  it('another key does not verify the envelope', () => {
    const f = signedFolder();
    const other = writeKeyPair(join(f.root, 'other'));
    const r = cosignVerify(f.dir, other.pubFile, 'results.json');
    expect(r.out).not.toContain('Verified OK');
    expect(r.code).not.toBe(0);
  });
});
