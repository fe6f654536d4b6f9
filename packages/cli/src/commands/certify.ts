import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ATTESTATION_FILE, KeyError, PASSPHRASE_ENV, readSigningKey, type SigningKey } from '@erpcert/runs';
import { CertifyError, certifyFolder } from '../attest/certify-folder.js';
import type { Command, CommandIO } from '../command.js';
import { type FlagDef, type OptionValues, UsageError } from '../options.js';

/** `--sign-key KEY`, shared by `conform` and `certify`. */
export const signKeyFlag: FlagDef = {
  name: 'sign-key',
  type: 'string',
  arg: 'KEY',
  help: `sign the report folder with this private key (erpcert keygen; passphrase from ${PASSPHRASE_ENV})`,
};

/** A signing key read once from `--sign-key`, and what signs a report folder with it. */
export interface ReportSigner {
  /** Signs `dir`; resolves to 0, or 2 with the reason printed (a folder that cannot be signed). */
  sign(dir: string): number;
}

/**
 * Reads `values['sign-key']` once, before a run, so that a key that cannot be used stops `conform` before it touches
 * the target. Returns undefined without `--sign-key`, and `'refused'` (the reason printed) for an unusable key.
 */
export function openReportSigner(
  values: OptionValues,
  io: CommandIO,
  command: string,
): ReportSigner | undefined | 'refused' {
  const say = (line: string) => io.err.write(`erpcert ${command}: ${line}\n`);
  if (values['sign-key'] === undefined) return undefined;
  let key: SigningKey;
  try {
    key = readSigningKey(resolve(io.cwd, String(values['sign-key'])), io.env);
  } catch (err) {
    if (!(err instanceof KeyError)) throw err;
    say(`--sign-key: ${err.message}. Nothing was run or signed.`);
    return 'refused';
  }
  const loadReport = typeof values['load-report'] === 'string' ? resolve(io.cwd, values['load-report']) : undefined;
  return {
    sign(dir) {
      try {
        const done = certifyFolder(dir, key, { loadReport });
        say(`signed ${done.subjects.map((s) => s.name).join(', ')} with key ${done.fingerprint}: ${done.file}`);
        return 0;
      } catch (err) {
        if (!(err instanceof CertifyError)) throw err;
        say(`${err.message}. Not signed.`);
        return 2;
      }
    },
  };
}

/** `erpcert certify DIR --sign-key KEY`: signs a conformance report folder written earlier. */
export const certify: Command = {
  name: 'certify',
  summary: `sign a conformance report folder: writes ${ATTESTATION_FILE} (exit 0 signed, 2 could not sign)`,
  positionals: [{ name: 'DIR', help: 'a conformance report folder (erpcert conform --out DIR)' }],
  flags: [
    signKeyFlag,
    {
      name: 'load-report',
      type: 'string',
      arg: 'DIR',
      help: 'a load run folder (erpcert load) whose figures and verdicts the certificate adds',
    },
  ],
  details: [
    'The folder must come from this erpcert version and these specs: certify records the key in results.json and',
    're-renders junit.xml, summary.md and report.html from it, so that their header names the signing key, then',
    'signs the four files (an in-toto Statement in a DSSE envelope). A folder with FAILs is signed as it is.',
    'Check it with: erpcert verify DIR --key erpcert.pub',
  ].join('\n'),
  async run(values, positionals, io) {
    if (positionals.length !== 1) throw new UsageError(`takes one report folder, got ${positionals.length}`);
    if (typeof values['sign-key'] !== 'string') throw new UsageError('--sign-key KEY is required');
    const dir = resolve(io.cwd, positionals[0]!);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`no report folder at ${dir}`);
    const signer = openReportSigner(values, io, 'certify');
    return signer === undefined || signer === 'refused' ? 2 : signer.sign(dir);
  },
};
