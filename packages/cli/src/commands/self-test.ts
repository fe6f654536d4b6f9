import { resolve } from 'node:path';
import type { Command } from '../command.js';
import { UsageError } from '../options.js';

/** The first fast-check seed of a self-test: fixed, so that two self-tests make the same picks. */
export const SELFTEST_SEED = 20250301;

/**
 * `erpcert self-test`: the suite's detection power, precision and repeatability, measured against the
 * mutants of packages/cli/src/selftest/mutants.ts (README "The suite is tested too"). Exit 0 when the three
 * figures are met and the baseline FAILs nothing, 1 otherwise.
 */
export const selfTest: Command = {
  name: 'self-test',
  summary: 'run the suite against deliberately broken servers: detection, precision and repeatability',
  flags: [
    {
      name: 'mutants',
      type: 'string',
      arg: 'IDS',
      help: 'only these mutants, run in this order (comma-separated ids; default all)',
    },
    { name: 'seeds', type: 'int', arg: 'N', default: 3, help: 'runs per mutant, each with its own seed' },
    { name: 'seed', type: 'int', arg: 'S', default: SELFTEST_SEED, help: 'the first seed (then S+1, S+2, ...)' },
    { name: 'lanes', type: 'int', arg: 'N', default: 2, help: 'conform runs at a time, each with its own server' },
    { name: 'list', type: 'boolean', default: false, help: 'list the mutants and the rules each breaks, and exit' },
    { name: 'out', type: 'string', arg: 'DIR', help: 'folder for detection.json (default reports/selftest/<time>/)' },
  ],
  details: [
    'Every mutant runs erpcert conform --only <the rule families it breaks> through a proxy in front of the',
    'reference server, once per seed. A mutant is caught when every run FAILs all of its rules; precise when',
    'no run FAILs any other rule (ERRORs are listed, not counted); repeatable when every seed FAILs the same',
    'rules. Targets: detection >= 98 %, precision >= 95 %, repeatability 100 %.',
  ].join('\n'),
  async run(values, _positionals, io) {
    // loaded when run: the mutants and their proxy cost every other command's start-up
    const [{ totalsLines, writeDetection }, { mutants }, { runSelfTest, SELFTEST_CONTEXT }] = await Promise.all([
      import('../selftest/detection.js'),
      import('../selftest/mutants.js'),
      import('../selftest/run-selftest.js'),
    ]);
    const all = mutants(SELFTEST_CONTEXT);
    if (values.list === true) {
      for (const m of all) io.out.write(`${m.id}\t${m.breaks.join(',')}\t${m.description}\n`);
      return 0;
    }
    const only = String(values.mutants ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = only.filter((id) => !all.some((m) => m.id === id));
    if (unknown.length > 0)
      throw new UsageError(`no mutant ${unknown.join(', ')}; erpcert self-test --list names them`);
    const seeds = Number(values.seeds);
    const lanes = Number(values.lanes);
    if (seeds < 1 || seeds > 20) throw new UsageError(`--seeds must be 1 to 20, got ${seeds}`);
    if (lanes < 1 || lanes > 16) throw new UsageError(`--lanes must be 1 to 16, got ${lanes}`);
    const first = Number(values.seed);
    const abort = new AbortController();
    const onSignal = () => abort.abort();
    process.once('SIGINT', onSignal);
    try {
      const report = await runSelfTest({
        only,
        seeds: Array.from({ length: seeds }, (_, i) => first + i),
        lanes,
        progress: (line) => io.err.write(`erpcert self-test: ${line}\n`),
        signal: abort.signal,
      });
      const file = writeDetection(report, values.out ? resolve(io.cwd, String(values.out)) : undefined);
      io.out.write(`\n${totalsLines(report).join('\n')}\ndetection.json: ${file}\n`);
      const met = report.detection.met && report.precision.met && report.repeatability.met;
      return met && report.baseline.clean ? 0 : 1;
    } finally {
      process.off('SIGINT', onSignal);
    }
  },
};
