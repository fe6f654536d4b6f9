/**
 * The ledger of a load run (issue 11 §2): after the scenarios, the records on the target that carry the run's tag
 * are written to `ledger.jsonl` in the report folder, in the conformance ledger's format
 * (suites/conformance/src/runner/ledger.ts), so that `erpcert cleanup <folder>` knows what the run created. Both
 * engines write the tag (`runId`, `erpcert-load-1a2b3c4d`) into every record: invoice row `Spec`, journal row
 * `Comment`, the k6 sync scenario's ObjVc `Comment`. Reading the target afterwards is the one way that holds for
 * both engines and for records whose create answer was lost to a timeout.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pinnedConnectGuard } from '@erpcert/client';
import { findTagged } from '../cleanup/find-records.js';
import type { LedgerEntry, TargetConnection } from '../reports/runner.js';

/** The registers each scenario writes into (load/autocannon/src/sequences.ts, load/k6/scenarios). */
export const SCENARIO_REGISTERS: Readonly<Record<string, readonly string[]>> = {
  invoices: ['IVVc'],
  transactions: ['TRVc'],
  sync: ['TRVc', 'ObjVc'],
};

/** What the ledger step needs of the run. */
export interface LoadLedgerRun {
  readonly target: string;
  /** The address the run is pinned to (`--target-guard`): the ledger's reads go there too. */
  readonly connectAddress?: string | undefined;
  readonly user?: string | undefined;
  readonly password?: string | undefined;
  readonly compcode?: number | undefined;
  readonly companyIn?: 'query' | 'path' | undefined;
  readonly portalPath?: string | undefined;
  readonly timeoutMs?: number | undefined;
  /** The run tag the engines wrote. */
  readonly runId?: string | undefined;
}

/** Where the step writes and tells. */
export interface LoadLedgerContext {
  readonly embedded: boolean;
  readonly scenarios: readonly string[];
  readonly outDir: string;
  readonly say: (line: string) => void;
  readonly problems: string[];
  /** Pause between page reads. @defaultValue 1000 */
  readonly pauseMs?: number;
}

/**
 * Writes `ledger.jsonl` for a load run against `--target`. The embedded server's records go with it, so an embedded
 * run gets no ledger. A target that cannot be read leaves a problem in the report, never a failed run.
 */
export async function writeLoadLedger(run: LoadLedgerRun, ctx: LoadLedgerContext): Promise<void> {
  if (ctx.embedded || run.runId === undefined) return;
  const tag = run.runId;
  const registers = [...new Set(ctx.scenarios.flatMap((s) => SCENARIO_REGISTERS[s] ?? []))];
  const file = join(ctx.outDir, 'ledger.jsonl');
  const conn: TargetConnection = {
    url: run.target,
    user: run.user,
    password: run.password,
    compcode: run.compcode,
    companyIn: run.companyIn ?? 'query',
    portalPath: run.portalPath ?? '/WebErpAPI.hal',
    timeoutMs: run.timeoutMs,
    ...(run.connectAddress !== undefined
      ? { guard: pinnedConnectGuard(new URL(run.target).hostname, run.connectAddress) }
      : {}),
  };
  try {
    const result = await findTagged(conn, tag, registers, { pauseMs: ctx.pauseMs ?? 1000, batch: 1000 });
    const at = new Date().toISOString();
    const entries: LedgerEntry[] = [...result.found]
      .sort((a, b) => a.record.sequence - b.record.sequence)
      .map(({ record }) => ({
        register: record.register,
        key: record.key,
        ...(run.compcode !== undefined ? { company: run.compcode } : {}),
        test: `erpcert load ${ctx.scenarios.join(',')}`,
        at,
        tag,
      }));
    mkdirSync(ctx.outDir, { recursive: true });
    writeFileSync(file, entries.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8');
    for (const p of result.problems) ctx.problems.push(`ledger: ${p}`);
    ctx.say(
      `run tag ${tag}: ${entries.length} record(s) on the target carry it, listed in ledger.jsonl (erpcert cleanup <report folder> removes them)`,
    );
  } catch (err) {
    const message = `ledger: the target could not be read after the run (${(err as Error).message}); erpcert cleanup --tag ${tag} finds the run's records later`;
    ctx.problems.push(message);
    ctx.say(message);
  }
}
