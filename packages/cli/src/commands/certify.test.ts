import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { PASSPHRASE_ENV } from '@erpcert/runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsignedFolder } from '../attest/testing.js';
import type { CommandIO } from '../command.js';
import { parseArgs } from '../options.js';
import { erpcert } from '../testing/run-cli.js';
import { conform, runConform } from './conform.js';

const root = mkdtempSync(join(tmpdir(), 'erpcert-certify-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('erpcert keygen', () => {
  it.each(['ecdsa-p256', 'ed25519'])(
    '--type %s writes erpcert.key (0600) and erpcert.pub and prints the fingerprint',
    async (type) => {
      const r = await erpcert(['keygen', '--out', `k-${type}`, '--type', type], root);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^sha256:[0-9a-f]{64}\n$/);
      expect(statSync(join(root, `k-${type}`, 'erpcert.key')).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(root, `k-${type}`, 'erpcert.pub'), 'utf8')).toContain('-----BEGIN PUBLIC KEY-----');
    },
  );

  it('encrypts the private key with the passphrase of the environment', async () => {
    const r = await erpcert(['keygen', '--out', 'k-enc'], root, { [PASSPHRASE_ENV]: 'pass phrase' });
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, 'k-enc', 'erpcert.key'), 'utf8')).toContain('-----BEGIN ENCRYPTED PRIVATE KEY-----');
    expect(r.stderr + r.stdout).not.toContain('pass phrase');
  });

  it.each([
    ['an existing key', ['keygen', '--out', 'k-ecdsa-p256'], /exists; keygen never overwrites/],
    ['no --out', ['keygen'], /--out DIR is required/],
    ['an unknown type', ['keygen', '--out', 'k-x', '--type', 'rsa'], /must be one of ecdsa-p256, ed25519/],
  ])('refuses %s with exit 2', async (_name, args, message) => {
    const before = existsSync(join(root, 'k-ecdsa-p256', 'erpcert.key'))
      ? readFileSync(join(root, 'k-ecdsa-p256', 'erpcert.key'), 'utf8')
      : '';
    const r = await erpcert(args, root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    if (before) expect(readFileSync(join(root, 'k-ecdsa-p256', 'erpcert.key'), 'utf8')).toBe(before);
  });
});

describe('erpcert certify and verify', () => {
  let dir: string;
  beforeAll(async () => {
    await erpcert(['keygen', '--out', 'ck'], root);
    await erpcert(['keygen', '--out', 'ck2', '--type', 'ed25519'], root);
    dir = unsignedFolder(mkdtempSync(join(root, 'c-')));
  });

  it('certify signs a folder; verify prints the certificate and exits 0', async () => {
    const c = await erpcert(['certify', dir, '--sign-key', 'ck/erpcert.key'], root);
    expect(c.code).toBe(0);
    expect(c.stderr).toMatch(/signed junit\.xml, results\.json, summary\.md, report\.html with key sha256:/);
    const v = await erpcert(['verify', dir, '--key', 'ck/erpcert.pub'], root);
    expect(v.code).toBe(0);
    expect(v.stdout).toContain('erpcert certificate: VERIFIED');
    expect(v.stdout).toMatch(/target {7}https:\/\/erp\.example\.com/);
    expect(v.stdout).toMatch(/outcome {6}fail: \d+ rules, PASS \d+, FAIL 1, ERROR 1/);
    expect(v.stdout).toMatch(/coverage {5}\d+ of \d+ documented observable rules judged/);
    expect(v.stdout).toMatch(/signed by {4}sha256:[0-9a-f]{64} \(ECDSA P-256\)/);
  });

  it('verify with another key exits 1 naming the attestation and the signature check', async () => {
    const v = await erpcert(['verify', dir, '--key', 'ck2/erpcert.pub'], root);
    expect(v.code).toBe(1);
    expect(v.stdout).toContain('NOT VERIFIED');
    expect(v.stdout).toMatch(/FAIL attestation\.intoto\.jsonl: signature: no signature verifies with key/);
  });

  it('one changed character of summary.md makes verify exit 1 and name the file', async () => {
    const d = unsignedFolder(mkdtempSync(join(root, 'e-')));
    expect((await erpcert(['certify', d, '--sign-key', 'ck/erpcert.key'], root)).code).toBe(0);
    const file = join(d, 'summary.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('FAIL', 'PASS'));
    const v = await erpcert(['verify', d, '--key', 'ck/erpcert.pub'], root);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/FAIL summary\.md: sha256: /);
  });

  it.each([
    ['an unreadable key', ['verify', 'DIR', '--key', 'nope.pub'], /cannot read the public key .*nope\.pub: ENOENT/],
    ['an RSA public key', ['verify', 'DIR', '--key', 'rsa.pub'], /rsa key; erpcert signs with ECDSA P-256 or Ed25519/],
    ['a key of the wrong type (the private key)', ['verify', 'DIR', '--key', 'ck/erpcert.key'], /holds a private key/],
    ['no --key', ['verify', 'DIR'], /--key PUB is required/],
    ['a folder that does not exist', ['verify', 'nowhere', '--key', 'ck/erpcert.pub'], /no report folder at/],
    ['an unreadable signing key', ['certify', 'DIR', '--sign-key', 'nope.key'], /cannot read the signing key/],
    ['a public key to sign with', ['certify', 'DIR', '--sign-key', 'ck/erpcert.pub'], /holds no private key/],
    [
      'an encrypted key without passphrase',
      ['certify', 'DIR', '--sign-key', 'ck-enc/erpcert.key'],
      /set its passphrase/,
    ],
  ])('%s exits 2', async (_name, args, message) => {
    if (!existsSync(join(root, 'rsa.pub')))
      writeFileSync(
        join(root, 'rsa.pub'),
        generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }),
      );
    if (!existsSync(join(root, 'ck-enc')))
      await erpcert(['keygen', '--out', 'ck-enc'], root, { [PASSPHRASE_ENV]: 'secret words' });
    const before = readFileSync(join(dir, 'attestation.intoto.jsonl'), 'utf8');
    const r = await erpcert(
      args.map((a) => (a === 'DIR' ? dir : a)),
      root,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(readFileSync(join(dir, 'attestation.intoto.jsonl'), 'utf8')).toBe(before);
  });
});

describe('erpcert conform --sign-key', () => {
  function io(): { io: CommandIO; stderr: () => string } {
    const out = new PassThrough();
    const err = new PassThrough();
    let e = '';
    out.resume();
    err.on('data', (d) => {
      e += d;
    });
    return { io: { out, err, env: {}, cwd: root }, stderr: () => e };
  }

  it('refuses an unusable key before anything runs: exit 2, no report folder', async () => {
    const out = join(root, 'never');
    const c = io();
    const { values } = parseArgs('conform', conform.flags, ['--sign-key', 'nope.key', '--out', out], {}, root);
    expect(await runConform(values, c.io, { include: [], signals: false })).toBe(2);
    expect(c.stderr()).toMatch(/--sign-key: cannot read the signing key .*Nothing was run or signed/);
    expect(existsSync(out)).toBe(false);
  });

  it('signs a run with a FAIL; the folder verifies and its header names the key', async () => {
    await erpcert(['keygen', '--out', 'rk'], root);
    const out = join(root, 'run');
    const c = io();
    const { values } = parseArgs('conform', conform.flags, ['--sign-key', 'rk/erpcert.key', '--out', out], {}, root);
    const files = ['passing', 'failing'].map((n) => `src/runner/fixtures/${n}.prop.ts`);
    const code = await runConform(values, c.io, { include: files, signals: false });
    expect(code).toBe(1);
    expect(c.stderr()).toMatch(/erpcert conform: signed .* with key sha256:[0-9a-f]{64}/);
    const v = await erpcert(['verify', out, '--key', 'rk/erpcert.pub'], root);
    expect(v.stdout).toContain('VERIFIED');
    expect(v.code).toBe(0);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(/Signature: signed with key sha256:[0-9a-f]{64}/);
  }, 120_000);
});
