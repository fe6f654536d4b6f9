import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isContractFile, specsDir } from '@erpcert/contract';
import type { SpecInfo } from '@erpcert/runs';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name)) : d.isFile() ? [join(dir, d.name)] : [],
  );
}

/** `info.version` of an OpenAPI YAML document, read without a YAML parser (the key sits two spaces under `info:`). */
export function infoVersion(yamlText: string): string {
  const info = /^info:\s*$([\s\S]*?)^\S/m.exec(`${yamlText}\n.`);
  const version = info ? /^ {2}version:\s*["']?([^"'\n]+?)["']?\s*$/m.exec(info[1]!) : null;
  return version?.[1] ?? 'unknown';
}

/**
 * The contract a run checked against, for the certification report: the spec versions and a SHA-256 over
 * every file of `dir` that is part of the contract (isContractFile: not the hub's API document; paths sorted, `/`-separated; each path, a NUL, its bytes, a NUL), so that two
 * reports can be compared for the contract they used.
 */
export function specInfo(dir: string = specsDir): SpecInfo {
  const files = filesUnder(dir)
    .map((f) => ({ abs: f, rel: relative(dir, f).split('\\').join('/') }))
    // the ERP's contract only: the hub's API document lives in specs/ too, and must not move a run's spec SHA-256
    .filter((f) => isContractFile(f.rel))
    .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  const hash = createHash('sha256');
  for (const f of files) {
    hash.update(f.rel, 'utf8');
    hash.update('\0');
    hash.update(readFileSync(f.abs));
    hash.update('\0');
  }
  const version = (name: string) => {
    try {
      return infoVersion(readFileSync(join(dir, name), 'utf8'));
    } catch {
      return 'unknown';
    }
  };
  return {
    versions: { rest: version('record-rest.openapi.yaml'), portal: version('portal-action.openapi.yaml') },
    sha256: hash.digest('hex'),
    files: files.length,
  };
}
