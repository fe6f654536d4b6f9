import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ATTESTATION_FILE, KeyError, readPublicKey, verifyFolder } from '@erpcert/runs';
import { verifyText } from '../attest/certificate-text.js';
import type { Command } from '../command.js';
import { UsageError } from '../options.js';

/** `erpcert verify DIR --key PUB`: checks a signed report folder and prints its certificate. */
export const verifyCommand: Command = {
  name: 'verify',
  summary: 'check a signed report folder and print its certificate (exit 0 verified, 1 a check failed, 2 bad key)',
  positionals: [{ name: 'DIR', help: 'a report folder signed by erpcert certify or erpcert conform --sign-key' }],
  flags: [
    { name: 'key', type: 'string', arg: 'PUB', help: "the signer's public key (erpcert.pub)" },
    {
      name: 'expect-spec',
      type: 'string',
      arg: 'SHA256',
      help: 'require the run to have used specs with this SHA-256',
    },
    { name: 'expect-version', type: 'string', arg: 'V', help: 'require the run to have used this erpcert version' },
    { name: 'expect-target', type: 'string', arg: 'URL', help: 'require the run to have targeted this URL' },
  ],
  details: [
    `Checks the DSSE signature of ${ATTESTATION_FILE} with the key, that its payload is an in-toto Statement v1 of`,
    "erpcert's certification predicate (v1) and matches its JSON Schema, that results.json, junit.xml, summary.md",
    "and report.html have the attested SHA-256, and that the predicate's target, version, spec, totals and every",
    'rule verdict equal those in results.json. Never signs anything.',
    'Exit codes: 0 every check held; 1 a check failed (each named with its file); 2 the key cannot be read or used,',
    'or DIR is not a folder.',
  ].join('\n'),
  async run(values, positionals, io) {
    if (positionals.length !== 1) throw new UsageError(`takes one report folder, got ${positionals.length}`);
    if (typeof values.key !== 'string') throw new UsageError('--key PUB is required');
    const dir = resolve(io.cwd, positionals[0]!);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`no report folder at ${dir}`);
    let key: ReturnType<typeof readPublicKey>;
    try {
      key = readPublicKey(resolve(io.cwd, values.key));
    } catch (err) {
      if (err instanceof KeyError) throw new UsageError(err.message);
      throw err;
    }
    const outcome = verifyFolder(dir, key, {
      spec: values['expect-spec'] as string | undefined,
      version: values['expect-version'] as string | undefined,
      target: values['expect-target'] as string | undefined,
    });
    io.out.write(verifyText(positionals[0]!, outcome, key));
    return outcome.ok ? 0 : 1;
  },
};
