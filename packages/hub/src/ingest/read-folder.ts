/**
 * The files of a run folder on disk (`erpcert publish DIR`, tests). Symbolic links are refused rather than
 * followed, so nothing outside the folder is read.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IngestError } from './ingest-error.js';
import type { IngestLimits } from './limits.js';
import { type RunFiles, RunFilesBuilder } from './run-files.js';

export function readRunFolder(dir: string, limits: IngestLimits, shown = dir): RunFiles {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(dir);
  } catch {
    throw new IngestError(`${shown} does not exist`);
  }
  if (!stat.isDirectory()) throw new IngestError(`${shown} is not a folder`);
  const files = new RunFilesBuilder(limits);
  const walk = (abs: string, rel: string) => {
    for (const name of readdirSync(abs).sort()) {
      const a = join(abs, name);
      const r = rel ? `${rel}/${name}` : name;
      const s = lstatSync(a);
      if (s.isSymbolicLink()) throw new IngestError(`${shown}/${r} is a symbolic link: a run folder holds files only`);
      if (s.isDirectory()) walk(a, r);
      else if (s.isFile()) {
        files.count(s.size);
        files.addCounted(r, readFileSync(a));
      }
    }
  };
  walk(dir, '');
  // the folder named is the run folder: a parent of one is not taken for it
  return files.build(false);
}
