import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the specs and the two source documents are, and whether this is a checkout or an installed package. */
export interface ContentRoots {
  /** The folder holding `specs/` and `docs/`: the repository root in a checkout, `<package>/dist` when installed. */
  readonly root: string;
  /** True in a checkout of the repository, false in an installed `@erpcert/contract` package. */
  readonly checkout: boolean;
  /** The `@erpcert/contract` package folder. */
  readonly packageDir: string;
}

/** Walks up from `from` to the folder whose package.json names `@erpcert/contract` (src/ and dist/src/ alike). */
function findPackageDir(from: string): string {
  let dir = from;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === '@erpcert/contract') return dir;
      } catch {
        // not a readable manifest: keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('erpcert: cannot find the @erpcert/contract package folder');
    dir = parent;
  }
}

/**
 * Finds the specs. In a checkout the package is `packages/contract` and the specs are two folders up; the packed
 * package carries a copy under `dist/` (scripts/pack-build.mjs). The checkout is looked at first, so a copy left by
 * an earlier `pnpm pack` never shadows the specs being edited.
 */
export function findContentRoots(packageDir: string): ContentRoots {
  const repo = resolve(packageDir, '..', '..');
  if (existsSync(join(repo, 'specs', 'registers.yaml')) && existsSync(join(repo, 'docs')))
    return { root: repo, checkout: true, packageDir };
  const packed = join(packageDir, 'dist');
  if (existsSync(join(packed, 'specs', 'registers.yaml'))) return { root: packed, checkout: false, packageDir };
  throw new Error(
    'erpcert: cannot find specs/registers.yaml, neither in the repository around @erpcert/contract nor in the package',
  );
}

const roots = findContentRoots(findPackageDir(dirname(fileURLToPath(import.meta.url))));

/** The folder holding `specs/` and `docs/`: the repository root in a checkout, the package's copy when installed. */
export const repoRoot: string = roots.root;
/** True when running from a checkout of the repository; false in an installed package. */
export const inCheckout: boolean = roots.checkout;
/** The `@erpcert/contract` package folder. */
export const contractPackageDir: string = roots.packageDir;
/** `specs/`: OpenAPI documents, XSD, rules.yaml, registers.yaml. */
export const specsDir: string = join(repoRoot, 'specs');
/** The two source documents the specs are written from. */
export const docsDir: string = join(repoRoot, 'docs');

/** `at` as a folder name: ISO 8601 to the second, with `-` for `:` (`2026-11-28T01-19-03Z`). */
export function folderStamp(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
}

/** A benchmark's output folder `reports/bench/<name>/<stamp of at>/` of the checkout, made if new. */
export function benchReportDir(name: string, at: Date = new Date()): string {
  const dir = join(repoRoot, 'reports', 'bench', name, folderStamp(at));
  mkdirSync(dir, { recursive: true });
  return dir;
}
