import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Command } from './command.js';
import { commands, findCommand, parseCommandLine } from './main.js';
import { UsageError } from './options.js';
import { erpcert } from './testing/run-cli.js';

const run = (argv: string[]) => erpcert(argv, process.cwd());
const work = mkdtempSync(join(tmpdir(), 'erpcert-main-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every command and sub-command of the CLI, by its full name (`report diff`): a new one is covered here. */
const everyCommand: [string, Command][] = commands.flatMap((c) => [
  [c.name, c] as [string, Command],
  ...(c.subcommands ?? []).map((s) => [`${c.name} ${s.name}`, s] as [string, Command]),
]);

describe('erpcert main', () => {
  it('--help lists every command of the command-line contract', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    for (const c of ['serve', 'spec', 'conform', 'load', 'cleanup', 'report', 'self-test'])
      expect(stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
  });

  it('--version prints the version of packages/cli/package.json', async () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const { code, stdout } = await run(['--version']);
    expect(code).toBe(0);
    expect(stdout).toBe(`erpcert ${manifest.version}\n`);
  });

  it('an unknown command exits 2 and names the commands', async () => {
    const { code, stderr } = await run(['frobnicate']);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown command "frobnicate"');
  });

  it('a bad option exits 2 with what was wrong', async () => {
    const { code, stderr } = await run(['serve', '--port', 'x']);
    expect(code).toBe(2);
    expect(stderr).toContain('--port');
  });
});

describe('conform URL: the URL of the server to test, typed without --target', () => {
  it('exits 2 naming --target, starts nothing and writes no report folder', async () => {
    const r = await erpcert(['conform', 'http://192.0.2.1:8080', '--only', 'REST.VERSION.PATH'], work);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('use --target http://192.0.2.1:8080');
    expect(r.stderr).not.toContain('embedded reference server');
    expect(r.stdout).toBe('');
    expect(readdirSync(work)).toEqual([]);
  });

  it.each(['load', 'cleanup'])('%s URL says the same', async (name) => {
    const r = await erpcert([name, 'https://erp.example.com'], work);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('use --target https://erp.example.com');
    expect(readdirSync(work)).toEqual([]);
  });
});

describe.each(everyCommand)('erpcert %s refuses what it does not take', (name, command) => {
  const words = name.split(' ');
  const wanted = command.positionals ?? [];
  const required = wanted.filter((p) => !p.optional).length;
  const folders = (n: number) => Array.from({ length: n }, (_, i) => `missing-folder-${i + 1}`);

  it('an unknown short flag (-x): exit 2 naming it, nothing written', async () => {
    const r = await erpcert([...words, ...folders(required), '-x'], work);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`erpcert ${name}: unknown option -x for "erpcert ${name}"`);
    expect(readdirSync(work)).toEqual([]);
  });

  const repeats = wanted.at(-1)?.repeats === true;

  it.skipIf(repeats)('a positional beyond those it takes: exit 2 naming it and what the command takes', async () => {
    // skipped for a command whose last positional repeats (publish DIR...): no positional is beyond those
    const r = await erpcert([...words, ...folders(wanted.length), 'unexpected-word'], work);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unexpected argument "unexpected-word"');
    expect(r.stderr).toContain(
      wanted.length === 0
        ? `erpcert ${name} takes no positional arguments`
        : `erpcert ${name} takes ${wanted.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(' ')}`,
    );
    expect(readdirSync(work)).toEqual([]);
  });

  it('each number of positionals it takes is accepted, one fewer than it needs is refused', () => {
    const found = findCommand([...words, ...folders(wanted.length)])!;
    expect(found.command).toBe(command);
    for (let n = required; n <= wanted.length + (repeats ? 2 : 0); n++) {
      const parsed = parseCommandLine(command, name, folders(n), {}, work);
      expect(parsed.positionals).toEqual(folders(n));
    }
    if (required > 0) {
      expect(() => parseCommandLine(command, name, folders(required - 1), {}, work)).toThrow(UsageError);
      expect(() => parseCommandLine(command, name, folders(required - 1), {}, work)).toThrow(
        `missing ${wanted[required - 1]!.name}`,
      );
    }
  });

  it('--help names the positionals it takes, or says it takes none', async () => {
    const r = await erpcert([...words, '--help'], work);
    expect(r.code).toBe(0);
    const usage = r.stdout.split('\n').find((l) => l.startsWith('Usage: '))!;
    expect(usage.startsWith(`Usage: erpcert ${name}`)).toBe(true);
    if (wanted.length === 0) expect(r.stdout).toContain('Takes no positional arguments');
    else {
      for (const p of wanted) expect(usage).toContain(p.optional ? `[${p.name}]` : p.name);
      expect(r.stdout).toMatch(new RegExp(`^Arguments:\\n  ${wanted[0]!.name} `, 'm'));
    }
    expect(existsSync(join(work, 'reports'))).toBe(false);
  });
});
