/**
 * Writes `specs/xsd/rest-registers.xsd` from `specs/registers.yaml`.
 * Run: `pnpm --filter @erpcert/contract exec tsx src/xsd-generate.ts`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { specsDir } from './paths.js';
import { registers } from './registers.js';
import { renderRestRegistersXsd, restRegistersXsdFile } from './xsd-rest-registers.js';

const target = join(specsDir, 'xsd', restRegistersXsdFile);
writeFileSync(target, renderRestRegistersXsd(registers));
console.log(`wrote ${target} (${registers.length} registers)`);
