/**
 * The fixture set (issue 11 "Fixtures that are reused, not re-created"): data the suite needs but cannot
 * remove through the documented APIs stays on the target as one named set with stable codes under one
 * prefix, distinct from the per-run tag. A run looks the set up, creates what is missing, repairs what a
 * person changed, and never ledgers it (the cleanup leaves it alone). This module is the scheme only, with no
 * I/O, so that the CLI (reports, `erpcert cleanup`) can recognise fixture records without the harness.
 *
 * Scheme: `<prefix><set><nn>`, e.g. `ERPCERT-FX-LK01` .. `ERPCERT-FX-LK55`: the prefix (`--fixture-prefix`,
 * `ERPCERT_FIXTURE_PREFIX`, default {@link DEFAULT_FIXTURE_PREFIX}), a two-letter set code, a two-digit number
 * from 01. A record is a fixture of a prefix when its key starts with that prefix.
 */

/** The prefix of every fixture code unless `--fixture-prefix` says otherwise. */
export const DEFAULT_FIXTURE_PREFIX = 'ERPCERT-FX-';

/**
 * What a fixture prefix may look like: 4 to 16 upper-case letters, digits or `-`, starting with a letter. No
 * space (a lookup term is one word), and never the shape of a run tag (`EC` and four characters), so that a
 * run's cleanup and the fixture set cannot be mistaken for each other.
 */
export const FIXTURE_PREFIX_PATTERN = /^[A-Z][A-Z0-9-]{3,15}$/;

/** Why a prefix cannot be used, or undefined when it can. */
export function fixturePrefixProblem(prefix: string): string | undefined {
  if (!FIXTURE_PREFIX_PATTERN.test(prefix))
    return `a fixture prefix is 4 to 16 upper-case letters, digits or '-', starting with a letter (e.g. ${DEFAULT_FIXTURE_PREFIX}), got ${JSON.stringify(prefix)}`;
  if (/^EC[0-9A-Z]{4}/.test(prefix)) return `a fixture prefix must not start like a run tag (EC and 4 characters)`;
  return undefined;
}

/** One set of fixture records: one register, `count` records numbered from 01. */
export interface FixtureSetSpec {
  /** Stable name of the set in reports. */
  readonly id: string;
  /** Two-letter set code inside the record codes. */
  readonly code: string;
  readonly register: string;
  /** The key field that holds the fixture code. */
  readonly keyField: string;
  readonly count: number;
  /** What the set is for. */
  readonly purpose: string;
  /** Why it stays on the target between runs. */
  readonly why: string;
  /** The rules that need it. */
  readonly rules: readonly string[];
}

/**
 * More than 50 items whose Code starts with one term: `pastespecial` caps at 50 (PORTAL.LOOKUP.CAP50) and does
 * not page (PORTAL.LIMITS.LOOKUP_NO_PAGINATION). Items have no documented delete (portal-action-api.md §2
 * "Registers per operation": `delete` does not serve INVc), so each run used to leave 55 closed items behind.
 */
export const LOOKUP_ITEMS: FixtureSetSpec = {
  id: 'lookup-items',
  code: 'LK',
  register: 'INVc',
  keyField: 'Code',
  count: 55,
  purpose: 'more than 50 items matching one lookup term, for the pastespecial cap and its absent paging',
  why: 'items (INVc) have no documented delete; closing them (Terminated=1) would leave them behind every run',
  rules: ['PORTAL.LOOKUP.CAP50', 'PORTAL.LIMITS.LOOKUP_NO_PAGINATION', 'PORTAL.LOOKUP.INVC_FIELDS'],
};

/** Every fixture set of the suite. */
export const FIXTURE_SETS: readonly FixtureSetSpec[] = [LOOKUP_ITEMS];

/** The code of record `n` (1-based) of a set: `<prefix><set code><nn>`. */
export function fixtureCode(prefix: string, set: FixtureSetSpec, n: number): string {
  return `${prefix}${set.code}${String(n).padStart(2, '0')}`;
}

/** Every code of a set, in order. */
export function fixtureCodes(prefix: string, set: FixtureSetSpec): string[] {
  return Array.from({ length: set.count }, (_, i) => fixtureCode(prefix, set, i + 1));
}

/** The lookup term that matches every record of a set (and nothing else of the target, by the prefix). */
export function fixtureTerm(prefix: string, set: FixtureSetSpec): string {
  return `${prefix}${set.code}`;
}

/** True when a record key belongs to the fixture set of `prefix` (what `erpcert cleanup` must not remove). */
export function isFixtureCode(key: string, prefix: string = DEFAULT_FIXTURE_PREFIX): boolean {
  return key.startsWith(prefix);
}

/** The field values a fixture record holds; a run puts back any that a person changed. */
export function fixtureFields(prefix: string, set: FixtureSetSpec, n: number): Record<string, string> {
  const code = fixtureCode(prefix, set, n);
  if (set.id === LOOKUP_ITEMS.id)
    return {
      Code: code,
      Name: `${prefix}${set.code} erpcert lookup fixture ${String(n).padStart(2, '0')}`,
      UPrice1: '10',
    };
  return { [set.keyField]: code };
}

/** The one-line description of the scheme that results.json carries. */
export function fixtureSchemeText(prefix: string): string {
  return `<prefix><set code><nn>: ${prefix} + a two-letter set code + 01..; a record whose key starts with ${prefix} is a fixture`;
}
