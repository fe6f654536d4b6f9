/**
 * A model of `pastespecial` (portal-action-api.md §4 operation rules 1 and 2, §8): the searched fields per
 * lookup register, which contacts each lookup covers, and the two readings of "case-insensitive prefix
 * matching" between which a conforming server may sit:
 * - strict: every term is a prefix of a whole searched field value. A record matching this way matches under
 *   any reading, so it must be returned when few enough records match;
 * - loose: every term is a prefix of a word of a searched field (at its start or after a character that is
 *   not a letter or digit). Every result must match at least this way.
 */
import { fieldValue } from './records.js';
import type { RuleContext } from './rule-test.js';

/** The lookup registers (§2 "Registers per operation", pastespecial). */
export const LOOKUP_REGISTERS = ['INVc', 'CUVc', 'VEVc', 'AllCUVc', 'UserVc'] as const;
export type LookupRegister = (typeof LOOKUP_REGISTERS)[number];

/** Searched fields per lookup register (§4 rule 2). */
export const LOOKUP_FIELDS: Readonly<Record<LookupRegister, readonly string[]>> = {
  INVc: ['Code', 'Name'],
  CUVc: ['Code', 'Name', 'RegNr1'],
  VEVc: ['Code', 'Name', 'RegNr1'],
  AllCUVc: ['Code', 'Name', 'RegNr1'],
  UserVc: ['Code', 'Name'],
};

/** The rule naming the searched fields of a lookup register. */
export function searchFieldsRule(register: LookupRegister): string {
  if (register === 'INVc') return 'PORTAL.LOOKUP.SEARCH_FIELDS_INVC';
  if (register === 'UserVc') return 'PORTAL.LOOKUP.SEARCH_FIELDS_USERVC';
  return 'PORTAL.LOOKUP.SEARCH_FIELDS_CONTACTS';
}

/** The REST register whose records a lookup covers (VEVc and AllCUVc are views of the contacts, CUVc). */
export function sourceRegister(register: LookupRegister): 'INVc' | 'CUVc' | 'UserVc' {
  return register === 'INVc' ? 'INVc' : register === 'UserVc' ? 'UserVc' : 'CUVc';
}

/** A record of the source register, as the model needs it. */
export type SourceRecord = Readonly<Record<string, unknown>>;

/**
 * May the lookup return this record? VEVc covers vendors only (§4 rule 2: the contact's `VEType` 1);
 * everything else may come back.
 */
export function mayCover(register: LookupRegister, r: SourceRecord): boolean {
  return register !== 'VEVc' || fieldValue(r, 'VEType') === '1';
}

/**
 * Must the lookup return this record when it matches? AllCUVc covers all contacts; CUVc at least the
 * customers (`CUType` 1: whether it covers suppliers too is not stated); VEVc the vendors; closed users and
 * terminated items may be left out (not stated either way).
 */
export function mustCover(register: LookupRegister, r: SourceRecord): boolean {
  switch (register) {
    case 'CUVc':
      return fieldValue(r, 'CUType') === '1';
    case 'VEVc':
      return fieldValue(r, 'VEType') === '1';
    case 'UserVc':
      return fieldValue(r, 'Closed') !== '1';
    case 'INVc':
      return fieldValue(r, 'Terminated') !== '1';
    default:
      return true;
  }
}

/** The terms of a search text: split at spaces (§4 rule 1), empty parts dropped. */
export function searchTerms(text: string): string[] {
  return text.split(/\s+/).filter((t) => t !== '');
}

function lower(s: string): string {
  return s.toLocaleLowerCase('und');
}

/** The term is a case-insensitive prefix of the whole value. */
export function strictPrefix(value: string, term: string): boolean {
  return lower(value).startsWith(lower(term));
}

/** The term is a case-insensitive prefix of a word of the value (start, or after a non-alphanumeric). */
export function loosePrefix(value: string, term: string): boolean {
  const v = lower(value);
  const t = lower(term);
  for (let i = v.indexOf(t); i >= 0; i = v.indexOf(t, i + 1)) {
    if (i === 0 || !/[\p{L}\p{N}]/u.test(v[i - 1]!)) return true;
  }
  return false;
}

/** Every term matches one of the fields, by `how`. */
export function matchesAll(
  values: readonly string[],
  terms: readonly string[],
  how: (value: string, term: string) => boolean,
): boolean {
  return terms.every((t) => values.some((v) => how(v, t)));
}

/** The searched field values of a record. */
export function searchedValues(register: LookupRegister, r: SourceRecord): string[] {
  return LOOKUP_FIELDS[register].map((f) => fieldValue(r, f));
}

/** Fields read from each source register: the searched ones and those that decide coverage. */
const SOURCE_FIELDS = {
  INVc: 'Code,Name,Terminated',
  CUVc: 'Code,Name,RegNr1,CUType,VEType',
  UserVc: 'Code,Name,Closed',
} as const;

/** The source records of a lookup register read through `/api/1/` (at most `max`), or why they cannot be. */
export async function readLookupSource(
  ctx: RuleContext,
  register: LookupRegister,
  max = 3000,
): Promise<SourceRecord[] | string> {
  const source = sourceRegister(register);
  try {
    const env = await ctx.client.rest.list(source, { fields: SOURCE_FIELDS[source], limit: max + 1 } as never, {
      format: 'json',
    });
    if (env.records.length > max) return `${source} has more than ${max} records`;
    return env.records as SourceRecord[];
  } catch (err) {
    return `${source} cannot be read through /api/1/: ${(err as Error).message.split('\n')[0]}`;
  }
}
