import { join } from 'node:path';
import { createClient, erpcertVersion, isErpClientError, pinnedConnectGuard } from '@erpcert/client';
import type { Resolver } from '@erpcert/contract';
import type { BaselineComparison, LoadRunDocument, LoadScenarioEntry } from '@erpcert/runs';
import {
  baselineText,
  catalogueEntry,
  compareWithBaseline,
  failedEntry,
  readLoadRun,
  scenarioEntry,
} from '@erpcert/runs';
import type { CommandIO } from '../command.js';
import type { OptionValues } from '../options.js';
import { maskingWriter, runMasker } from '../reports/secrets.js';
import { type EmbeddedServer, startEmbeddedServer } from './embedded-server.js';
import { engineLine } from './engine-line.js';
import {
  K6Error,
  k6MissingHint,
  k6Path,
  LoadConfigError,
  type LoadRunOptions,
  type LoadScenarioResult,
  LoadTargetError,
  newLoadRunTag,
  runAutocannonScenario,
  runK6Scenario,
  type ScenarioName,
} from './engines.js';
import { writeLoadLedger } from './load-ledger.js';
import { type LoadSettings, loadSettings, shownPath } from './load-settings.js';
import { latencyTable, limitText, type Table, verdictTable } from './report-sections.js';
import { pinTarget } from './target-pin.js';
import { writeLoadReports } from './write-load-reports.js';

const EMBEDDED = { user: 'erpcert', password: 'erpcert', compcode: 1 } as const;
/** A saturation step whose p99 reaches this has broken (the docs give no latency bound). */
export const SATURATION_P99_MS = 2000;

/** Test seams of {@link runLoad}. */
export interface LoadHooks {
  readonly now?: () => Date;
  /** Where k6 is (undefined: not built). @defaultValue the k6 engine's k6Path() */
  readonly k6Path?: () => string | undefined;
  /** Listen for SIGINT/SIGTERM. @defaultValue true */
  readonly signals?: boolean;
  readonly signal?: AbortSignal;
  /** Resolves the target's host for `--target-guard`. @defaultValue the system resolver */
  readonly resolver?: Resolver;
}

/** A configuration or target problem: the run stops with exit code 2. */
class LoadStop extends Error {}

function engineChoice(s: LoadSettings, k6: string | undefined): { engine: 'k6' | 'autocannon'; note: string } {
  if (s.engine === 'k6') {
    if (!k6) throw new LoadStop(`--engine k6, but k6 is not built: ${k6MissingHint()}; or use --engine autocannon`);
    return { engine: 'k6', note: `asked for with --engine k6 (${engineLine('k6', k6)})` };
  }
  if (s.engine === 'autocannon')
    return { engine: 'autocannon', note: `asked for with --engine autocannon (${engineLine('autocannon')})` };
  return k6
    ? { engine: 'k6', note: `k6 is built (${engineLine('k6', k6)}); --engine autocannon for the Node-only run` }
    : {
        engine: 'autocannon',
        note: `k6 is not built (${k6MissingHint()}), so the Node-only autocannon engine runs meanwhile`,
      };
}

/** Checks that the target answers `GET /api/1/` with the credentials (record-rest-api.md §4 "API root"). */
async function checkTarget(o: LoadRunOptions): Promise<void> {
  const erp = createClient({
    baseUrl: o.target,
    ...(o.user !== undefined && o.password !== undefined ? { auth: { user: o.user, password: o.password } } : {}),
    companyIn: o.companyIn ?? 'query',
    ...(o.compcode !== undefined ? { compcode: o.compcode } : {}),
    timeoutMs: o.timeoutMs ?? 10_000,
    ...(o.connectAddress !== undefined
      ? { connectGuard: pinnedConnectGuard(new URL(o.target).hostname, o.connectAddress) }
      : {}),
  });
  try {
    await erp.rest.root();
  } catch (err) {
    const e = err as Error & { kind?: string; status?: number };
    if (isErpClientError(err) && e.kind === 'transport')
      throw new LoadStop(`the target ${o.target} cannot be reached: ${e.message}`);
    if (e.status === 401 || e.status === 403)
      throw new LoadStop(`the target refused the credentials (HTTP ${e.status}): check --user and --password`);
    throw new LoadStop(`GET /api/1/ on the target failed: ${e.message}`);
  } finally {
    erp.close();
  }
}

/** The stepped run of a rate scenario: doubling from its rate up to --max-rate at most, then bisection. */
function saturationFor(name: ScenarioName, s: LoadSettings, base: LoadRunOptions) {
  const figure = catalogueEntry(name).documented as { ratePerSecond?: { min: number; max: number } };
  if (!figure.ratePerSecond) return undefined;
  const start = Math.min(base.rate ?? figure.ratePerSecond.max, s.maxRate);
  return {
    start,
    maxRate: s.maxRate,
    p99LimitMs: SATURATION_P99_MS,
    maxSteps: s.saturationStages,
    stageSeconds: s.saturationStageSeconds,
  };
}

function tableText(t: Table, columns: readonly number[]): string {
  const rows = [t.head, ...t.rows].map((r) => columns.map((i) => r[i] ?? ''));
  const widths = columns.map((_, j) => Math.max(...rows.map((r) => r[j]!.length)));
  return rows
    .map((r) =>
      r
        .map((c, j) => c.padEnd(widths[j]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function commandLine(s: LoadSettings): string {
  const parts = ['erpcert load'];
  if (s.target) parts.push(`--target ${s.target}`);
  if (s.user) parts.push(`--user ${s.user}`);
  if (s.compcode !== undefined) parts.push(`--compcode ${s.compcode}`);
  if (s.companyIn !== 'query') parts.push(`--company-in ${s.companyIn}`);
  if (s.portalPath !== '/WebErpAPI.hal') parts.push(`--portal-path ${s.portalPath}`);
  parts.push(`--scenario ${s.scenarios.length === 6 ? 'all' : s.scenarios.join(',')}`);
  if (s.engine) parts.push(`--engine ${s.engine}`);
  parts.push(`--duration ${s.durationSeconds}`);
  if (s.rate !== undefined) parts.push(`--rate ${s.rate}`);
  if (!s.target && s.seedSize !== 10_000) parts.push(`--seed-size ${s.seedSize}`);
  return parts.join(' ');
}

/** `erpcert load`: see the command's --help and the README "Load tests and benchmarking reports". */
export async function runLoad(values: OptionValues, io: CommandIO, hooks: LoadHooks = {}): Promise<number> {
  const now = hooks.now ?? (() => new Date());
  const started = now();
  const s = loadSettings(values, io.cwd, started);
  const embedded = s.target === undefined;
  const user = s.user ?? (embedded ? EMBEDDED.user : undefined);
  const password = s.password ?? (embedded ? EMBEDDED.password : undefined);
  const masker = runMasker(user, password);
  const out = maskingWriter(io.out, masker);
  const err = maskingWriter(io.err, masker);
  const say = (line: string) => err.write(`erpcert load: ${line}\n`);
  // --target-guard: resolved and checked once, the whole run pinned to the checked address (target-pin.ts)
  let connectAddress: string | undefined;
  if (s.targetGuard !== undefined && s.target !== undefined) {
    const pin = await pinTarget(s.targetGuard.guard, s.target, hooks.resolver);
    if (!pin.ok) {
      say(`${pin.message}. Nothing was run.`);
      return 2;
    }
    say(pin.note);
    connectAddress = pin.address;
  }
  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (abort.signal.aborted) return;
    say(`${signal}: stopping the load, then writing what was measured`);
    abort.abort();
  };
  if (hooks.signal?.aborted) abort.abort();
  else hooks.signal?.addEventListener('abort', () => abort.abort(), { once: true });
  if (hooks.signals !== false) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  let server: EmbeddedServer | undefined;
  const entries: LoadScenarioEntry[] = [];
  const problems: string[] = [];
  let baseline: BaselineComparison | null = null;
  let choice: { engine: 'k6' | 'autocannon'; note: string } = { engine: 'autocannon', note: '' };
  let url = s.target ?? '';
  try {
    choice = engineChoice(s, (hooks.k6Path ?? k6Path)());
    say(`engine ${choice.engine}: ${choice.note}`);
    const baselineDoc = s.baseline !== undefined ? readBaseline(s.baseline) : undefined;
    if (embedded) {
      say(`no --target: starting the embedded reference server with ${s.seedSize} journal entries (seed size)`);
      server = await startEmbeddedServer({ seedSize: s.seedSize, user: user!, password: password! }).catch((e) => {
        throw new LoadStop((e as Error).message);
      });
      url = server.url;
      say(`embedded reference server at ${url}`);
    }
    const base: LoadRunOptions = {
      scenario: 'invoices',
      target: url,
      ...(connectAddress !== undefined ? { connectAddress } : {}),
      ...(user !== undefined ? { user } : {}),
      ...(password !== undefined ? { password } : {}),
      companyIn: s.companyIn,
      ...((s.compcode ?? (embedded ? EMBEDDED.compcode : undefined)) !== undefined
        ? { compcode: s.compcode ?? EMBEDDED.compcode, compno: String(s.compcode ?? EMBEDDED.compcode) }
        : {}),
      portalPath: s.portalPath,
      ...(s.usercode !== undefined ? { usercode: s.usercode } : {}),
      ...(s.portalcc !== undefined ? { portalcc: s.portalcc } : {}),
      durationSeconds: s.durationSeconds,
      ...(s.rate !== undefined ? { rate: s.rate } : {}),
      timeoutMs: s.timeoutMs,
      batchSizes: s.batchSizes,
      pauseMs: s.pauseMs,
      runId: newLoadRunTag(),
      signal: abort.signal,
      // the embedded server's thread: each saturation step records the target's CPU beside the generator's
      ...(server ? { targetCpuMicros: server.cpuMicros } : {}),
    };
    if (!embedded) await checkTarget(base);
    const saturate = s.saturation ?? embedded;
    for (const [i, name] of s.scenarios.entries()) {
      if (abort.signal.aborted) break;
      say(`[${i + 1}/${s.scenarios.length}] ${name} (${catalogueEntry(name).title}) on ${choice.engine}`);
      const options: LoadRunOptions = { ...base, scenario: name };
      const main = await runOne(choice.engine, options, s, say, problems);
      let stepped: LoadScenarioResult | LoadScenarioEntry | undefined;
      const sat = saturate && main.verdict !== 'fail' ? saturationFor(name, s, base) : undefined;
      if (sat && !abort.signal.aborted) {
        say(
          `${name}: saturation steps from ${sat.start}/s, doubling until something breaks (at most ${sat.maxRate}/s, ${sat.maxSteps} steps), then bisection; ${sat.stageSeconds} s each`,
        );
        stepped = await runOne(choice.engine, { ...options, saturation: sat }, s, say, problems);
      }
      const entry = 'comparison' in main ? main : scenarioEntry(main, stepped);
      entries.push(entry);
      say(`${name}: ${entry.verdict.toUpperCase()} ${entry.reason}`);
      if (entry.saturationVerdict) say(`${name}: saturation ${limitText(entry.saturationVerdict)}`);
    }
    await writeLoadLedger(base, { embedded, scenarios: s.scenarios, outDir: s.outDir, say, problems });
    if (baselineDoc) baseline = compareWithBaseline(entries, baselineDoc, shownPath(s.baseline!, io.cwd));
  } catch (e) {
    if (e instanceof LoadStop || e instanceof LoadConfigError || (e instanceof K6Error && e.kind !== 'vendor')) {
      say(`${e.message}. Nothing more was run.`);
      problems.push(e.message);
      return finish(2);
    }
    throw e;
  } finally {
    if (hooks.signals !== false) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    await server?.close();
  }
  const failed = entries.some((e) => e.verdict === 'fail');
  return finish(abort.signal.aborted ? 2 : failed ? 1 : 0);

  function finish(exitCode: 0 | 1 | 2): number {
    const finished = now();
    const doc: LoadRunDocument = {
      schema: 'erpcert-load-results/1',
      tool: { name: 'erpcert', version: erpcertVersion() },
      run: {
        startedAt: started.toISOString(),
        finishedAt: finished.toISOString(),
        durationSeconds: Math.max(0, Math.round((finished.getTime() - started.getTime()) / 10) / 100),
        engine: choice.engine,
        engineNote: choice.note,
        target: {
          url,
          embedded,
          seedSize: embedded ? s.seedSize : null,
          user: user ?? null,
          compcode: s.compcode ?? (embedded ? EMBEDDED.compcode : null),
          companyIn: s.companyIn,
          portalPath: s.portalPath,
        },
        settings: {
          scenarios: s.scenarios,
          durationSeconds: s.durationSeconds,
          rate: s.rate ?? null,
          pauseMs: s.pauseMs,
          batchSizes: s.batchSizes,
          timeoutMs: s.timeoutMs,
          saturation:
            (s.saturation ?? embedded)
              ? { stages: s.saturationStages, stageSeconds: s.saturationStageSeconds, maxRate: s.maxRate }
              : null,
        },
        command: commandLine(s),
        outcome: exitCode === 0 ? 'pass' : exitCode === 1 ? 'fail' : 'error',
        exitCode,
        interrupted: abort.signal.aborted,
      },
      scenarios: entries,
      baseline,
      problems,
    };
    const written = writeLoadReports(doc, s.outDir, masker);
    if (written.schemaErrors.length > 0)
      say(
        `results.json does not match load-results.schema.json (a bug of erpcert): ${written.schemaErrors.slice(0, 3).join('; ')}`,
      );
    if (entries.length > 0) {
      out.write(
        `\n${tableText(verdictTable(doc), [0, 1, 2, 3, 4])}\n\n${tableText(latencyTable(doc), [0, 1, 2, 3, 4, 5, 6])}\n`,
      );
      for (const e of entries.filter((x) => x.verdict === 'fail')) out.write(`\nFAIL ${e.scenario}: ${e.reason}\n`);
      for (const e of entries.filter((x) => x.saturationVerdict))
        out.write(`\nSaturation ${e.scenario}: ${limitText(e.saturationVerdict!)}\n`);
    }
    if (baseline) out.write(`\n${baselineText(baseline)}`);
    out.write(`\nReports: ${s.outDir}\n`);
    return exitCode;
  }
}

function readBaseline(dir: string) {
  try {
    return readLoadRun(dir);
  } catch (e) {
    throw new LoadStop(`--baseline: ${(e as Error).message}`);
  }
}

/**
 * One engine run; a target that cannot serve the scenario (its setup failed) or an engine that crashed gives a
 * failed entry with the reason, so the other scenarios still run.
 */
async function runOne(
  engine: 'k6' | 'autocannon',
  o: LoadRunOptions,
  s: LoadSettings,
  say: (line: string) => void,
  problems: string[],
): Promise<LoadScenarioResult | LoadScenarioEntry> {
  try {
    if (engine === 'k6')
      return await runK6Scenario({
        ...o,
        outDir: join(s.outDir, 'k6', o.saturation ? 'saturation' : ''),
        ...(s.dashboard
          ? {
              webDashboardExport: join(
                s.outDir,
                'k6',
                `${o.scenario}${o.saturation ? '-saturation' : ''}-dashboard.html`,
              ),
              // k6 v2.2.0 wrote no export for runs shorter than about three aggregation periods (default 10 s; tried by hand)
              env: { K6_WEB_DASHBOARD_PERIOD: '1s' },
            }
          : {}),
      });
    return await runAutocannonScenario({
      ...o,
      outDir: join(s.outDir, 'autocannon', o.saturation ? 'saturation' : ''),
      onOutput: (text) => {
        for (const line of text.split('\n')) if (line.trim()) say(line.trim());
      },
    });
  } catch (e) {
    if (e instanceof LoadTargetError || (e instanceof K6Error && e.kind === 'vendor')) {
      problems.push(`${o.scenario}: ${e.message}`);
      return failedEntry(o.scenario, engine, `the scenario could not run: ${e.message}`);
    }
    throw e;
  }
}
