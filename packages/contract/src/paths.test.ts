import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findContentRoots, folderStamp, inCheckout, repoRoot, specsDir } from './paths.js';

const work = mkdtempSync(join(tmpdir(), 'erpcert-paths-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A folder tree: each path ending in `/` is a folder, anything else an empty file. */
function tree(root: string, paths: string[]): string {
  for (const p of paths) {
    const full = join(root, p);
    if (p.endsWith('/')) mkdirSync(full, { recursive: true });
    else {
      mkdirSync(join(full, '..'), { recursive: true });
      writeFileSync(full, '');
    }
  }
  return root;
}

describe('findContentRoots', () => {
  it('in a checkout: the repository two folders above the package, even when a packed copy is there too', () => {
    const repo = tree(join(work, 'checkout'), [
      'specs/registers.yaml',
      'docs/',
      'packages/contract/dist/specs/registers.yaml',
    ]);
    const pkg = join(repo, 'packages', 'contract');
    expect(findContentRoots(pkg)).toEqual({ root: repo, checkout: true, packageDir: pkg });
  });

  it('installed: the copy the pack put under dist/', () => {
    const pkg = tree(join(work, 'project', 'node_modules', '@erpcert', 'contract'), [
      'dist/specs/registers.yaml',
      'dist/docs/',
    ]);
    expect(findContentRoots(pkg)).toEqual({ root: join(pkg, 'dist'), checkout: false, packageDir: pkg });
  });

  it('neither: an error that says what is missing', () => {
    const pkg = tree(join(work, 'bare', 'a', 'b'), ['package.json']);
    expect(() => findContentRoots(pkg)).toThrow(/cannot find specs\/registers\.yaml/);
  });

  it('this checkout is found as one', () => {
    expect(inCheckout).toBe(true);
    expect(specsDir).toBe(join(repoRoot, 'specs'));
  });
});

describe('folderStamp', () => {
  it.each([
    ['2026-11-28T01:19:03.123Z', '2026-11-28T01-19-03Z'],
    ['2026-01-02T00:00:00.000Z', '2026-01-02T00-00-00Z'],
  ])('%s is the folder name %s: no colon, no milliseconds', (iso, want) => {
    expect(folderStamp(new Date(iso))).toBe(want);
  });
});
