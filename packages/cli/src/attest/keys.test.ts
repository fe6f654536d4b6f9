import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyError, PASSPHRASE_ENV, readPublicKey, readSigningKey } from '@erpcert/runs';
import { describe, expect, it } from 'vitest';
import { writeKeyPair } from './testing.js';

const dir = mkdtempSync(join(tmpdir(), 'erpcert-keys-'));

function pemFile(name: string, pem: string): string {
  const file = join(dir, name);
  writeFileSync(file, pem);
  return file;
}

describe('key files', () => {
  it.each(['ecdsa-p256', 'ed25519'] as const)('%s: the private and the public file have one fingerprint', (alg) => {
    const k = writeKeyPair(join(dir, alg), alg);
    const signing = readSigningKey(k.keyFile, {});
    const pub = readPublicKey(k.pubFile);
    expect(signing.algorithm).toBe(alg);
    expect(pub.algorithm).toBe(alg);
    expect(signing.fingerprint).toBe(pub.fingerprint);
    expect(pub.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('an encrypted key needs its passphrase from the environment, and no message shows it', () => {
    const secret = 'correct horse battery';
    const k = writeKeyPair(join(dir, 'enc'), 'ecdsa-p256', secret);
    expect(() => readSigningKey(k.keyFile, {})).toThrow(
      new RegExp(`encrypted: set its passphrase in ${PASSPHRASE_ENV}`),
    );
    let message = '';
    try {
      readSigningKey(k.keyFile, { [PASSPHRASE_ENV]: 'wrong horse' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/cannot decrypt/);
    expect(message).not.toContain('wrong horse');
    expect(readSigningKey(k.keyFile, { [PASSPHRASE_ENV]: secret }).fingerprint).toBe(
      readPublicKey(k.pubFile).fingerprint,
    );
  });

  const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  it.each([
    [
      'an RSA private key',
      () => readSigningKey(pemFile('rsa.key', rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string), {}),
      /rsa key/,
    ],
    [
      'an RSA public key',
      () => readPublicKey(pemFile('rsa.pub', rsa.publicKey.export({ type: 'spki', format: 'pem' }) as string)),
      /rsa key/,
    ],
    [
      'a P-384 key',
      () => readPublicKey(pemFile('p384.pub', p384.publicKey.export({ type: 'spki', format: 'pem' }) as string)),
      /curve secp384r1/,
    ],
    ['a missing file', () => readPublicKey(join(dir, 'nope.pub')), /cannot read the public key .*ENOENT/],
    ['a file that is not PEM', () => readPublicKey(pemFile('junk.pub', 'hello')), /not a PEM file/],
    [
      'a private key given to verify',
      () => readPublicKey(writeKeyPair(join(dir, 'pv')).keyFile),
      /holds a private key/,
    ],
    [
      'a public key given to sign',
      () => readSigningKey(writeKeyPair(join(dir, 'ps')).pubFile, {}),
      /holds no private key/,
    ],
  ])('%s is refused with a KeyError', (_name, read, message) => {
    expect(read).toThrow(KeyError);
    expect(read).toThrow(message);
  });
});
