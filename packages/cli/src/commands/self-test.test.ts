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

  it('--list --family generated names mutants of both generated families, each with the one rule it breaks', async () => {
    const { code, stdout } = await run(['--list', '--family', 'generated']);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.some((l) => l.startsWith('spec:portal-list:data/IVVc/Sum4:remove\tPORTAL.LIST.IVVC_FIELDS\t'))).toBe(
      true,
    );
    expect(lines.some((l) => l.startsWith('catalogue:PORTAL.LOOKUP.SEARCH_FIELDS_CONTACTS:RegNr1\t'))).toBe(true);
    expect(lines.every((l) => l.split('\t')[1]!.split(',').length === 1)).toBe(true);
    expect(lines.some((l) => l.startsWith('lookup-returns-51\t'))).toBe(false);
  }, 120_000);

  it('--list --family behaviour names the behaviour mutants only, each with the one rule it breaks', async () => {
    const { code, stdout } = await run(['--list', '--family', 'behaviour']);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(200);
    expect(lines.every((l) => l.startsWith('behaviour:') && l.split('\t')[1]!.split(',').length === 1)).toBe(true);
    expect(
      lines.some((l) =>
        l.startsWith(
          'behaviour:parameter-ignored:PORTAL.LIST.KANBAN_PARAMS:list.maxsize:Kanban\tPORTAL.LIST.KANBAN_PARAMS (undecided)\t',
        ),
      ),
    ).toBe(true);
  }, 120_000);

  it.each([
    [['--mutants', 'no-such-mutant'], 'no mutant no-such-mutant; erpcert self-test --list names them'],
    [['--seeds', '0'], '--seeds must be 1 to 20, got 0'],
    [['--lanes', '99'], '--lanes must be 1 to 16, got 99'],
    [['--seeds', 'x'], '--seeds'],
    [['--family', 'some'], '--family must be hand, generated, behaviour or all, got "some"'],
    [['--family', 'generated', '--sample', '0'], '--sample must be 1 or more, got 0'],
    [['--sample', '5'], '--sample draws generated mutants: use it with --family generated, behaviour or all'],
    [['--mutants', 'spec:nowhere:data:remove'], 'no mutant spec:nowhere:data:remove'],
    [['--profile', 'strict'], '--profile must be full or gate, got "strict"'],
  ])('%j exits 2 and says what is wrong, running nothing', async (argv, message) => {
    const { code, stdout, stderr } = await run(argv);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stdout).toBe('');
  });
});
