import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Walks up from this file to the repository root, the folder that holds `specs/registers.yaml`. */
function findRepoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'specs', 'registers.yaml'))) return dir;
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`erpcert: cannot find specs/registers.yaml above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** The repository root. */
export const repoRoot: string = findRepoRoot();
/** `specs/`: OpenAPI documents, XSD, rules.yaml, registers.yaml. */
export const specsDir: string = join(repoRoot, 'specs');
/** The two source documents the specs are written from. */
export const docsDir: string = join(repoRoot, 'docs');
