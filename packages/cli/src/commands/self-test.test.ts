import { describe, expect, it } from 'vitest';
import { mutants } from '../selftest/mutants.js';
import { SELFTEST_CONTEXT } from '../selftest/run-selftest.js';
import { erpcert } from '../testing/run-cli.js';

const run = (argv: string[]) => erpcert(['self-test', ...argv], process.cwd());

describe('erpcert self-test (no suite run)', () => {
  it('--list names every mutant with the rules it breaks and what it does', async () => {
    const { code, stdout } = await run(['--list']);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    const all = mutants(SELFTEST_CONTEXT);
    expect(lines).toHaveLength(all.length);
    expect(lines).toContain(
      'lookup-returns-51\tPORTAL.LOOKUP.CAP50\tpastespecial answers 51 results when 50 or more match',
    );
  });

  it.each([
    [['--mutants', 'no-such-mutant'], 'no mutant no-such-mutant; erpcert self-test --list names them'],
    [['--seeds', '0'], '--seeds must be 1 to 20, got 0'],
    [['--lanes', '99'], '--lanes must be 1 to 16, got 99'],
    [['--seeds', 'x'], '--seeds'],
  ])('%j exits 2 and says what is wrong, running nothing', async (argv, message) => {
    const { code, stdout, stderr } = await run(argv);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stdout).toBe('');
  });
});
