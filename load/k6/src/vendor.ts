/** The XML parser bundle the scenarios import (dist/vendor/fast-xml-parser.js), built when it is missing. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { K6Error } from './errors.js';
import { packageDir } from './k6-binary.js';

/** Path of the bundle. */
export const vendorBundle = join(packageDir, 'dist', 'vendor', 'fast-xml-parser.js');

/** Builds the bundle with scripts/build-vendor.mjs (esbuild) unless it is there. */
export async function ensureVendorBundle(): Promise<void> {
  if (existsSync(vendorBundle)) return;
  try {
    await promisify(execFile)(process.execPath, [join(packageDir, 'scripts', 'build-vendor.mjs')], { cwd: packageDir });
  } catch (error) {
    throw new K6Error('vendor', `could not bundle fast-xml-parser for k6: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
