import { describe, expect, it } from 'vitest';
import { erpcert } from './testing/run-cli.js';

const run = (argv: string[]) => erpcert(argv, process.cwd());

describe('erpcert main', () => {
  it('--help lists every command of the command-line contract', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    for (const c of ['serve', 'spec', 'conform', 'load', 'cleanup', 'report', 'self-test'])
      expect(stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
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
