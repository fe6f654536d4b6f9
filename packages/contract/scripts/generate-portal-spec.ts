/**
 * Writes specs/portal-action.openapi.yaml and specs/portal-action.generic.openapi.yaml from specs/src/portal-*.
 * Usage: `tsx scripts/generate-portal-spec.ts` (write) or `tsx scripts/generate-portal-spec.ts --check`
 * (exit 1 when a committed file differs from what the sources give).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { specsDir } from '../src/paths.js';
import { renderPortalSpecs } from './portal-spec-render.js';

const check = process.argv.includes('--check');
let drift = 0;
for (const [file, text] of Object.entries(renderPortalSpecs(specsDir))) {
  const target = join(specsDir, file);
  if (check) {
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      // a missing file is drift like any other
    }
    if (current !== text) {
      drift++;
      console.error(
        `specs/${file} differs from its sources; run: pnpm --filter @erpcert/contract exec tsx scripts/generate-portal-spec.ts`,
      );
    }
  } else {
    writeFileSync(target, text);
    console.log(`wrote specs/${file}`);
  }
}
process.exitCode = drift > 0 ? 1 : 0;
