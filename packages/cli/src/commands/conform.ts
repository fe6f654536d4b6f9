import { mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { docsDir, getRule } from '@erpcert/contract';
import { type RunningServer, startServer } from '@erpcert/refserver';
import { type Command, type CommandIO, targetFlags } from '../command.js';
import type { OptionValues } from '../options.js';
import { ResultsCollector } from '../reports/collector.js';
import { coverageLine, readLoadReport } from '../reports/coverage-line.js';
import { fixturesInfo } from '../reports/fixtures-section.js';
import { ProgressPrinter } from '../reports/progress.js';
import { conformCommand, type ReplayBase } from '../reports/replay.js';
import type { CleanupInfo, TargetInfo } from '../reports/results.js';
import {
  checkTarget,
  cleanUp,
  DEFAULT_FIXTURE_PREFIX,
  fixtureFiles,
  newRunTag,
  RunEvents,
  readFixtureAccounts,
  readLedger,
  type SuiteRunResult,
  TARGET_ENV,
  type TargetConnection,
} from '../reports/runner.js';
import { maskData, maskingWriter, runMasker } from '../reports/secrets.js';
import { specInfo } from '../reports/spec-info.js';
import { renderSummaryTable } from '../reports/summary-table.js';
import { writeReports } from '../reports/write-reports.js';
import { openReportSigner, signKeyFlag } from './certify.js';
import { type ConformSettings, conformSettings, EMBEDDED_DEFAULT, EMBEDDED_SEED_SIZE } from './conform-settings.js';

/** erpcert's version, from packages/cli/package.json. */
export const TOOL_VERSION: string = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
).version;

/** Test seams of {@link runConform}. */
export interface ConformHooks {
  /** Test files instead of `properties/**\/*.prop.ts` (the CLI's own tests use the runner's fixtures). */
  readonly include?: readonly string[];
  readonly now?: () => Date;
  /** Listen for SIGINT/SIGTERM. @defaultValue true */
  readonly signals?: boolean;
  /** Aborting interrupts the run like Ctrl-C. */
  readonly signal?: AbortSignal;
}

/** The second company of the run: `--other-compcode`, or for the embedded server the demo company that is not the run's. */
function otherCompany(s: ConformSettings, conn: TargetConnection): number | undefined {
  if (s.otherCompcode !== undefined || s.target !== undefined) return s.otherCompcode;
  return conn.compcode === EMBEDDED_DEFAULT.otherCompcode ? EMBEDDED_DEFAULT.compcode : EMBEDDED_DEFAULT.otherCompcode;
}

/** The environment of the test workers (src/harness/meta.ts TARGET_ENV). */
function workerEnv(s: ConformSettings, conn: TargetConnection, runTag: string, ledger: string): Record<string, string> {
  const embedded = s.target === undefined;
  const env: Record<string, string | number | undefined> = {
    [TARGET_ENV.target]: conn.url,
    [TARGET_ENV.user]: conn.user,
    [TARGET_ENV.password]: conn.password,
    [TARGET_ENV.compcode]: conn.compcode,
    [TARGET_ENV.otherCompcode]: otherCompany(s, conn),
    [TARGET_ENV.usercode]: s.usercode ?? (embedded ? EMBEDDED_DEFAULT.usercode : undefined),
    [TARGET_ENV.unokUsercode]: s.unokUsercode ?? (embedded ? EMBEDDED_DEFAULT.unokUsercode : undefined),
    [TARGET_ENV.limitedUsercode]: s.limitedUsercode ?? (embedded ? EMBEDDED_DEFAULT.limitedUsercode : undefined),
    [TARGET_ENV.portalcc]: s.portalcc,
    [TARGET_ENV.portalPath]: s.portalPath,
    [TARGET_ENV.companyIn]: s.companyIn,
    [TARGET_ENV.profile]: s.profile,
    [TARGET_ENV.runs]: s.runs,
    [TARGET_ENV.seed]: s.seed,
    [TARGET_ENV.path]: s.path,
    [TARGET_ENV.runTag]: runTag,
    [TARGET_ENV.ledger]: ledger,
    [TARGET_ENV.pace]: s.pace,
    [TARGET_ENV.maxRetries]: s.maxRetries,
    [TARGET_ENV.maxRetryWait]: s.maxRetryWait,
    [TARGET_ENV.fixturePrefix]: s.fixturePrefix,
  };
  return Object.fromEntries(Object.entries(env).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
}

/** `erpcert conform`: see the command's --help and the README "Conformance runs". Resolves to the exit code. */
export async function runConform(values: OptionValues, io: CommandIO, hooks: ConformHooks = {}): Promise<number> {
  const now = hooks.now ?? (() => new Date());
  const started = now();
  const s = conformSettings(values, io.cwd, started);
  const loadDir = values['load-report'];
  const load = typeof loadDir === 'string' ? readLoadReport(loadDir, io.cwd) : undefined;
  if (load && 'error' in load) {
    io.err.write(`erpcert conform: --load-report: ${load.error}. Nothing was run.\n`);
    return 2;
  }
  const signer = openReportSigner(values, io, 'conform');
  if (signer === 'refused') return 2;
  let server: RunningServer | undefined;
  let conn: TargetConnection = {
    url: s.target ?? '',
    user: s.user ?? (s.target === undefined ? EMBEDDED_DEFAULT.user : undefined),
    password: s.password ?? (s.target === undefined ? EMBEDDED_DEFAULT.password : undefined),
    compcode: s.compcode ?? (s.target === undefined ? EMBEDDED_DEFAULT.compcode : undefined),
    companyIn: s.companyIn,
    portalPath: s.portalPath,
    timeoutMs: s.timeoutMs,
  };
  const masker = runMasker(conn.user, conn.password);
  // everything printed passes through the mask, like everything written (DESIGN.md: passwords are never printed)
  const out = maskingWriter(io.out, masker);
  const err = maskingWriter(io.err, masker);
  const say = (line: string) => err.write(`erpcert conform: ${line}\n`);
  if (s.target === undefined) {
    try {
      server = await startServer({
        host: '127.0.0.1',
        port: 0,
        seed: EMBEDDED_SEED_SIZE,
        user: conn.user,
        password: conn.password,
        log: () => {},
      });
    } catch (err) {
      say(`cannot start the embedded reference server: ${(err as Error).message}`);
      return 2;
    }
    conn = { ...conn, url: server.url };
    say(`no --target: running against the embedded reference server at ${server.url}`);
  } else {
    const check = await checkTarget(conn);
    if (!check.ok) {
      say(`${check.message}. Nothing was run.`);
      return 2;
    }
  }
  mkdirSync(s.outDir, { recursive: true });
  const runTag = newRunTag();
  const ledger = join(s.outDir, 'ledger.jsonl');
  const replay: ReplayBase = {
    target: s.target,
    user: s.user,
    compcode: s.compcode,
    otherCompcode: s.otherCompcode,
    usercode: s.usercode,
    unokUsercode: s.unokUsercode,
    limitedUsercode: s.limitedUsercode,
    portalcc: s.portalcc,
    portalPath: s.portalPath,
    companyIn: s.companyIn,
    profile: s.profile,
    runs: s.runs,
    fixturePrefix: s.fixturePrefix,
  };
  const events = new RunEvents();
  const collector = new ResultsCollector(s.scope, getRule, replay);
  // every event is masked as data before anything reads it: the document, its curl lines and the progress
  const progress = new ProgressPrinter(err, (io.err as { isTTY?: boolean }).isTTY === true);
  events.on((e) => collector.listener(maskData(masker, e)));
  events.on((e) => progress.listener(maskData(masker, e)));
  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (abort.signal.aborted) {
      // a second Ctrl-C: stop at once; the ledger lists what the run created
      say(`${signal} again: exiting without cleanup; the records this run created are listed in ${ledger}`);
      process.exit(2);
    }
    say(`${signal}: stopping the tests, then cleaning up and writing what is known (Ctrl-C again: exit at once)`);
    abort.abort();
  };
  if (hooks.signal?.aborted) abort.abort();
  else hooks.signal?.addEventListener('abort', () => abort.abort(), { once: true });
  if (hooks.signals !== false) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  const errors: string[] = [];
  let result: SuiteRunResult = { reason: 'interrupted', errors: [] };
  let cleanup: CleanupInfo = { ledgerEntries: 0, deleted: 0, alreadyGone: 0, residue: [] };
  const problems: string[] = [];
  try {
    say(
      `profile ${s.profile}, run tag ${runTag}${s.only ? `, rules ${s.only} (${s.scope.length})` : ''}${s.shard ? `, shard ${s.shard}` : ''}`,
    );
    try {
      // loaded here: vitest's Node API takes seconds to import, and only this command needs it
      const { runSuite } = await import('../reports/run-suite.js');
      result = await runSuite({
        env: workerEnv(s, conn, runTag, ledger),
        profile: s.profile,
        events,
        selected: s.only !== undefined ? s.scope.map((r) => r.id) : undefined,
        // a selection runs few tests: one worker boots (imports client, contract, harness) once instead of
        // twice, which is faster; the whole suite spreads over the config's two workers
        maxWorkers: s.only !== undefined ? 1 : undefined,
        shard: s.shard,
        signal: abort.signal,
        include: hooks.include,
      });
      errors.push(...result.errors);
    } catch (err) {
      errors.push(`the suite could not run: ${(err as Error).message}`);
    }
    const { entries, problems: ledgerProblems } = readLedger(ledger);
    problems.push(...ledgerProblems);
    if (!s.cleanup) {
      const residue = entries.map((e) => ({
        register: e.register,
        key: e.key,
        company: e.company ?? null,
        status: 'left' as const,
        reason: 'cleanup turned off (--no-cleanup)',
      }));
      cleanup = { ledgerEntries: entries.length, deleted: 0, alreadyGone: 0, residue };
    } else if (entries.length > 0) {
      say(`cleaning up ${entries.length} record(s) of run ${runTag}`);
      const unokUsercode = s.unokUsercode ?? (s.target === undefined ? EMBEDDED_DEFAULT.unokUsercode : undefined);
      const report = await cleanUp(conn, entries, { pace: s.pace, unokUsercode });
      cleanup = {
        ...report,
        residue: report.residue.map((r) => ({
          register: r.register,
          key: r.key,
          company: r.company ?? null,
          status: r.status,
          reason: r.reason,
        })),
      };
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await server?.close();
  }
  const finished = now();
  const target: TargetInfo = {
    url: conn.url,
    embedded: s.target === undefined,
    user: conn.user ?? null,
    compcode: conn.compcode ?? null,
    otherCompcode: otherCompany(s, conn) ?? null,
    companyIn: s.companyIn,
    portalPath: s.portalPath,
    portalcc: s.portalcc ?? null,
    usercode: s.usercode ?? (s.target === undefined ? EMBEDDED_DEFAULT.usercode : null),
  };
  const repeat: (string | number)[] = [
    ...(s.only ? ['--only', s.only] : []),
    ...(s.seed !== undefined ? ['--seed', s.seed] : []),
    ...(s.path ? ['--path', s.path] : []),
    ...(s.shard ? ['--shard', s.shard] : []),
    ...(s.pace ? ['--pace', s.pace] : []),
  ];
  const doc = collector.build({
    run: {
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      durationMs: Math.max(0, finished.getTime() - started.getTime()),
      target,
      profile: s.profile,
      runs: s.runs ?? null,
      seed: s.seed ?? null,
      path: s.path ?? null,
      only: s.only ?? null,
      shard: s.shard ?? null,
      pace: s.pace ?? null,
      runTag,
      interrupted: result.reason === 'interrupted',
      command: conformCommand(replay, repeat),
    },
    spec: specInfo(),
    toolVersion: TOOL_VERSION,
    cleanup,
    fixtures: fixturesInfo(s.fixturePrefix, readFixtureAccounts(fixtureFiles(ledger).accounts)),
    errors,
    problems,
    ...(load ? { load } : {}),
  });
  const written = writeReports(doc, s.outDir, {
    docsBase: `${relative(s.outDir, docsDir).split('\\').join('/')}/`,
    masker,
  });
  if (written.schemaErrors.length > 0)
    say(
      `results.json does not match results.schema.json (a bug of erpcert): ${written.schemaErrors.slice(0, 3).join('; ')}`,
    );
  if (doc.coverage.judged) out.write(`\n${coverageLine(doc.coverage.judged)}\n`);
  out.write(`\n${renderSummaryTable(doc)}`);
  for (const f of doc.failures)
    out.write(`\n${f.verdict} ${f.rules.join(', ')}: ${f.message}\n  Reproduce with: ${f.replay}\n`);
  for (const p of doc.problems.slice(0, 10)) out.write(`\nproblem: ${p}\n`);
  const left = doc.cleanup.residue.filter((r) => r.status === 'left').length;
  if (left > 0) out.write(`\n${left} record(s) of run ${runTag} were left on the target: see the report's residue.\n`);
  if (s.only !== undefined && doc.totals.NONE === doc.totals.rules) {
    out.write(`\nNo test of the suite judged any of the ${doc.totals.rules} rule(s) --only ${s.only} selects.\n`);
  }
  out.write(`\nReports: ${s.outDir}\n`);
  // signs the folder (src/attest/certify-folder.ts), re-rendering the reports with the key named in their header
  if (signer !== undefined && signer.sign(s.outDir) !== 0) return 2;
  return doc.run.exitCode;
}

export const conform: Command = {
  name: 'conform',
  summary: 'run the conformance suite against a target (exit 0 pass, 1 FAIL or ERROR, 2 the run could not be done)',
  flags: [
    ...targetFlags,
    {
      name: 'other-compcode',
      type: 'int',
      arg: 'N',
      help: 'a second company whose data differs: REST.QUERY.COMPCODE and PORTAL.GLOBAL.COMPNO read both and compare (without it they SKIP)',
    },
    {
      name: 'unok-usercode',
      type: 'string',
      arg: 'U',
      help: 'a portal user code with the un-confirm permission (unokrecord tests)',
    },
    {
      name: 'limited-usercode',
      type: 'string',
      arg: 'U',
      help: 'a portal user code without report access or un-confirm (refusals)',
    },
    {
      name: 'profile',
      type: 'string',
      choices: ['readonly', 'full', 'gate', 'strict'],
      default: 'full',
      help: 'readonly writes nothing; full creates tagged records and removes them; gate judges the same rules as full with the fewest requests (per commit); strict also reports advisory WARNs',
    },
    { name: 'runs', type: 'int', arg: 'N', help: 'fast-check runs per property (default: the suite default)' },
    { name: 'seed', type: 'int', arg: 'S', help: 'fast-check seed, to replay a run' },
    { name: 'path', type: 'string', arg: 'P', help: 'fast-check path of one failing run (with --seed), e.g. 3:1:0' },
    {
      name: 'only',
      type: 'string',
      arg: 'GLOB',
      help: 'run only rules whose id matches, e.g. PORTAL.LOOKUP.* (comma for several)',
    },
    {
      name: 'shard',
      type: 'string',
      arg: 'i/n',
      help: 'run the i-th of n parts of the test files (one part per machine)',
    },
    { name: 'pace', type: 'string', arg: 'R', help: 'at most R requests per second per test worker (staging targets)' },
    {
      name: 'max-retries',
      type: 'int',
      arg: 'N',
      help: 'resend a request at most N times after 429/503 answers with Retry-After (default 3; 0 never waits)',
    },
    {
      name: 'max-retry-wait',
      type: 'string',
      arg: 'S',
      help: 'wait at most S seconds for one Retry-After (default 30); a longer one gives the rule ERROR',
    },
    {
      name: 'fixture-prefix',
      type: 'string',
      arg: 'P',
      default: DEFAULT_FIXTURE_PREFIX,
      help: 'code prefix of the fixture set the suite keeps on the target and reuses (one per team on a shared server)',
    },
    {
      name: 'cleanup',
      type: 'boolean',
      default: true,
      help: 'delete or close the records the run created (--no-cleanup keeps them)',
    },
    {
      name: 'timeout',
      type: 'int',
      arg: 'S',
      default: 15,
      help: 'seconds to wait for the target before giving up on a request of the runner',
    },
    { name: 'out', type: 'string', arg: 'DIR', help: 'report folder (default: reports/conformance/<timestamp>)' },
    {
      name: 'load-report',
      type: 'string',
      arg: 'DIR',
      help: 'an erpcert load report folder: its verdicts of the REST.LIMITS.* rules go into the coverage line',
    },
    signKeyFlag,
  ],
  details: [
    'Without --target it starts the embedded reference server (user erpcert, password erpcert, company 1 and',
    'company 2 to compare with; user codes ADMIN, ACC and JD of its demo data) and runs against it.',
    'Writes junit.xml, results.json, summary.md and report.html into the report folder.',
    'A failure prints the command that replays it: erpcert conform --only RULE --seed S --path P.',
    'Records the suite cannot delete (e.g. the more than 50 lookup items) are one fixture set with codes',
    '<prefix><set><nn> (ERPCERT-FX-LK01..55): created once, reused and repaired by later runs, listed in the',
    'report apart from the residue. --profile readonly creates nothing; tests that need a missing set SKIP.',
    'Exit codes: 0 no rule failed; 1 a documented or inferred rule failed; 2 wrong configuration, target',
    'unreachable or credentials refused, or the run could not be completed (interrupted, a test file did not load).',
  ].join('\n'),
  run: (values, _positionals, io) => runConform(values, io),
};
