/**
 * The account of the fixture set that the workers leave in the run folder (fixture-set.ts) and the report reads
 * (`erpcert conform`): one JSON line per worker and set, what it found and did.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** What one worker found and did for one fixture set. */
export interface FixtureAccount {
  readonly set: string;
  readonly register: string;
  readonly prefix: string;
  readonly expected: number;
  /** Records of the set on the target after this worker's turn. */
  readonly present: number;
  readonly created: number;
  readonly repaired: number;
  /** Codes still missing (readonly profile, or the target refused to create them). */
  readonly missing: readonly string[];
  /** Why records are missing, when the target said so. */
  readonly reason?: string;
  readonly readonly: boolean;
  readonly at: string;
}

/** The run folder's files of the fixture set: the lock of the workers and the accounts the report reads. */
export function fixtureFiles(ledger: string): { lock: string; accounts: string } {
  const dir = dirname(ledger);
  const stem = basename(ledger) === 'ledger.jsonl' ? '' : `${basename(ledger, '.jsonl')}-`;
  return { lock: join(dir, `${stem}fixtures.lock`), accounts: join(dir, `${stem}fixtures.jsonl`) };
}

/** Reads the accounts the workers wrote (malformed lines are skipped). */
export function readFixtureAccounts(file: string): FixtureAccount[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      if (line.trim() === '') return [];
      try {
        return [JSON.parse(line) as FixtureAccount];
      } catch {
        return [];
      }
    });
}
