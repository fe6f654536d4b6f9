import { readFileSync } from 'node:fs';

let version: string | undefined;

/**
 * erpcert's version: the `version` of this package's package.json, read once at run time. The file sits one folder
 * above this module both in the workspace (`src/version.ts`) and in the packed package (`dist/version.js`, under
 * node_modules/@erpcert/client). Every package of erpcert carries the same version (packages/cli/src/version.test.ts
 * holds them equal), so this is the version of the `erpcert` command too: `erpcert --version`, the HAR creator,
 * results.json and the attestation all read it here.
 */
export function erpcertVersion(): string {
  if (version === undefined) {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    if (typeof manifest.version !== 'string' || manifest.version === '')
      throw new Error('@erpcert/client: its package.json has no version');
    version = manifest.version;
  }
  return version;
}
