/**
 * Finds on the target the records of a run (by its tag, in the places runs put it) or of the fixture set (by the
 * fixture prefix of their code). Reads only.
 */
import { CLOSE_FIELDS, type TargetConnection, UNOK_DELETE_REGISTERS } from '../reports/runner.js';
import { ScanError, type ScanOptions, scanRegister } from './record-scan.js';
import { hasFixturePrefix, type ScannedRecord, TAG_PLACES, tagPlaceOf } from './tag-match.js';

/** A record found, and where it carries the tag (`key`, `rows[].Spec`) or `fixture prefix`. */
export interface FoundRecord {
  readonly record: ScannedRecord;
  readonly place: string;
}

/** The outcome of a search: what was found, what was read, what could not be read and why. */
export interface SearchResult {
  readonly found: readonly FoundRecord[];
  /** Every record read, per register: the ledger check needs to tell "gone" from "not tagged". */
  readonly read: ReadonlyMap<string, readonly ScannedRecord[]>;
  readonly problems: readonly string[];
}

/** The fields the cleanup reads of a register: its tag places, its close field, OKFlag where un-confirming applies. */
export function scanFields(register: string): string[] {
  const fields = (TAG_PLACES[register] ?? []).map((p) => p.field);
  const close = CLOSE_FIELDS[register];
  if (close) fields.push(close);
  if (UNOK_DELETE_REGISTERS.includes(register)) fields.push('OKFlag');
  return fields;
}

async function search(
  conn: TargetConnection,
  registers: readonly string[],
  match: (r: ScannedRecord) => string | undefined,
  options: ScanOptions,
): Promise<SearchResult> {
  const found: FoundRecord[] = [];
  const read = new Map<string, ScannedRecord[]>();
  const problems: string[] = [];
  for (const [i, register] of registers.entries()) {
    if (i > 0 && (options.pauseMs ?? 1000) > 0) await new Promise((r) => setTimeout(r, options.pauseMs ?? 1000));
    try {
      const records = await scanRegister(conn, register, scanFields(register), options);
      read.set(register, records);
      for (const record of records) {
        const place = match(record);
        if (place !== undefined) found.push({ record, place });
      }
    } catch (err) {
      if (!(err instanceof ScanError)) throw err;
      problems.push(`${register} could not be searched: ${err.message}`);
    }
  }
  return { found, read, problems };
}

/** The records of `registers` that carry the run tag. Throws TargetUnreachableError when the target stops answering. */
export function findTagged(
  conn: TargetConnection,
  tag: string,
  registers: readonly string[],
  options: ScanOptions = {},
): Promise<SearchResult> {
  return search(conn, registers, (r) => tagPlaceOf(r, tag), options);
}

/** The records of `registers` whose code starts with the fixture prefix. */
export function findFixtures(
  conn: TargetConnection,
  prefix: string,
  registers: readonly string[],
  options: ScanOptions = {},
): Promise<SearchResult> {
  return search(conn, registers, (r) => (hasFixturePrefix(r, prefix) ? 'fixture prefix' : undefined), options);
}
