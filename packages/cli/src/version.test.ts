import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { erpcertVersion, toHar } from '@erpcert/client';
import { ATTESTATION_FILE, parseEnvelopeLines, readSigningKey } from '@erpcert/runs';
import { afterAll, describe, expect, it } from 'vitest';
import { CertifyError, certifyFolder } from './attest/certify-folder.js';
import { unsignedFolder, writeKeyPair } from './attest/testing.js';
import { erpcert } from './testing/run-cli.js';

const repo = new URL('../../../', import.meta.url);
const versionOf = (manifest: string): string => JSON.parse(readFileSync(manifest, 'utf8')).version;
/** packages/cli/package.json's version, read by the test itself. */
const cliVersion = versionOf(new URL('packages/cli/package.json', repo).pathname);
const folders: string[] = [];
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

describe("erpcert's version: one, read from the package", () => {
  it('every package of the workspace carries the same version (erpcertVersion reads @erpcert/client)', () => {
    const manifests = ['packages', 'suites', 'load'].flatMap((group) =>
      readdirSync(new URL(group, repo))
        .map((name) => new URL(`${group}/${name}/package.json`, repo).pathname)
        .filter((f) => existsSync(f)),
    );
    expect(manifests.length).toBeGreaterThanOrEqual(7);
    expect(Object.fromEntries(manifests.map((f) => [f.slice(new URL(repo).pathname.length), versionOf(f)]))).toEqual(
      Object.fromEntries(manifests.map((f) => [f.slice(new URL(repo).pathname.length), cliVersion])),
    );
  });

  it('erpcert --version, the HAR creator and erpcertVersion() are the version of packages/cli/package.json', async () => {
    expect(cliVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect((await erpcert(['--version'], process.cwd())).stdout).toBe(`erpcert ${cliVersion}\n`);
    expect(toHar([]).log.creator).toEqual({ name: 'erpcert', version: cliVersion });
    expect(erpcertVersion()).toBe(cliVersion);
  });

  it('the attestation records that version, and refuses a folder another version wrote, naming both', () => {
    const dir = unsignedFolder();
    folders.push(join(dir, '..'));
    const key = readSigningKey(writeKeyPair(join(dir, '..', 'keys')).keyFile, {});
    certifyFolder(dir, key);
    const envelope = parseEnvelopeLines(readFileSync(join(dir, ATTESTATION_FILE), 'utf8'));
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
    expect(statement.predicate.erpcert).toEqual({ version: cliVersion });

    const other = unsignedFolder();
    folders.push(join(other, '..'));
    const results = join(other, 'results.json');
    writeFileSync(
      results,
      JSON.stringify({ ...JSON.parse(readFileSync(results, 'utf8')), tool: { name: 'erpcert', version: '0.0.1' } }),
    );
    expect(() => certifyFolder(other, key)).toThrow(CertifyError);
    expect(() => certifyFolder(other, key)).toThrow(
      `results.json was written by erpcert 0.0.1; certify it with that version (this is ${cliVersion})`,
    );
  });
});
