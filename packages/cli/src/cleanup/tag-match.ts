/**
 * Which records a run made, told by the run tag in the fields where runs put it (DESIGN.md "Running against
 * somebody's staging ERP"), and which belong to the fixture set, told by the fixture prefix of their code.
 * `erpcert cleanup` touches no other record: a tag elsewhere, in another case or as part of a longer word
 * does not count.
 */
import { getRegister, registers } from '@erpcert/contract';
import { RUN_TAG_PATTERN } from '../reports/runner.js';

/** What made the tag: `erpcert conform` (`EC4K2Q`) or `erpcert load` (`erpcert-load-1a2b3c4d`). */
export type TagKind = 'conformance' | 'load';

/** A load run's tag (load/autocannon newLoadRunTag): `erpcert-load-` and 8 lower-case hex digits. */
export const LOAD_RUN_TAG_PATTERN = /^erpcert-load-[0-9a-f]{8}$/;

/** The kind of a run tag, or undefined when it is neither kind. */
export function tagKind(tag: string): TagKind | undefined {
  if (RUN_TAG_PATTERN.test(tag)) return 'conformance';
  if (LOAD_RUN_TAG_PATTERN.test(tag)) return 'load';
  return undefined;
}

/**
 * A field a run writes its tag into. `code`: the value starts with the tag and the 7 characters of the
 * conformance harness's uniqueCode (`EC4K2Q` + `7ZA0003`); `text`: one of its space-separated words is the tag,
 * or the tag and `-` and more (`erpcert-load-1a2b3c4d-17`, `erpcert load erpcert-load-1a2b3c4d`, `EC4K2Q credit`).
 */
export interface TagPlace {
  readonly field: string;
  /** A row field (`rows[].Spec`) instead of a header field. */
  readonly row: boolean;
  readonly mode: 'code' | 'text';
}

/**
 * The text places per register, from what the runs write: the conformance harness (row `Spec` of documents,
 * `RefStr` of purchase invoices, `Comment` of EPOrderDocVc) and both load engines (invoice row `Spec`, journal
 * row `Comment`, the k6 sync scenario's ObjVc `Comment`). Every register's key counts as a code place too.
 */
export const TAG_PLACES: Readonly<Record<string, readonly TagPlace[]>> = {
  IVVc: [{ field: 'Spec', row: true, mode: 'text' }],
  ORVc: [{ field: 'Spec', row: true, mode: 'text' }],
  VIVc: [{ field: 'RefStr', row: false, mode: 'code' }],
  EPOrderDocVc: [{ field: 'Comment', row: false, mode: 'text' }],
  TRVc: [{ field: 'Comment', row: true, mode: 'text' }],
  ObjVc: [{ field: 'Comment', row: false, mode: 'text' }],
};

/** The registers each kind of run writes into: what `erpcert cleanup --tag` searches. */
export const WRITTEN_REGISTERS: Readonly<Record<TagKind, readonly string[]>> = {
  conformance: ['CUVc', 'INVc', 'IVVc', 'ORVc', 'VIVc', 'EPOrderDocVc'],
  load: ['IVVc', 'TRVc', 'ObjVc'],
};

/** Key fields of registers outside the documented table that runs write into. */
const EXTRA_KEYS: Readonly<Record<string, readonly string[]>> = { EPOrderDocVc: ['SerNr'] };

/** The key fields of a register, in `@url` order. */
export function keyFields(register: string): readonly string[] {
  return getRegister(register)?.key ?? EXTRA_KEYS[register] ?? ['SerNr'];
}

/** A record as the cleanup reads it: key, header and row values of the fields it asked for. */
export interface ScannedRecord {
  readonly register: string;
  /** Key parts `/`-joined, not encoded (runner/ledger.ts). */
  readonly key: string;
  /** `@sequence`, for the order of creation. */
  readonly sequence: number;
  readonly fields: Readonly<Record<string, string>>;
  readonly rows: readonly Readonly<Record<string, string>>[];
}

function codeCarries(value: string, tag: string): boolean {
  return value.startsWith(tag) && /^[0-9A-Z]{7}/.test(value.slice(tag.length));
}

function textCarries(value: string, tag: string): boolean {
  return value.split(/\s+/).some((word) => word === tag || word.startsWith(`${tag}-`));
}

/** Whether a value carries the tag the way `place` holds it (code places only for conformance tags). */
export function valueCarriesTag(value: string, tag: string, mode: TagPlace['mode']): boolean {
  if (mode === 'code') return tagKind(tag) === 'conformance' && codeCarries(value, tag);
  return textCarries(value, tag);
}

/** Where the record carries the tag (`key`, `Spec`, `rows[].Comment`), or undefined when it does not. */
export function tagPlaceOf(record: ScannedRecord, tag: string): string | undefined {
  if (record.key.split('/').some((part) => valueCarriesTag(part, tag, 'code'))) return 'key';
  for (const place of TAG_PLACES[record.register] ?? []) {
    const values = place.row ? record.rows.map((r) => r[place.field] ?? '') : [record.fields[place.field] ?? ''];
    if (values.some((v) => valueCarriesTag(v, tag, place.mode)))
      return place.row ? `rows[].${place.field}` : place.field;
  }
  return undefined;
}

/** The places of a register's tag, for messages: `key, rows[].Spec`. */
export function tagPlacesText(register: string): string {
  return ['key', ...(TAG_PLACES[register] ?? []).map((p) => (p.row ? `rows[].${p.field}` : p.field))].join(', ');
}

/**
 * Registers that can hold a fixture set: the writable registers of the table (record-rest-api.md §2) keyed by one
 * code (`Code`, `AccNumber`), not by a serial number.
 */
export const FIXTURE_REGISTERS: readonly string[] = registers
  .filter((r) => !r.readOnly && r.key.length === 1 && r.key[0] !== 'SerNr')
  .map((r) => r.name);

/** Whether the record's code (its one key part) starts with the fixture prefix, case included. */
export function hasFixturePrefix(record: Pick<ScannedRecord, 'key'>, prefix: string): boolean {
  return !record.key.includes('/') && record.key.startsWith(prefix);
}
