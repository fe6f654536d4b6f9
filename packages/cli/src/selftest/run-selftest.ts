/**
 * `erpcert self-test`'s engine: every mutant of mutants.ts runs `erpcert conform --only <its rule families>`
 * through the mutating proxy, once per seed; a baseline per seed runs the union of the selections through an
 * unchanged proxy. Runs go `lanes` at a time, each lane with its own reference server (a run's sequence-feed
 * properties must not see another lane's writes). Each run gets a fresh mutant (some keep state).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { matchRules } from '@erpcert/contract';
import { type RunningServer, startServer } from '@erpcert/refserver';
import type { ResultsDocument } from '@erpcert/runs';
import { conform, runConform } from '../commands/conform.js';
import { EMBEDDED_DEFAULT, EMBEDDED_SEED_SIZE } from '../commands/conform-settings.js';
import { parseArgs } from '../options.js';
import {
  type DetectionReport,
  detectionReport,
  familyOf,
  judgeMutant,
  type MutantOutcome,
  type MutantRun,
  outcomeLine,
  selectionOf,
  verdictsOf,
} from './detection.js';
import type { GeneratedMutant, MutantFamily } from './generator/generated-mutant.js';
import { type MutantContext, mutants } from './mutants.js';
import type { SelfTestProfile } from './profile.js';
import { type Mutant, startProxy } from './proxy.js';

/** The reference server's default login and demo user codes (packages/refserver/README.md "Demo users"). */
export const SELFTEST_CONTEXT: MutantContext = {
  user: EMBEDDED_DEFAULT.user,
  password: EMBEDDED_DEFAULT.password,
  usercode: EMBEDDED_DEFAULT.usercode,
  limitedUsercode: EMBEDDED_DEFAULT.limitedUsercode,
};
/** The second company of the two-company rules (issue 9 "Two companies": the embedded run uses 1 and 2). */
export const OTHER_COMPCODE = 2;

/** What a self-test runs. */
export interface SelfTestOptions {
  /** Mutant ids to run (all when empty). */
  readonly only: readonly string[];
  /**
   * The mutants to run, in this order, of any family (`only` is then ignored): `erpcert self-test --family`,
   * `--sample`. Hand-written ones are rebuilt fresh for every run; generated ones keep no state, or make a fresh copy (`fresh`).
   */
  readonly mutants?: readonly Mutant[];
  /** The size of each whole family, for the report (the run may be a sample). */
  readonly sizes?: Readonly<Partial<Record<MutantFamily, number>>>;
  /** The fast-check seeds, one run per seed per mutant. */
  readonly seeds: readonly number[];
  /** Runs at a time. */
  readonly lanes: number;
  /** The conform profile of every run. @defaultValue 'full' */
  readonly profile?: SelfTestProfile;
  /** Progress lines go here. */
  readonly progress: (line: string) => void;
  readonly signal?: AbortSignal;
}

const quiet = () =>
  new Writable({
    write(_c, _e, done) {
      done();
    },
  });

/** The conform flags a mutant needs that this CLI lacks (e.g. `other-compcode` before it exists). */
export function missingFlags(m: Mutant): string[] {
  return (m.needs ?? []).filter((f) => !conform.flags.some((d) => d.name === f));
}

/** One `erpcert conform --target <proxy> --only <select> --seed <seed>` in-process against `server`. */
async function conformThrough(
  server: RunningServer,
  mutant: Mutant | undefined,
  select: string,
  seed: number,
  work: string,
  name: string,
  signal: AbortSignal | undefined,
  profile: SelfTestProfile,
): Promise<MutantRun> {
  const t0 = Date.now();
  const proxy = await startProxy(server.url, mutant);
  const out = join(work, name);
  const ctx = SELFTEST_CONTEXT;
  try {
    const args = ['--target', proxy.url, '--user', ctx.user, '--password', ctx.password, '--compcode', '1'];
    args.push('--usercode', ctx.usercode, '--unok-usercode', EMBEDDED_DEFAULT.unokUsercode);
    args.push('--limited-usercode', ctx.limitedUsercode);
    if (conform.flags.some((f) => f.name === 'other-compcode')) args.push('--other-compcode', String(OTHER_COMPCODE));
    args.push('--only', select, '--seed', String(seed), '--profile', profile, '--out', out);
    const { values } = parseArgs('conform', conform.flags, args, {}, work);
    const code = await runConform(
      values,
      { out: quiet(), err: quiet(), env: {}, cwd: work },
      // the proxy's server is this self-test's own and goes with it: the permanent writes run as on the embedded one
      { signals: false, signal, disposableTarget: true },
    );
    const doc = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsDocument;
    return {
      seed,
      exitCode: code,
      ...verdictsOf(doc),
      untested: doc.rules.filter((r) => !r.tested).map((r) => r.id),
      proxyHits: { ...proxy.hits },
      durationMs: Date.now() - t0,
      problems: [...doc.problems],
    };
  } catch (err) {
    return {
      seed,
      exitCode: 2,
      failed: [],
      errored: [],
      indecisive: [],
      untested: [],
      proxyHits: { ...proxy.hits },
      durationMs: Date.now() - t0,
      problems: [`the run did not complete: ${(err as Error).message}`],
    };
  } finally {
    await proxy.close();
  }
}

interface Task {
  readonly key: string;
  readonly mutant: string | undefined;
  readonly select: string;
  readonly seed: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs the self-test; resolves to its report (not yet written). */
export async function runSelfTest(opts: SelfTestOptions): Promise<DetectionReport> {
  const started = new Date();
  const profile = opts.profile ?? 'full';
  const catalogue = mutants(SELFTEST_CONTEXT);
  // in the order asked for (a long self-test can put the mutants it most needs to see first)
  const chosen =
    opts.mutants ??
    (opts.only.length === 0 ? catalogue : opts.only.flatMap((id) => catalogue.filter((m) => m.id === id)));
  const byId = new Map(chosen.map((m) => [m.id, m]));
  // a mutant whose rules no test names, or that needs a flag this CLI lacks, is reported without running
  const skipped = new Map<string, Pick<MutantOutcome, 'status' | 'problems'>>();
  for (const m of chosen) {
    const missing = missingFlags(m);
    const unobservable = (m as Partial<GeneratedMutant>).unobservable;
    if (unobservable !== undefined)
      skipped.set(m.id, {
        status: 'unobservable',
        problems: [`no black-box test can observe its rule: ${unobservable}`],
      });
    else if (missing.length > 0)
      skipped.set(m.id, {
        status: 'needs',
        problems: [`needs conform --${missing.join(', --')}, which this CLI lacks`],
      });
    else if (m.breaks.some((b) => matchRules(b).length === 0))
      skipped.set(m.id, {
        status: 'uncovered',
        problems: [`not in specs/rules.yaml: ${m.breaks.filter((b) => matchRules(b).length === 0).join(', ')}`],
      });
  }
  const runnable = chosen.filter((m) => !skipped.has(m.id));
  const unionSelect = [...new Set(runnable.flatMap((m) => selectionOf(m).split(',')))].join(',');
  // the mutants first, each one's seeds together, so that an interrupted self-test has whole mutants to show
  const tasks: Task[] = [
    ...runnable.flatMap((m) =>
      opts.seeds.map((seed) => ({ key: `${m.id}@${seed}`, mutant: m.id, select: selectionOf(m), seed })),
    ),
    ...opts.seeds.map((seed) => ({ key: `baseline@${seed}`, mutant: undefined, select: unionSelect, seed })),
  ];
  const total = tasks.length;
  opts.progress(
    `${chosen.length} mutant(s), ${runnable.length} to run, seeds ${opts.seeds.join(', ')}, profile ${profile}: ${total} conform run(s), ${opts.lanes} at a time`,
  );
  for (const [id, s] of skipped) opts.progress(`${id}: not run (${s.status}): ${s.problems.join('; ')}`);
  const work = mkdtempSync(join(tmpdir(), 'erpcert-selftest-'));
  const results = new Map<string, MutantRun>();
  const outcomes = new Map<string, MutantOutcome>();
  const servers: RunningServer[] = [];
  let next = 0;
  let done = 0;
  try {
    for (let i = 0; i < Math.max(1, opts.lanes); i++)
      servers.push(await startServer({ port: 0, seed: EMBEDDED_SEED_SIZE, log: () => {} }));
    await Promise.all(
      servers.map(async (server) => {
        for (let t = tasks[next++]; t !== undefined && !opts.signal?.aborted; t = tasks[next++]) {
          // a fresh mutant per run: some keep state (stored writes, a frozen sequence number)
          const own = t.mutant === undefined ? undefined : byId.get(t.mutant);
          const fresh =
            own === undefined
              ? undefined
              : familyOf(own) !== 'hand'
                ? ((own as GeneratedMutant).fresh?.() ?? own)
                : mutants(SELFTEST_CONTEXT).find((m) => m.id === t.mutant);
          const name = t.key.replace(/[^A-Za-z0-9@-]/g, '_');
          const run = await conformThrough(server, fresh, t.select, t.seed, work, name, opts.signal, profile);
          results.set(t.key, run);
          done++;
          const verdicts = [
            run.failed.length > 0 ? `FAIL ${run.failed.join(' ')}` : 'no FAIL',
            run.errored.length > 0 ? `ERROR ${run.errored.join(' ')}` : undefined,
          ].filter(Boolean);
          opts.progress(
            `[${done}/${total}] ${t.key}: exit ${run.exitCode}, ${verdicts.join(', ')}, proxy changed ${run.proxyHits.requests + run.proxyHits.responses} (${seconds(run.durationMs)})`,
          );
          const m = t.mutant === undefined ? undefined : byId.get(t.mutant);
          if (m && opts.seeds.every((s) => results.has(`${m.id}@${s}`))) {
            const o = judgeMutant(
              m,
              opts.seeds.map((s) => results.get(`${m.id}@${s}`)!),
              new Set(matchRules(selectionOf(m)).map((r) => r.id)),
            );
            outcomes.set(m.id, o);
            opts.progress(`  => ${outcomeLine(o)}`);
          }
        }
      }),
    );
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(work, { recursive: true, force: true });
  }
  const all = chosen.map((m) => {
    const s = skipped.get(m.id);
    if (s) return judgeMutant(m, [], new Set(), s.status, s.problems);
    return outcomes.get(m.id) ?? judgeMutant(m, [], new Set(), 'error', ['interrupted before its runs finished']);
  });
  const baselineRuns = opts.seeds.flatMap((s) => {
    const r = results.get(`baseline@${s}`);
    return r ? [r] : [];
  });
  return detectionReport(
    started,
    opts.seeds,
    { select: unionSelect, runs: baselineRuns },
    all,
    new Date(),
    opts.sizes,
    profile,
  );
}
