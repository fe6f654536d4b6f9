// Packs the nine packages an installed `erpcert` needs (`pnpm pack`, which runs their `prepack`) into
// packages/cli/.packs/, once: a stamp holds the SHA-256 of every file the tarballs are made from, and a second run
// with the same sources reuses the tarballs. packed-install.e2e.test.ts installs them; `.ci/run` and the root's
// `pnpm test:packed` build them through this script before that test starts.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
/** Every package an installed `erpcert` needs; the CLI depends on the other eight. */
export const PACKAGES: readonly string[] = [
  'packages/contract',
  'packages/client',
  'packages/refserver',
  'suites/conformance',
  'load/autocannon',
  'load/k6',
  'packages/runs',
  'packages/hub',
  'packages/cli',
];
/** What the tarballs are made of beside the packages: contract's prepack copies specs/ and docs/. */
const SHARED = ['specs', 'docs', 'pnpm-workspace.yaml', 'package.json'];
export const packsDir = join(repo, 'packages', 'cli', '.packs');
const stampFile = join(packsDir, 'sources.sha256');

/** The SHA-256 over the path and content of every file of the tarballs' sources that git does not ignore. */
export function sourcesDigest(): string {
  const listed = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...PACKAGES, ...SHARED],
    {
      cwd: repo,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const files = [...new Set(listed.split('\0').filter(Boolean))].sort();
  const hash = createHash('sha256');
  for (const f of files)
    if (existsSync(join(repo, f)))
      hash
        .update(f)
        .update('\0')
        .update(readFileSync(join(repo, f)))
        .update('\0');
  return hash.digest('hex');
}

/** pnpm as this process was started with it (`npm_execpath`), else from the PATH, else through corepack. */
function pnpmCommand(): [string, string[]] {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/.test(execPath) && existsSync(execPath)) return [process.execPath, [execPath]];
  const onPath = (process.env.PATH ?? '').split(':').some((d) => d !== '' && existsSync(join(d, 'pnpm')));
  return onPath ? ['pnpm', []] : ['corepack', ['pnpm']];
}

/** The environment of `pnpm pack`: without the `npm_*` variables of a pnpm that started this process. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|ERPCERT_)/i.test(k)) env[k] = v;
  return env;
}

/**
 * The tarballs of the current sources: reused when the stamp matches, else packed again (the folder emptied
 * first). Returns their paths and whether they were packed now.
 */
export function ensurePacks(): { tarballs: string[]; packed: boolean } {
  const digest = sourcesDigest();
  const tarballs = (): string[] =>
    existsSync(packsDir)
      ? readdirSync(packsDir)
          .filter((f) => f.endsWith('.tgz'))
          .map((f) => join(packsDir, f))
      : [];
  const stamped = existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === digest;
  if (stamped && tarballs().length === PACKAGES.length) return { tarballs: tarballs(), packed: false };
  rmSync(packsDir, { recursive: true, force: true });
  mkdirSync(packsDir, { recursive: true });
  const [pnpm, pre] = pnpmCommand();
  for (const pkg of PACKAGES)
    execFileSync(pnpm, [...pre, 'pack', '--pack-destination', packsDir], {
      cwd: join(repo, pkg),
      env: cleanEnv(),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  const made = tarballs();
  if (made.length !== PACKAGES.length)
    throw new Error(`pnpm pack made ${made.length} tarballs in ${packsDir}, expected ${PACKAGES.length}`);
  writeFileSync(stampFile, `${digest}\n`);
  return { tarballs: made, packed: true };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { tarballs, packed } = ensurePacks();
  console.log(`${packed ? 'packed' : 'reused'} ${tarballs.length} tarballs in ${relative(repo, packsDir)}/`);
}
