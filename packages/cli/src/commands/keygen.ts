import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateKeyPair, KEY_ALGORITHMS, type KeyAlgorithm, PASSPHRASE_ENV } from '@erpcert/runs';
import type { Command } from '../command.js';
import { UsageError } from '../options.js';

/** The file names keygen writes. */
export const KEY_FILE = 'erpcert.key';
export const PUBLIC_KEY_FILE = 'erpcert.pub';

/** `erpcert keygen --out DIR`: a signing key pair for certificates (README "Certification"). */
export const keygen: Command = {
  name: 'keygen',
  summary: 'write a key pair that signs certificates (erpcert.key, erpcert.pub) and print its fingerprint',
  flags: [
    { name: 'out', type: 'string', arg: 'DIR', help: 'folder for erpcert.key and erpcert.pub (created if needed)' },
    {
      name: 'type',
      type: 'string',
      choices: KEY_ALGORITHMS,
      default: 'ecdsa-p256',
      help: 'key type: ECDSA P-256 (SHA-256) or Ed25519',
    },
  ],
  details: [
    `With ${PASSPHRASE_ENV} set, the private key is encrypted with it (PKCS#8, AES-256-CBC); signing then reads the`,
    'passphrase from the same variable. Never overwrites a key. The private key stays with the signer (mode 0600);',
    'erpcert.pub is what a customer verifies with. The fingerprint is the SHA-256 of the public key (DER):',
    `openssl pkey -pubin -in DIR/${PUBLIC_KEY_FILE} -outform DER | sha256sum prints the same hex.`,
  ].join('\n'),
  async run(values, positionals, io) {
    if (positionals.length > 0) throw new UsageError(`takes no positional arguments, got ${positionals.join(' ')}`);
    if (typeof values.out !== 'string' || values.out === '') throw new UsageError('--out DIR is required');
    const dir = resolve(io.cwd, values.out);
    const keyFile = join(dir, KEY_FILE);
    const pubFile = join(dir, PUBLIC_KEY_FILE);
    for (const f of [keyFile, pubFile])
      if (existsSync(f)) throw new UsageError(`${f} exists; keygen never overwrites a key (choose another --out)`);
    const passphrase = io.env[PASSPHRASE_ENV];
    const pair = generateKeyPair(values.type as KeyAlgorithm, passphrase === '' ? undefined : passphrase);
    mkdirSync(dir, { recursive: true });
    writeFileSync(keyFile, pair.privatePem, { mode: 0o600, flag: 'wx' });
    writeFileSync(pubFile, pair.publicPem, { mode: 0o644, flag: 'wx' });
    io.err.write(
      `erpcert keygen: ${values.type} key pair${passphrase ? `, private key encrypted with ${PASSPHRASE_ENV}` : ''}: ` +
        `sign with ${keyFile}, give ${pubFile} to whoever verifies\n`,
    );
    io.out.write(`${pair.info.fingerprint}\n`);
    return 0;
  },
};
