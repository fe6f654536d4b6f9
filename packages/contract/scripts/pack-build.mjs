// `prepack` of @erpcert/contract: what the published package holds beside package.json, all under dist/
// (git-ignored): the JavaScript and declarations tsc emits from src/ and generated/, the xmllint worker, and a
// copy of the repository's specs/ and docs/, which src/paths.ts finds there when no checkout is around it.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(pkg, '..', '..');
const dist = join(pkg, 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(join(pkg, 'package.json')).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(pkg, 'tsconfig.build.json')], { stdio: 'inherit' });
cpSync(join(pkg, 'src', 'xsd-worker.cjs'), join(dist, 'src', 'xsd-worker.cjs'));
cpSync(join(repo, 'specs'), join(dist, 'specs'), { recursive: true });
cpSync(join(repo, 'docs'), join(dist, 'docs'), { recursive: true });
console.log('@erpcert/contract: dist/ holds the compiled sources, specs/ and docs/');
