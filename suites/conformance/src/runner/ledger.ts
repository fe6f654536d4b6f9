/**
 * The run's ledger (DESIGN.md "Running against somebody's staging ERP"): every record a test creates on the
 * target is appended here, one JSON object per line, by whichever worker created it. The runner reads it
 * after the run and deletes or closes every record in it (cleanup.ts). The file path reaches the workers
 * in `ERPCERT_LEDGER` (TARGET_ENV.ledger).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

/** One record the run created, or (with `gone`) one that a test removed again itself. */
export interface LedgerEntry {
  /** Register code as the docs spell it (`IVVc`). */
  readonly register: string;
  /** The record key as in `@url` after `/api/1/<register>/`: composite keys `/`-joined, parts not encoded. */
  readonly key: string;
  /** Company the record was created in; absent for the target's default company. */
  readonly company?: number;
  /** The test that created it. */
  readonly test?: string;
  /** ISO 8601 time of creation. */
  readonly at?: string;
  /** Set when a test deleted the record itself (the cleanup skips it). */
  readonly gone?: boolean;
  /** The run tag the record carries, where the ledger's folder does not name it (load runs: `erpcert-load-1a2b3c4d`). */
  readonly tag?: string;
  /**
   * Set when the documented APIs cannot remove what the test made (a callback registration, a signing session):
   * why. The cleanup sends nothing for it and lists it as residue with this reason.
   */
  readonly permanent?: string;
}

/**
 * Appends one entry. One `appendFileSync` per line: each line is a single write to a file opened for
 * appending, so lines from parallel workers do not interleave.
 */
export function appendLedger(file: string, entry: LedgerEntry): void {
  appendFileSync(file, `${JSON.stringify(entry)}\n`, 'utf8');
}

/** The ledger read back. */
export interface LedgerContents {
  /** Records still to clean up, in creation order, each once (the latest line of a key wins). */
  readonly entries: readonly LedgerEntry[];
  /** Lines that could not be read, with their line numbers. */
  readonly problems: readonly string[];
}

const identity = (e: Pick<LedgerEntry, 'register' | 'key' | 'company'>) =>
  `${e.register}\u0000${e.key}\u0000${e.company ?? ''}`;

/** Reads the ledger; a missing file is an empty ledger (a run that created nothing). */
export function readLedger(file: string): LedgerContents {
  if (!existsSync(file)) return { entries: [], problems: [] };
  const open = new Map<string, LedgerEntry>();
  const problems: string[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        problems.push(`ledger line ${i + 1}: not JSON`);
        return;
      }
      const e = parsed as Partial<LedgerEntry>;
      if (typeof e.register !== 'string' || typeof e.key !== 'string' || e.register === '' || e.key === '') {
        problems.push(`ledger line ${i + 1}: needs "register" and "key" strings`);
        return;
      }
      if (e.company !== undefined && !Number.isInteger(e.company)) {
        problems.push(`ledger line ${i + 1}: "company" must be an integer`);
        return;
      }
      if (e.tag !== undefined && typeof e.tag !== 'string') {
        problems.push(`ledger line ${i + 1}: "tag" must be a string`);
        return;
      }
      if (e.permanent !== undefined && (typeof e.permanent !== 'string' || e.permanent === '')) {
        problems.push(`ledger line ${i + 1}: "permanent" must be a non-empty string`);
        return;
      }
      const id = identity(e as LedgerEntry);
      open.delete(id);
      if (e.gone !== true) open.set(id, e as LedgerEntry);
    });
  return { entries: [...open.values()], problems };
}
