import { resolve } from 'node:path';
import type { Command } from '../command.js';
import { UsageError } from '../options.js';
import { isSelfTestProfile, SELFTEST_PROFILES } from '../selftest/profile.js';

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
      help: 'only these mutants, run in this order (comma-separated ids of any family; default all of --family)',
    },
    {
      name: 'family',
      type: 'string',
      arg: 'hand|generated|behaviour|all',
      default: 'hand',
      help: 'the hand-written mutants, the generated ones (from the specs and the catalogue), the behaviour ones (from specs/behaviours.yaml), or all',
    },
    {
      name: 'sample',
      type: 'int',
      arg: 'N',
      help: 'run N generated mutants drawn by --seed from every rule area, and N behaviour ones from every operator and area (hand-written ones always run whole)',
    },
    { name: 'seeds', type: 'int', arg: 'N', default: 3, help: 'runs per mutant, each with its own seed' },
    {
      name: 'seed',
      type: 'int',
      arg: 'S',
      default: SELFTEST_SEED,
      help: 'the first seed (then S+1, S+2, ...); also draws the --sample',
    },
    { name: 'lanes', type: 'int', arg: 'N', default: 2, help: 'conform runs at a time, each with its own server' },
    {
      name: 'profile',
      type: 'string',
      arg: 'full|gate',
      default: 'full',
      help: 'the conform profile of every run: full, or gate (the per-commit profile, to compare its detection)',
    },
    { name: 'list', type: 'boolean', default: false, help: 'list the mutants and the rules each breaks, and exit' },
    { name: 'out', type: 'string', arg: 'DIR', help: 'folder for detection.json (default reports/selftest/<time>/)' },
  ],
  details: [
    'Every mutant runs erpcert conform --only <the rule families it breaks> through a proxy in front of the',
    'reference server, once per seed. A mutant is caught when every run FAILs all of its rules; precise when',
    'no run FAILs any other rule (ERRORs are listed, not counted); repeatable when every seed FAILs the same',
    'rules. Targets: detection >= 98 %, precision >= 95 %, repeatability 100 % (measured with two seeds or more);',
    'of the mutants that FAILed anything, the right rule FAILed for >= 98 % and a rule outside it for <= 3 %.',
    "--profile gate runs every conform with --profile gate, to compare the gate's detection with the full",
    "profile's (issue 19: at most 3 points below); detection.json names the profile.",
    'Generated mutants (--family generated|all) break the rule that owns their body path (rules.yaml covers:) or',
    'the member of a listing rule; one whose rule no test can observe, or that the suite never met, is reported',
    'and counted neither caught nor missed. The figures are printed per family, with the whole and sampled sizes.',
    'Behaviour mutants (--family behaviour|all) change what a request does (specs/behaviours.yaml: a parameter',
    'ignored, a write that does nothing or one thing too many, a refused valid request, a feed that forgets, a',
    'transition lost, a computed field kept as sent); their figures are also printed per operator. Detection',
    'target over the behaviour family: >= 95 % (issue 28).',
  ].join('\n'),
  async run(values, _positionals, io) {
    // loaded when run: the mutants and their proxy cost every other command's start-up
    const family = String(values.family ?? 'hand');
    if (!['hand', 'generated', 'behaviour', 'all'].includes(family))
      throw new UsageError(`--family must be hand, generated, behaviour or all, got ${JSON.stringify(family)}`);
    const sample = values.sample === undefined ? undefined : Number(values.sample);
    if (sample !== undefined && sample < 1) throw new UsageError(`--sample must be 1 or more, got ${sample}`);
    if (sample !== undefined && family === 'hand')
      throw new UsageError('--sample draws generated mutants: use it with --family generated, behaviour or all');
    const seeds = Number(values.seeds);
    const lanes = Number(values.lanes);
    if (seeds < 1 || seeds > 20) throw new UsageError(`--seeds must be 1 to 20, got ${seeds}`);
    if (lanes < 1 || lanes > 16) throw new UsageError(`--lanes must be 1 to 16, got ${lanes}`);
    const profile = String(values.profile ?? 'full');
    if (!isSelfTestProfile(profile))
      throw new UsageError(`--profile must be ${SELFTEST_PROFILES.join(' or ')}, got ${JSON.stringify(profile)}`);
    const first = Number(values.seed);
    const only = String(values.mutants ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const [
      { totalsLines, writeDetection },
      { mutants },
      { runSelfTest, SELFTEST_CONTEXT },
      generator,
      { sampleMutants, sampleByOperator },
      { behaviourMutants },
    ] = await Promise.all([
      import('../selftest/detection.js'),
      import('../selftest/mutants.js'),
      import('../selftest/run-selftest.js'),
      import('../selftest/generator/generated-mutants.js'),
      import('../selftest/generator/sample.js'),
      import('../selftest/generator/behaviour-mutants.js'),
    ]);
    const hand = mutants(SELFTEST_CONTEXT);
    const wantsGenerated =
      family === 'generated' || family === 'all' || only.some((id) => /^(spec|catalogue):/.test(id));
    const wantsBehaviour = family === 'behaviour' || family === 'all' || only.some((id) => id.startsWith('behaviour:'));
    const generated = wantsGenerated ? generator.generatedMutants() : [];
    const behaviour = wantsBehaviour ? behaviourMutants() : [];
    const withHand = family === 'hand' || family === 'all';
    const withGenerated = family === 'generated' || family === 'all';
    const withBehaviour = family === 'behaviour' || family === 'all';
    const pool = [...(withHand ? hand : []), ...(withGenerated ? generated : []), ...(withBehaviour ? behaviour : [])];
    if (values.list === true) {
      for (const m of pool)
        io.out.write(
          `${m.id}\t${[...m.breaks, ...(m.undecided ?? []).map((r) => `${r} (undecided)`)].join(',')}\t${m.description}\n`,
        );
      return 0;
    }
    const every = [...hand, ...generated, ...behaviour];
    const unknown = only.filter((id) => !every.some((m) => m.id === id));
    if (unknown.length > 0)
      throw new UsageError(
        `no mutant ${unknown.join(', ')}; erpcert self-test --list names them (add --family all for the generated ones)`,
      );
    const chosen =
      only.length > 0
        ? only.map((id) => every.find((m) => m.id === id)!)
        : [
            ...(withHand ? hand : []),
            ...(withGenerated ? (sample === undefined ? generated : sampleMutants(generated, sample, first)) : []),
            ...(withBehaviour ? (sample === undefined ? behaviour : sampleByOperator(behaviour, sample, first)) : []),
          ];
    const sizes = {
      hand: hand.length,
      spec: generated.filter((m) => m.family === 'spec').length,
      catalogue: generated.filter((m) => m.family === 'catalogue').length,
      behaviour: behaviour.length,
    };
    const abort = new AbortController();
    const onSignal = () => abort.abort();
    process.once('SIGINT', onSignal);
    try {
      const report = await runSelfTest({
        only,
        mutants: chosen,
        sizes,
        seeds: Array.from({ length: seeds }, (_, i) => first + i),
        lanes,
        profile,
        progress: (line) => io.err.write(`erpcert self-test: ${line}\n`),
        signal: abort.signal,
      });
      const file = writeDetection(report, values.out ? resolve(io.cwd, String(values.out)) : undefined);
      io.out.write(`\n${totalsLines(report).join('\n')}\ndetection.json: ${file}\n`);
      // with one seed repeatability is not measured, so it does not decide the exit code
      const repeatable = report.repeatability.of === 0 || report.repeatability.met;
      const met = report.detection.met && report.precision.met && repeatable && report.outside.met;
      return met && report.baseline.clean ? 0 : 1;
    } finally {
      process.off('SIGINT', onSignal);
    }
  },
};
