/**
 * `erpcert cleanup`: removes what a run left on the target through the documented APIs, with the conformance
 * runner's cleanUp (suites/conformance/src/runner/cleanup.ts), after checking that every record carries the run
 * tag (or the fixture prefix, with `--fixtures`). See the command's --help and the README "Staging safety".
 */
import { erpcertVersion } from '@erpcert/client';
import type { CommandIO } from '../command.js';
import type { OptionValues } from '../options.js';
import { checkTarget, cleanUp, type LedgerEntry, type TargetConnection } from '../reports/runner.js';
import { maskingWriter, runMasker } from '../reports/secrets.js';
import { defaultReportDir } from '../settings-common.js';
import { type CleanupPlan, mergePlans, planFromFound, planFromLedger } from './cleanup-plan.js';
import {
  type CleanupDocument,
  renderPlan,
  renderSummary,
  residueCounts,
  writeCleanupReport,
} from './cleanup-report.js';
import { type CleanupSettings, cleanupSettings } from './cleanup-settings.js';
import { findFixtures, findTagged, type SearchResult } from './find-records.js';
import { type ReportSource, readReportSource } from './report-source.js';
import { FIXTURE_REGISTERS, tagKind, WRITTEN_REGISTERS } from './tag-match.js';

/** Test seams. */
export interface CleanupHooks {
  readonly now?: () => Date;
}

function connection(s: CleanupSettings, source: ReportSource | undefined): TargetConnection {
  const t = source?.target;
  return {
    url: s.target ?? t?.url ?? '',
    user: s.user ?? t?.user ?? undefined,
    password: s.password,
    compcode: s.compcode ?? t?.compcode ?? undefined,
    companyIn: s.companyIn ?? t?.companyIn ?? 'query',
    portalPath: s.portalPath ?? t?.portalPath ?? '/WebErpAPI.hal',
    timeoutMs: s.timeoutMs,
  };
}

/** Reads the registers of the ledger's entries (per company) and plans each entry. */
async function planForReport(
  conn: TargetConnection,
  source: ReportSource,
  s: CleanupSettings,
): Promise<{ plan: CleanupPlan; searched: string[]; problems: string[] }> {
  const reads = new Map<string, SearchResult['read']>();
  const failures = new Map<string, string>();
  const problems: string[] = [];
  const searched = new Set<string>();
  const groups = new Map<string, { register: string; company: number | undefined }>();
  // a permanent entry (no documented removal) is not read: the plan keeps it with its reason
  for (const e of source.entries.filter((x) => x.permanent === undefined))
    groups.set(`${e.company ?? ''}/${e.register}`, { register: e.register, company: e.company });
  for (const [i, { register, company }] of [...groups.values()].entries()) {
    // about one second between large reads (record-rest-api.md §4 rule 12), across registers as within one
    if (i > 0 && s.pauseMs > 0) await new Promise((r) => setTimeout(r, s.pauseMs));
    // every record of the register is read (key, tag places): the tag decides what may be touched, not the ledger
    const result = await findTagged(conn, source.runTag ?? '', [register], {
      batch: s.batch,
      pauseMs: s.pauseMs,
      company,
    });
    searched.add(register);
    const id = `${company ?? ''}/${register}`;
    if (result.read.has(register)) reads.set(id, result.read);
    else failures.set(id, result.problems.join('; '));
    problems.push(...result.problems);
  }
  const plan = planFromLedger(
    source.entries,
    (register, company) =>
      reads.get(`${company ?? ''}/${register}`)?.get(register) ??
      failures.get(`${company ?? ''}/${register}`) ??
      'not read',
    (e: LedgerEntry) => e.tag ?? source.runTag ?? '',
  );
  return { plan, searched: [...searched], problems };
}

/** `erpcert cleanup`; resolves to the exit code. */
export async function runCleanup(
  values: OptionValues,
  positionals: readonly string[],
  io: CommandIO,
  hooks: CleanupHooks = {},
): Promise<number> {
  const now = hooks.now ?? (() => new Date());
  const started = now();
  const s = cleanupSettings(values, positionals, io.cwd);
  const source = s.dir !== undefined ? readReportSource(s.dir) : undefined;
  const conn = connection(s, source);
  const masker = runMasker(conn.user, conn.password);
  const out = maskingWriter(io.out, masker);
  const err = maskingWriter(io.err, masker);
  const say = (line: string) => err.write(`erpcert cleanup: ${line}\n`);
  const runTag = source?.runTag ?? s.tag;
  if (source) {
    say(`${source.kind} report ${source.folder}, run tag ${source.runTag ?? '(none in an empty ledger)'}`);
    for (const p of source.problems) say(`ledger: ${p}`);
    if (source.target.embedded && s.target === undefined) {
      out.write(
        'The run used the embedded reference server: its records went with it, and there is nothing to clean up.\n',
      );
      return 0;
    }
    if (source.kind === 'load' && !source.hasLedger)
      return stop(
        'the load report has no ledger.jsonl (it predates load ledgers, or the ledger step could not read the target after the run): use erpcert cleanup --tag <the run tag> --target URL',
      );
    if (s.target !== undefined && s.target !== source.target.url)
      say(`--target ${s.target} instead of the report's target ${source.target.url}`);
  }
  const check = await checkTarget(conn);
  if (!check.ok) return stop(`${check.message}. Nothing was touched.`);

  let plan: CleanupPlan = { act: [], residue: [], alreadyGone: [] };
  const searched: string[] = [];
  const problems: string[] = [...(source?.problems ?? [])];
  const scan = { batch: s.batch, pauseMs: s.pauseMs };
  try {
    if (source && source.entries.length > 0) {
      say(`checking ${source.entries.length} ledger record(s) against the target`);
      const r = await planForReport(conn, source, s);
      plan = r.plan;
      searched.push(...r.searched);
      problems.push(...r.problems);
    } else if (s.tag !== undefined) {
      const registers = WRITTEN_REGISTERS[tagKind(s.tag)!];
      say(`searching ${registers.join(', ')} for records tagged ${s.tag}`);
      const r = await findTagged(conn, s.tag, registers, scan);
      searched.push(...registers);
      problems.push(...r.problems);
      if (r.found.length === 0)
        return stop(
          `no record on the target carries run tag ${s.tag} where runs put it${r.problems.length ? ` (${r.problems.join('; ')})` : ''}: check the tag, --target and --compcode. Nothing was touched.`,
        );
      plan = planFromFound(r.found, conn.compcode);
    }
    if (s.fixtures) {
      say(`searching ${FIXTURE_REGISTERS.join(', ')} for the fixture set ${s.fixturePrefix}`);
      const r = await findFixtures(conn, s.fixturePrefix, FIXTURE_REGISTERS, scan);
      searched.push(...FIXTURE_REGISTERS.filter((x) => !searched.includes(x)));
      problems.push(...r.problems);
      plan = mergePlans(plan, planFromFound(r.found, conn.compcode));
    }
  } catch (e) {
    return stop(
      `the target stopped answering while the records were read: ${(e as Error).message}. Nothing was touched.`,
    );
  }

  if (s.dryRun) {
    out.write(renderPlan(plan));
    for (const p of problems.slice(0, 10)) out.write(`problem: ${p}\n`);
    return 0;
  }
  if (plan.act.length > 0) say(`deleting or closing ${plan.act.length} record(s)`);
  const report = await cleanUp(conn, plan.act, { pace: s.pace, unokUsercode: s.unokUsercode });
  const hint = s.unokUsercode === undefined ? ' (give --unok-usercode to un-confirm a confirmed record first)' : '';
  const residue = [
    ...plan.residue,
    ...report.residue.map((r) => ({
      register: r.register,
      key: r.key,
      company: r.company ?? null,
      status: r.status === 'closed' ? ('closed' as const) : ('failed' as const),
      reason: r.status === 'left' && /unokrecord|locked/i.test(r.reason) ? `${r.reason}${hint}` : r.reason,
    })),
  ];
  const counts = residueCounts(residue);
  const failed = counts.failed > 0 || problems.length > (source?.problems.length ?? 0);
  const doc: CleanupDocument = {
    schema: 'erpcert-cleanup/1',
    tool: { name: 'erpcert', version: erpcertVersion() },
    startedAt: started.toISOString(),
    finishedAt: now().toISOString(),
    source: {
      from: source ? 'report' : s.tag !== undefined ? 'tag' : 'fixtures',
      report: source ? { kind: source.kind, folder: source.folder } : null,
      runTag: runTag ?? null,
      fixturePrefix: s.fixtures ? s.fixturePrefix : null,
    },
    target: {
      url: conn.url,
      user: conn.user ?? null,
      compcode: conn.compcode ?? null,
      companyIn: conn.companyIn,
      portalPath: conn.portalPath,
    },
    searched,
    totals: {
      records: plan.act.length + plan.residue.length + plan.alreadyGone.length,
      deleted: report.deleted,
      alreadyGone: plan.alreadyGone.length + report.alreadyGone,
      ...counts,
    },
    residue,
    problems,
    exitCode: failed ? 1 : 0,
  };
  const dir = s.dir ?? s.out ?? defaultReportDir(io.cwd, 'cleanup', started);
  const file = writeCleanupReport(doc, dir);
  out.write(`\n${renderSummary(doc)}\nReport: ${file}\n`);
  return doc.exitCode;

  function stop(message: string): number {
    say(message);
    return 2;
  }
}
