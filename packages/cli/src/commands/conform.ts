import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { erpcertVersion } from '@erpcert/client';
import { readLoadReport } from '@erpcert/runs';
import { type Command, type CommandIO, targetFlags, targetGuardFlag } from '../command.js';
import { openReportPublisher, publishFlags } from '../hub/publisher.js';
import type { OptionValues } from '../options.js';
import { DEFAULT_FIXTURE_PREFIX, newRunTag } from '../reports/runner.js';
import { maskingWriter, runMasker } from '../reports/secrets.js';
import { openReportSigner, signKeyFlag } from './certify.js';
import { type CleanupStep, cleanupStep } from './conform-cleanup.js';
import { readRunDeviations, settleKnownDeviations } from './conform-known-deviations.js';
import { exitCodeOf, printOutcome, writeRunReports } from './conform-reports.js';
import { conformSettings } from './conform-settings.js';
import { listenToRun, replayBaseOf, runSuiteStep, type SuiteStep, withInterrupts } from './conform-suite.js';
import { connectionOf, openTarget } from './conform-target.js';
import { judgeRun } from './conform-verdicts.js';

/** Test seams of {@link runConform}. */
export interface ConformHooks {
  /** Test files instead of `properties/**\/*.prop.ts` (the CLI's own tests use the runner's fixtures). */
  readonly include?: readonly string[];
  readonly now?: () => Date;
  /** Listen for SIGINT/SIGTERM. @defaultValue true */
  readonly signals?: boolean;
  /** Aborting interrupts the run like Ctrl-C. */
  readonly signal?: AbortSignal;
  /**
   * The --target goes away with the run, like the embedded server (self-test's proxy in front of a server it
   * started): the tests whose writes the documented APIs cannot undo run, and what they make is not residue.
   */
  readonly disposableTarget?: boolean;
}

/**
 * `erpcert conform`: see the command's --help and the README "Conformance runs". Resolves to the exit code.
 * Reads as the steps of a run: known deviations, target and preflight, suite, cleanup, verdicts, reports, exit code.
 */
export async function runConform(values: OptionValues, io: CommandIO, hooks: ConformHooks = {}): Promise<number> {
  const now = hooks.now ?? (() => new Date());
  const started = now();
  const s = conformSettings(values, io.cwd, started);
  const deviations = readRunDeviations(s);
  const loadDir = values['load-report'];
  const load = typeof loadDir === 'string' ? readLoadReport(loadDir, io.cwd) : undefined;
  if (load && 'error' in load) {
    io.err.write(`erpcert conform: --load-report: ${load.error}. Nothing was run.\n`);
    return 2;
  }
  const signer = openReportSigner(values, io, 'conform');
  if (signer === 'refused') return 2;
  const publisher = openReportPublisher(values, io, 'conform');
  if (publisher === 'refused') return 2;
  const wanted = connectionOf(s);
  const masker = runMasker(wanted.user, wanted.password);
  // everything printed passes through the mask, like everything written (DESIGN.md: passwords are never printed)
  const out = maskingWriter(io.out, masker);
  const err = maskingWriter(io.err, masker);
  const say = (line: string) => err.write(`erpcert conform: ${line}\n`);

  const opened = await openTarget(s, wanted, say);
  if (!opened.ok) return 2;
  const { conn, server } = opened;
  mkdirSync(s.outDir, { recursive: true });
  const runTag = newRunTag();
  const ledger = join(s.outDir, 'ledger.jsonl');
  const replay = replayBaseOf(s);
  const eventsFile = typeof values.events === 'string' ? resolve(io.cwd, values.events) : undefined;
  const isTTY = (io.err as { isTTY?: boolean }).isTTY === true;
  const { events, collector } = listenToRun(s, replay, masker, err, isTTY, eventsFile);

  let suite: SuiteStep = { result: { reason: 'interrupted', errors: [] }, errors: [] };
  let cleaned: CleanupStep = { cleanup: { ledgerEntries: 0, deleted: 0, alreadyGone: 0, residue: [] }, problems: [] };
  try {
    await withInterrupts({ signals: hooks.signals !== false, signal: hooks.signal, ledger, say }, async (signal) => {
      say(
        `profile ${s.profile}, run tag ${runTag}${s.only ? `, rules ${s.only} (${s.scope.length})` : ''}${s.shard ? `, shard ${s.shard}` : ''}`,
      );
      suite = await runSuiteStep(s, conn, {
        runTag,
        ledger,
        events,
        signal,
        include: hooks.include,
        disposable: hooks.disposableTarget === true,
      });
      cleaned = await cleanupStep(s, conn, ledger, runTag, say);
    });
  } finally {
    await server?.close();
  }

  const judged = judgeRun(s, collector, {
    started,
    finished: now(),
    conn,
    replay,
    runTag,
    ledger,
    result: suite.result,
    errors: suite.errors,
    problems: cleaned.problems,
    cleanup: cleaned.cleanup,
    toolVersion: erpcertVersion(),
    ...(load ? { load } : {}),
  });
  const doc = settleKnownDeviations(judged, s, deviations, started.toISOString().slice(0, 10), say);
  writeRunReports(doc, s, masker, say);
  printOutcome(doc, s, out);
  // signs the folder (src/attest/certify-folder.ts), re-rendering the reports with the key named in their header
  if (signer !== undefined && signer.sign(s.outDir) !== 0) return 2;
  if (publisher !== undefined && (await publisher.publish(s.outDir)) !== 0) return 2;
  return exitCodeOf(doc);
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
      name: 'allow-permanent-writes',
      type: 'boolean',
      default: false,
      help: 'with --target: also run the tests that leave what the documented APIs cannot remove (a registerapi callback, a signing session); the report lists it as residue',
    },
    {
      name: 'timeout',
      type: 'int',
      arg: 'S',
      default: 15,
      help: 'seconds to wait for the target before giving up on a request of the runner',
    },
    targetGuardFlag,
    { name: 'out', type: 'string', arg: 'DIR', help: 'report folder (default: reports/conformance/<timestamp>)' },
    {
      name: 'events',
      type: 'string',
      arg: 'FILE',
      help: 'write progress to FILE as JSON lines as the run goes (run-start, each judged test with its rules and verdicts, module-end, run-end): for tools that follow a run, like the hub',
    },
    ...publishFlags,
    {
      name: 'baseline',
      type: 'string',
      arg: 'FILE',
      help: 'known deviations (YAML): a FAIL or ERROR of a listed rule is KNOWN and does not fail the run',
    },
    {
      name: 'write-baseline',
      type: 'string',
      arg: 'FILE',
      help: "add this run's FAILs to FILE (created if missing) with empty reasons; entries already written are kept",
    },
    {
      name: 'strict-baseline',
      type: 'boolean',
      help: 'a rule the baseline lists that now PASSes fails the run (exit 1): remove it from the file',
    },
    {
      name: 'prune-baseline',
      type: 'boolean',
      help: 'after the run, remove from the baseline file the listed rules that PASSed (other entries and comments kept)',
    },
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
    'Tests whose writes the documented APIs cannot undo (registerapi registers a callback; createsigningsess',
    'makes an ErpSignSessVc session) run against the embedded server; against a --target they SKIP and say so',
    'unless --allow-permanent-writes is given, and what they made is then listed as residue with the reason.',
    'Known deviations (--baseline FILE, README "CI gate"): a YAML list of accepted rules, each with rule, reason and',
    'optionally expires (YYYY-MM-DD) and ticket. A FAIL or ERROR of a listed rule is KNOWN, never a PASS. An entry',
    'past its expiry fails the run; a listed rule that PASSes is reported "fixed: remove it from the baseline".',
    'In erpcert.config.json put it in the "conform" section ("erpcert load --baseline" is another thing).',
    'Exit codes: 0 no rule failed (or every FAIL and ERROR is KNOWN); 1 a documented or inferred rule failed or',
    'ERRORed, a baseline entry expired, or (--strict-baseline) a listed rule passes; 2 wrong configuration (a',
    'baseline file that cannot be used names its line), target unreachable or credentials refused, or the run',
    'could not be completed (interrupted, a test file did not load).',
  ].join('\n'),
  run: (values, _positionals, io) => runConform(values, io),
};
