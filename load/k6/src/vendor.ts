/**
 * The bundles the scenarios import (dist/vendor/fast-xml-parser.js, and dist/vendor/erpcert-text.js, which the
 * JUnit and Markdown writers of lib/ import on the Node side too), built when one is missing.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { K6Error } from './errors.js';
import { packageDir } from './k6-binary.js';

/** Path of the XML parser bundle. */
export const vendorBundle = join(packageDir, 'dist', 'vendor', 'fast-xml-parser.js');
/** Path of the text helpers' bundle (@erpcert/contract/text). */
export const textBundle = join(packageDir, 'dist', 'vendor', 'erpcert-text.js');

/** Builds the bundles with scripts/build-vendor.mjs (esbuild) unless they are there. */
export async function ensureVendorBundle(): Promise<void> {
  if (existsSync(vendorBundle) && existsSync(textBundle)) return;
  try {
    await promisify(execFile)(process.execPath, [join(packageDir, 'scripts', 'build-vendor.mjs')], { cwd: packageDir });
  } catch (error) {
    throw new K6Error(
      'vendor',
      `could not bundle fast-xml-parser and @erpcert/contract/text for k6: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}
