/**
 * Step 3 of `erpcert conform` (cleanup): reads the run's ledger and deletes or closes what the run created,
 * or (with `--no-cleanup`) lists it all as left.
 */
import type { CleanupInfo } from '@erpcert/runs';
import { cleanUp, readLedger, type TargetConnection } from '../reports/runner.js';
import { type ConformSettings, EMBEDDED_DEFAULT } from './conform-settings.js';

/** What the cleanup did, and the ledger lines it could not read. */
export interface CleanupStep {
  readonly cleanup: CleanupInfo;
  readonly problems: readonly string[];
}

/** Removes the records the ledger lists (unless `--no-cleanup`). */
export async function cleanupStep(
  s: ConformSettings,
  conn: TargetConnection,
  ledger: string,
  runTag: string,
  say: (line: string) => void,
): Promise<CleanupStep> {
  const { entries, problems } = readLedger(ledger);
  if (!s.cleanup) {
    const residue = entries.map((e) => ({
      register: e.register,
      key: e.key,
      company: e.company ?? null,
      status: 'left' as const,
      // what no documented operation removes stays for its own reason, cleanup or not
      reason: e.permanent ?? 'cleanup turned off (--no-cleanup)',
    }));
    return { cleanup: { ledgerEntries: entries.length, deleted: 0, alreadyGone: 0, residue }, problems };
  }
  if (entries.length === 0) return { cleanup: { ledgerEntries: 0, deleted: 0, alreadyGone: 0, residue: [] }, problems };
  say(`cleaning up ${entries.length} record(s) of run ${runTag}`);
  const unokUsercode = s.unokUsercode ?? (s.target === undefined ? EMBEDDED_DEFAULT.unokUsercode : undefined);
  const report = await cleanUp(conn, entries, { pace: s.pace, unokUsercode });
  return {
    cleanup: {
      ...report,
      residue: report.residue.map((r) => ({
        register: r.register,
        key: r.key,
        company: r.company ?? null,
        status: r.status,
        reason: r.reason,
      })),
    },
    problems,
  };
}
