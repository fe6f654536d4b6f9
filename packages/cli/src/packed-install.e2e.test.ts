// erpcert as an npm package, proven without a registry: `pnpm pack` every package of the workspace, `npm install`
// the tarballs into a new empty folder (dependencies come from the npm registry; better-sqlite3 builds its
// addon), and run the CLI and the two libraries from there, as a project that has never seen this repository.
// It takes minutes: most of it is npm's download and better-sqlite3's compile. The tarballs are built once, by
// scripts/pack-workspace.ts (reused while the sources are unchanged).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePacks, PACKAGES } from '../scripts/pack-workspace.js';

const MINUTE = 60_000;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment of the commands: without pnpm's `npm_*` variables (npm would read pnpm's settings from them)
 * and without the `ERPCERT_*` settings of whoever runs the tests.
 */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_|ERPCERT_)/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

function run(cmd: string, args: readonly string[], cwd: string, env = cleanEnv(), timeout = 10 * MINUTE): Promise<Run> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      done({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/**
 * The pid of the `erpcert` bin's node process in npx's process group (Linux /proc): its arguments name the bin's path
 * (`.../node_modules/.bin/erpcert`), where npx's own name only `erpcert`.
 */
function hubProcess(group: number): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === group) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // after "pid (comm) ": state, ppid, pgrp
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (pgrp === group && args.some((a) => /\/erpcert(\.mjs)?$/.test(a)) && args.includes('hub')) return Number(name);
    } catch {
      // the process ended while it was read
    }
  }
  return undefined;
}

const work = mkdtempSync(join(tmpdir(), 'erpcert-packed-'));
const project = join(work, 'project');
let install: Run | undefined;

beforeAll(async () => {
  const { tarballs } = ensurePacks();
  expect(tarballs).toHaveLength(PACKAGES.length);
  // a new, empty project: nothing of the repository above it, no lockfile, no workspace
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'consumer', private: true, type: 'module' })}\n`,
  );
  install = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--save-dev', ...tarballs],
    project,
    cleanEnv(),
    20 * MINUTE,
  );
  if (install.code !== 0) throw new Error(`npm install exited ${install.code}: ${install.stderr.slice(-4000)}`);
}, 30 * MINUTE);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed packages, installed with npm into an empty project', () => {
  it('packs each package with its dependencies as versions, not workspace: or catalog: specifiers', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'erpcert', 'package.json'), 'utf8'));
    expect(manifest.private).toBeUndefined();
    const specs = Object.values({ ...manifest.dependencies }) as string[];
    expect(specs.length).toBeGreaterThan(0);
    for (const spec of specs) expect(spec).not.toMatch(/^(workspace|catalog):/);
    // the contract package carries the specs and the documents, compiled sources and no test files
    const contract = join(project, 'node_modules', '@erpcert', 'contract');
    expect(existsSync(join(contract, 'dist', 'specs', 'rules.yaml'))).toBe(true);
    expect(existsSync(join(contract, 'dist', 'docs', 'record-rest-api.md'))).toBe(true);
    expect(existsSync(join(contract, 'dist', 'src', 'index.js'))).toBe(true);
    // the JSON Schemas of the input files, where a team's file points its editor (README "Your own registers")
    const resolveFrom = createRequire(join(project, 'package.json')).resolve;
    expect(resolveFrom('@erpcert/contract/schemas/registers.schema.json')).toBe(
      join(contract, 'schemas', 'registers.schema.json'),
    );
    expect(existsSync(join(contract, 'schemas', 'rules.schema.json'))).toBe(true);
    expect(resolveFrom('erpcert/schemas/known-deviations.schema.json')).toBe(
      join(project, 'node_modules', 'erpcert', 'schemas', 'known-deviations.schema.json'),
    );
    expect(readdirSync(join(project, 'node_modules', 'erpcert', 'src')).some((f) => f.endsWith('.test.ts'))).toBe(
      false,
    );
  });

  it(
    'npx erpcert conform runs the suite against the embedded server and exits 0',
    async () => {
      const r = await run('npx', ['erpcert', 'conform', '--out', 'reports/conform'], project);
      expect(r.stderr + r.stdout).toMatch(/embedded reference server/);
      expect(r.stdout + r.stderr).toMatch(/Total\s+\d+\s+[1-9]\d*\s+0\s+0\s/);
      expect(r.code).toBe(0);
      const results = JSON.parse(readFileSync(join(project, 'reports', 'conform', 'results.json'), 'utf8'));
      expect(results.rules.length).toBeGreaterThan(100);
    },
    15 * MINUTE,
  );

  it(
    'npx erpcert serve prints its URL, answers, and stops on SIGTERM',
    async () => {
      // npx runs the bin as its child and does not pass SIGTERM on: the signal goes to the process group
      const proc: ChildProcess = spawn('npx', ['erpcert', 'serve', '--port', '0'], {
        cwd: project,
        env: cleanEnv(),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      let url = '';
      proc.stderr!.on('data', (d) => {
        err += d;
      });
      const exited = new Promise<number | null>((done) => proc.on('exit', (code) => done(code)));
      try {
        url = await new Promise<string>((done, fail) => {
          proc.stdout!.on('data', (d) => {
            out += d;
            if (out.includes('\n')) done(out.split('\n')[0]!);
          });
          void exited.then((code) => fail(new Error(`erpcert serve exited ${code}: ${err}`)));
        });
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        const auth = `Basic ${Buffer.from('erpcert:erpcert').toString('base64')}`;
        const res = await fetch(`${url}/api/1/`, { headers: { authorization: auth } });
        expect(res.status).toBe(200);
      } finally {
        process.kill(-proc.pid!, 'SIGTERM');
      }
      await exited;
      // npx is gone; the server it started stops on the same signal and its port closes
      let stopped = false;
      for (let i = 0; i < 50 && !stopped; i++) {
        stopped = await fetch(`${url}/api/1/`).then(
          () => false,
          () => true,
        );
        if (!stopped) await new Promise((r) => setTimeout(r, 200));
      }
      expect(stopped).toBe(true);
      expect(err).toMatch(/SIGTERM, stopping/);
    },
    5 * MINUTE,
  );

  it(
    'npx erpcert hub serves the hub on a new SQLite file (native module, migrations), prints a sign-in link, and exits 0 on SIGTERM',
    async () => {
      const database = join(work, 'hub', 'hub.sqlite');
      const proc: ChildProcess = spawn(
        'npx',
        ['erpcert', 'hub', '--port', '0', '--database', database, '--init-admin', 'a@example.com'],
        { cwd: project, env: cleanEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      let err = '';
      proc.stderr!.on('data', (d) => {
        err += d;
      });
      const exited = new Promise<number | null>((done) => proc.on('exit', (code) => done(code)));
      let lines: string[] = [];
      let hub: number | undefined;
      try {
        // the URL, then the one-time sign-in link
        lines = await new Promise<string[]>((done, fail) => {
          proc.stdout!.on('data', (d) => {
            out += d;
            const l = out.split('\n');
            if (l.length > 2) done(l.slice(0, 2));
          });
          void exited.then((code) => fail(new Error(`erpcert hub exited ${code}: ${err}`)));
        });
        const [url, link] = lines as [string, string];
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(link).toMatch(new RegExp(`^${url.replace(/\./g, '\\.')}/sign-in/link\\?token=[^&\\s]+$`));
        const certified = await fetch(`${url}/api/v1/certified`);
        expect(certified.status).toBe(200);
        expect(await certified.json()).toEqual({ certified: [] });
        // the link opens a session: the accounts' tables were migrated and are written through better-sqlite3
        const token = new URL(link).searchParams.get('token')!;
        const signIn = await fetch(`${url}/sign-in/link`, {
          method: 'POST',
          body: new URLSearchParams({ token }),
          redirect: 'manual',
        });
        expect(signIn.status).toBe(303);
        expect(signIn.headers.get('location')).toBe('/account');
        expect(signIn.headers.get('set-cookie')).toMatch(/^erpcert_session=/);
        expect(existsSync(database)).toBe(true);
      } finally {
        // to the hub itself: npx, killed by the signal, would say nothing of how the hub stopped; npx then exits with
        // the hub's code. The whole group only when the hub is not found
        hub = hubProcess(proc.pid!);
        process.kill(hub ?? -proc.pid!, 'SIGTERM');
      }
      expect(hub).toBeDefined();
      expect(await exited).toBe(0);
      expect(err).toMatch(/SIGTERM, stopping/);
      expect(err).not.toMatch(/unexpected error/);
    },
    5 * MINUTE,
  );

  it(
    'npx erpcert load --engine autocannon runs a scenario against the embedded server',
    async () => {
      const r = await run(
        'npx',
        [
          'erpcert',
          'load',
          '--engine',
          'autocannon',
          '--scenario',
          'invoices',
          '--duration',
          '2',
          '--out',
          'reports/load',
        ],
        project,
      );
      expect(r.stderr).toMatch(/invoices/);
      expect(r.code).toBe(0);
      expect(existsSync(join(project, 'reports', 'load', 'results.json'))).toBe(true);
    },
    10 * MINUTE,
  );

  it(
    'erpcert load without k6 says how to build it in an installed package',
    async () => {
      const r = await run(
        'npx',
        ['erpcert', 'load', '--engine', 'k6', '--scenario', 'invoices', '--duration', '2'],
        project,
        cleanEnv({ ERPCERT_K6: join(work, 'no-k6-here') }),
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/node_modules\/@erpcert\/load-k6\/scripts\/build-k6\.sh/);
      expect(r.stderr).not.toMatch(/pnpm --filter/);
    },
    5 * MINUTE,
  );

  it(
    'npx erpcert --version, and the HAR creator of @erpcert/client, are the installed version, read from the package',
    async () => {
      const installed = (name: string) =>
        JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')).version as string;
      const version = installed('erpcert');
      expect(version).toBe(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
      expect(installed('@erpcert/client')).toBe(version);
      const r = await run('npx', ['erpcert', '--version'], project);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`erpcert ${version}\n`);
      writeFileSync(
        join(project, 'har-creator.mjs'),
        "import { erpcertVersion, toHar } from '@erpcert/client';\nconsole.log(JSON.stringify([erpcertVersion(), toHar([]).log.creator]));\n",
      );
      const har = await run(process.execPath, ['har-creator.mjs'], project);
      expect(har.stderr).toBe('');
      expect(JSON.parse(har.stdout)).toEqual([version, { name: 'erpcert', version }]);
    },
    2 * MINUTE,
  );

  it(
    "imports @erpcert/client and @erpcert/contract from a project's own script, with plain node",
    async () => {
      writeFileSync(
        join(project, 'use-libraries.mjs'),
        [
          "import { createClient } from '@erpcert/client';",
          "import { escapeXml, getRule, rules } from '@erpcert/contract';",
          "import { markdownCell } from '@erpcert/contract/text';",
          "const erp = createClient({ baseUrl: 'http://127.0.0.1:9', companyIn: 'query' });",
          "const text = [escapeXml('<a & b>'), markdownCell('a|b')];",
          "console.log(JSON.stringify({ client: typeof erp, rule: getRule('PORTAL.LOOKUP.CAP50')?.id, rules: rules.length, text }));",
        ].join('\n'),
      );
      const r = await run(process.execPath, ['use-libraries.mjs'], project);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const printed = JSON.parse(r.stdout);
      expect(printed.client).toBe('object');
      expect(printed.rule).toBe('PORTAL.LOOKUP.CAP50');
      expect(printed.rules).toBeGreaterThan(100);
      // the one escapers, from the main entry and from the runtime-neutral `./text` entry
      expect(printed.text).toEqual(['&lt;a &amp; b&gt;', 'a\\|b']);
    },
    2 * MINUTE,
  );
});
