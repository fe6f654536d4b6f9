/**
 * Signing keys of erpcert certificates: PEM files, ECDSA P-256 or Ed25519, through node:crypto. The private key is
 * PKCS#8 (optionally encrypted, passphrase from {@link PASSPHRASE_ENV}), the public key SubjectPublicKeyInfo.
 * A key's fingerprint is the SHA-256 of its public key's DER SubjectPublicKeyInfo, the same bytes
 * `openssl pkey -pubin -in KEY.pub -outform DER | sha256sum` hashes; the DSSE `keyid` is its hex.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The environment variable that holds the passphrase of an encrypted private key. */
export const PASSPHRASE_ENV = 'ERPCERT_SIGN_KEY_PASSPHRASE';

/** The two key types erpcert signs with. */
export type KeyAlgorithm = 'ecdsa-p256' | 'ed25519';
export const KEY_ALGORITHMS: readonly KeyAlgorithm[] = ['ecdsa-p256', 'ed25519'];

/** A key file that cannot be used: missing, unreadable, not PEM, encrypted without passphrase, or of another type. */
export class KeyError extends Error {
  override readonly name = 'KeyError';
}

/** The public half of a signing key, with what identifies it. */
export interface PublicKeyInfo {
  readonly key: KeyObject;
  readonly algorithm: KeyAlgorithm;
  /** Hex SHA-256 of the DER SubjectPublicKeyInfo: the DSSE keyid. */
  readonly keyid: string;
  /** `sha256:<keyid>`, as keygen, the report header and verify print it. */
  readonly fingerprint: string;
}

/** A private key loaded once for signing, with its public half. */
export interface SigningKey extends PublicKeyInfo {
  readonly privateKey: KeyObject;
}

/** The algorithm of a key, or a {@link KeyError} naming what it is instead. */
export function keyAlgorithm(key: KeyObject, file: string): KeyAlgorithm {
  if (key.asymmetricKeyType === 'ed25519') return 'ed25519';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ecdsa-p256';
    throw new KeyError(`${file} is an ECDSA key on curve ${curve ?? 'unknown'}; erpcert signs with P-256 or Ed25519`);
  }
  throw new KeyError(
    `${file} is a ${key.asymmetricKeyType ?? 'symmetric'} key; erpcert signs with ECDSA P-256 or Ed25519`,
  );
}

/** Identifies a public key: algorithm, keyid and fingerprint. */
export function publicKeyInfo(key: KeyObject, file: string): PublicKeyInfo {
  const algorithm = keyAlgorithm(key, file);
  const keyid = createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
  return { key, algorithm, keyid, fingerprint: `sha256:${keyid}` };
}

function readPem(file: string, what: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new KeyError(`cannot read the ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  if (!text.includes('-----BEGIN ')) throw new KeyError(`${file} is not a PEM file`);
  return text;
}

/** Reads a public key PEM (`erpcert.pub`). A private key file is refused: a customer verifies with the public half. */
export function readPublicKey(file: string): PublicKeyInfo {
  const pem = readPem(file, 'public key');
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem))
    throw new KeyError(`${file} holds a private key; verify with the public key (erpcert.pub)`);
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (err) {
    throw new KeyError(`${file} is not a public key PEM: ${(err as Error).message}`);
  }
  return publicKeyInfo(key, file);
}

/**
 * Reads a private key PEM once. An encrypted key (`ENCRYPTED PRIVATE KEY`) takes its passphrase from
 * {@link PASSPHRASE_ENV} in `env`; the passphrase and the key's bytes are never put in an error message.
 */
export function readSigningKey(file: string, env: NodeJS.ProcessEnv): SigningKey {
  const pem = readPem(file, 'signing key');
  const encrypted = pem.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----');
  const passphrase = env[PASSPHRASE_ENV];
  if (encrypted && (passphrase === undefined || passphrase === ''))
    throw new KeyError(`${file} is encrypted: set its passphrase in ${PASSPHRASE_ENV}`);
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem))
    throw new KeyError(`${file} holds no private key (a public key signs nothing)`);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(encrypted ? { key: pem, format: 'pem', passphrase } : pem);
  } catch {
    throw new KeyError(
      encrypted
        ? `cannot decrypt ${file} with the passphrase in ${PASSPHRASE_ENV}`
        : `${file} is not a private key PEM that node:crypto can read`,
    );
  }
  return { ...publicKeyInfo(createPublicKey(privateKey), file), privateKey };
}

/** A new key pair as PEM text; the private key is encrypted (AES-256-CBC, PKCS#8) when a passphrase is given. */
export function generateKeyPair(
  algorithm: KeyAlgorithm,
  passphrase?: string,
): { privatePem: string; publicPem: string; info: PublicKeyInfo } {
  const pair =
    algorithm === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privatePem = pair.privateKey.export(
    passphrase ? { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase } : { type: 'pkcs8', format: 'pem' },
  ) as string;
  const publicPem = pair.publicKey.export({ type: 'spki', format: 'pem' }) as string;
  return { privatePem, publicPem, info: publicKeyInfo(pair.publicKey, 'the new key') };
}
