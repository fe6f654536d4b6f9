/**
 * The shape of one record (record-rest-api.md §2 "Record", "Registers, keys and main fields", "Row types",
 * §3 OKFlag, §4 rule 11). One check per rule (STYLE.md, schemathesis: one function per check): a test of
 * one rule runs only that rule's check, so a broken behaviour fails the rule it breaks and no other;
 * {@link recordViolations} runs them all and collects every failure.
 */
import { getRegister } from '@erpcert/contract';
import { type AnyRecord, fieldValue, isMetaMember, keyFromUrl } from '../records.js';
import { ContractViolation, expectRule, show } from '../violation.js';

/** How the record was read. */
export interface RecordShapeOptions {
  /**
   * The read named `fields`: only those fields come back, so the checks that need the whole record (rows
   * present, base fields present) are left out. @defaultValue false
   */
  readonly projected?: boolean;
  /** The register is a base register (it answered `updates_after`): UUID, ServerSequence, SyncFlags. */
  readonly base?: boolean;
}

/** One check of one rule. */
export interface RecordCheck {
  readonly rule: string;
  readonly check: (register: string, record: AnyRecord, opts: RecordShapeOptions) => void;
}

/** Characters that a URL-encoded key part cannot hold raw (RFC 3986 delimiters and space). */
const RAW_FORBIDDEN = /[\s/?#[\]"<>\\^`{|}]|%(?![0-9A-Fa-f]{2})/;

/** The `@url` split as `/api/<v>/<register>/<key>`, or undefined when it has another shape. */
function urlParts(url: unknown): { register: string; raw: string[] } | undefined {
  if (typeof url !== 'string') return undefined;
  const m = /^\/api\/([^/]+)\/([^/]+)\/(.*)$/.exec(url);
  // an empty part is an empty key field (ItemStatusVc without a Location): `/api/1/ItemStatusVc/A1/`
  return m ? { register: m[2]!, raw: m[3]!.split('/') } : undefined;
}

/**
 * `@register` and `@sequence` are strings, `@register` naming the register, and `@url` is there (§2 "Record");
 * what `@url` holds is REST.RECORD.URL_FORMAT's (specs/rules.yaml covers).
 */
export function assertMetaFields(register: string, record: AnyRecord): void {
  for (const member of ['@register', '@sequence'])
    expectRule(
      typeof record[member] === 'string',
      'REST.RECORD.META_FIELDS',
      () => `${register} record lacks ${member} (got ${show(record[member])})`,
    );
  expectRule('@url' in record, 'REST.RECORD.META_FIELDS', () => `${register} record lacks @url`);
  expectRule(
    record['@register'] === register,
    'REST.RECORD.META_FIELDS',
    () => `@register is ${show(record['@register'])} in a ${register} answer`,
  );
}

/** `@url` is `/api/<v>/<register>/<key>`, each key part URL-encoded (REST.RECORD.URL_FORMAT). */
export function assertUrlFormat(register: string, record: AnyRecord): void {
  const url = record['@url'];
  if (url === undefined) return; // META_FIELDS judges a missing @url
  const parts = urlParts(url);
  expectRule(
    parts !== undefined && parts.register === register,
    'REST.RECORD.URL_FORMAT',
    () => `@url ${show(url)} is not /api/<version>/${register}/<key>`,
  );
  for (const part of parts.raw)
    expectRule(
      !RAW_FORBIDDEN.test(part),
      'REST.RECORD.URL_FORMAT',
      () => `key part ${show(part)} of @url ${show(url)} is not URL-encoded`,
    );
  expectRule(
    keyFromUrl(String(url), register) !== undefined,
    'REST.RECORD.URL_FORMAT',
    () => `@url ${show(url)} does not decode`,
  );
}

/** A composite key's parts are joined by `/` in key order: as many parts as key fields (§4 rule 11). */
export function assertUrlCompositeKey(register: string, record: AnyRecord): void {
  const def = getRegister(register);
  const parts = urlParts(record['@url']);
  if (!def || def.key.length < 2 || !parts || parts.register !== register) return;
  expectRule(
    parts.raw.length === def.key.length,
    'REST.RECORD.URL_COMPOSITE_KEY',
    () => `@url ${show(record['@url'])} has ${parts.raw.length} part(s); the key is ${def.key.join(' + ')}`,
  );
}

/** The `@url` key decodes to the record's key field values, where the record carries them (inferred). */
export function assertUrlKeyMatches(register: string, record: AnyRecord): void {
  const def = getRegister(register);
  const parts = keyFromUrl(String(record['@url'] ?? ''), register);
  if (!def || !parts || parts.length !== def.key.length) return;
  def.key.forEach((field, i) => {
    const value = record[field];
    // not returned (fields, or the non-empty mode): nothing to compare; a non-string is STRING_VALUES's
    if (value === undefined || value === null) return;
    expectRule(
      parts[i] === String(value),
      'REST.RECORD.URL_KEY_MATCHES',
      () => `@url ${show(record['@url'])} part ${i + 1} is ${show(parts[i])} but ${field} is ${show(value)}`,
    );
  });
}

function members(record: AnyRecord): [string, unknown][] {
  const out: [string, unknown][] = Object.entries(record).filter(([k]) => k !== 'rows');
  const rows = record.rows;
  if (Array.isArray(rows))
    for (const [i, row] of rows.entries())
      if (row && typeof row === 'object') for (const [k, v] of Object.entries(row)) out.push([`row ${i} ${k}`, v]);
  return out;
}

/**
 * Every field value, of the record and of its rows, is a string (JSON: never a number or boolean). The `@` members
 * are no fields: their rules own them (specs/rules.yaml `covers:`: `@register`/`@sequence` META_FIELDS, `@url`
 * URL_FORMAT, `@rownumber` ROWNUMBER), so a number there FAILs that rule alone.
 */
export function assertStringValues(register: string, record: AnyRecord): void {
  for (const [name, value] of members(record).filter(([n]) => !/^(row \d+ )?@/.test(n)))
    expectRule(
      value === null || typeof value === 'string',
      'REST.RECORD.STRING_VALUES',
      () => `${register} ${name} is ${typeof value} ${show(value)}, not a string`,
    );
}

/** An empty field is "", never null (§2: "Empty fields are empty strings"); the `@` members are no fields. */
export function assertEmptyStrings(register: string, record: AnyRecord): void {
  for (const [name, value] of members(record).filter(([n]) => !/^(row \d+ )?@/.test(n)))
    expectRule(value !== null, 'REST.RECORD.EMPTY_STRING', () => `${register} ${name} is null, not ""`);
}

/** A record of a register with lines carries `rows` as an array (not checked when `fields` was named). */
export function assertRowsArray(register: string, record: AnyRecord, opts: RecordShapeOptions): void {
  const def = getRegister(register);
  if (record.rows === undefined && (opts.projected || (def && def.rowFields.length === 0))) return;
  expectRule(
    Array.isArray(record.rows),
    'REST.RECORD.ROWS_ARRAY',
    () => `${register} record ${show(record['@url'])} has rows ${show(record.rows, 120)}, not an array`,
  );
}

/** Registers without lines return `rows` as an empty array (§2 "Record"). */
export function assertRowsEmptyWithoutLines(register: string, record: AnyRecord, opts: RecordShapeOptions): void {
  const def = getRegister(register);
  if (!def || def.rowFields.length > 0) return;
  if (record.rows === undefined && opts.projected) return;
  expectRule(
    Array.isArray(record.rows) && record.rows.length === 0,
    'REST.RECORD.ROWS_EMPTY_WITHOUT_LINES',
    () => `${register} has no lines but ${show(record['@url'])} has rows ${show(record.rows, 120)}`,
  );
}

/** Each row's `@rownumber` is its 0-based position, as a string. */
export function assertRowNumbers(_register: string, record: AnyRecord): void {
  const rows = Array.isArray(record.rows) ? (record.rows as (AnyRecord | null)[]) : [];
  rows.forEach((row, i) => {
    const n = row?.['@rownumber'];
    expectRule(
      n === String(i),
      'REST.RECORD.ROWNUMBER',
      () => `row ${i} of ${show(record['@url'])} has @rownumber ${show(n)}; expected "${i}" (0-based, in order)`,
    );
  });
}

/** Records of base registers carry UUID, ServerSequence and SyncFlags as strings (full reads only). */
export function assertBaseSyncFields(register: string, record: AnyRecord, opts: RecordShapeOptions): void {
  if (!opts.base || opts.projected) return;
  for (const f of ['UUID', 'ServerSequence', 'SyncFlags'])
    expectRule(
      // present is this rule's; whether it is a string is STRING_VALUES's
      record[f] !== undefined && record[f] !== null,
      'REST.RECORD.BASE_SYNC_FIELDS',
      () => `${register} answers updates_after (a base register) but ${show(record['@url'])} has no ${f}`,
    );
}

/** A row's stp is 1, 2 or 3 (§2 "Row types"); an empty stp is an unset field, not a fourth type. */
export function assertRowTypes(_register: string, record: AnyRecord): void {
  const rows = Array.isArray(record.rows) ? (record.rows as AnyRecord[]) : [];
  rows.forEach((row, i) => {
    const stp = fieldValue(row ?? {}, 'stp');
    expectRule(
      ['', '1', '2', '3'].includes(stp),
      'REST.RECORD.ROW_TYPES',
      () => `row ${i} of ${show(record['@url'])} has stp ${show(stp)}`,
    );
  });
}

/**
 * OKFlag is 0 or 1 (§3 "OKFlag 0 means draft and 1 means confirmed"; the XSD's Flag01 and the JSON schema's enum
 * say the same, so a body check and this record check never disagree on an empty OKFlag). Not judged when the
 * record does not carry OKFlag (a `fields` read, the mode of non-empty fields) or carries JSON null
 * (STRING_VALUES owns a null).
 */
export function assertOkFlag(_register: string, record: AnyRecord): void {
  const raw = record.OKFlag;
  if (raw === undefined || raw === null) return;
  const ok = fieldValue(record, 'OKFlag');
  expectRule(
    ['0', '1'].includes(ok),
    'REST.STATE.OKFLAG_VALUES',
    () => `${show(record['@url'])} has OKFlag ${show(ok)}`,
  );
}

/**
 * The record is in one of the two modes of §4 rule 7: only non-empty fields, or all fields with the empty
 * ones as "". A record that returns an empty field is in the all-fields mode and must carry every main field
 * of its register (§2 table); one without empty fields may be in either. Not judged on `fields` reads.
 */
export function assertFieldMode(register: string, record: AnyRecord, opts: RecordShapeOptions): void {
  const def = getRegister(register);
  if (!def || opts.projected) return;
  const rows = Array.isArray(record.rows) ? (record.rows as AnyRecord[]) : [];
  const values = [...Object.entries(record), ...rows.flatMap((r) => Object.entries(r ?? {}))];
  if (!values.some(([k, v]) => !k.startsWith('@') && v === '')) return;
  const missing = def.fields.filter((f) => record[f] === undefined);
  for (const [i, row] of rows.entries())
    missing.push(...def.rowFields.filter((f) => row?.[f] === undefined).map((f) => `row ${i} ${f}`));
  expectRule(
    missing.length === 0,
    'REST.RECORD.FIELD_MODES',
    () => `${show(record['@url'])} returns empty fields (the all-fields mode) but lacks ${missing.join(', ')}`,
  );
}

/** Every record check, one per rule, in the order {@link assertRecordShape} runs them. */
export const RECORD_CHECKS: readonly RecordCheck[] = [
  { rule: 'REST.RECORD.META_FIELDS', check: assertMetaFields },
  { rule: 'REST.RECORD.URL_FORMAT', check: assertUrlFormat },
  { rule: 'REST.RECORD.URL_COMPOSITE_KEY', check: assertUrlCompositeKey },
  { rule: 'REST.RECORD.URL_KEY_MATCHES', check: assertUrlKeyMatches },
  { rule: 'REST.RECORD.STRING_VALUES', check: assertStringValues },
  { rule: 'REST.RECORD.EMPTY_STRING', check: assertEmptyStrings },
  { rule: 'REST.RECORD.ROWS_ARRAY', check: assertRowsArray },
  { rule: 'REST.RECORD.ROWS_EMPTY_WITHOUT_LINES', check: assertRowsEmptyWithoutLines },
  { rule: 'REST.RECORD.ROWNUMBER', check: assertRowNumbers },
  { rule: 'REST.RECORD.BASE_SYNC_FIELDS', check: assertBaseSyncFields },
  { rule: 'REST.RECORD.ROW_TYPES', check: assertRowTypes },
  { rule: 'REST.STATE.OKFLAG_VALUES', check: assertOkFlag },
  { rule: 'REST.RECORD.FIELD_MODES', check: assertFieldMode },
];

/** The record check of one rule. */
export function recordCheck(rule: string): RecordCheck {
  const c = RECORD_CHECKS.find((x) => x.rule === rule);
  if (!c) throw new RangeError(`no record check for ${rule}`);
  return c;
}

/** Every check of the record; the first violation is thrown. */
export function assertRecordShape(register: string, record: AnyRecord, opts: RecordShapeOptions = {}): void {
  for (const c of RECORD_CHECKS) c.check(register, record, opts);
}

/** Every check of the record; every violation is returned (a run collects every failure). */
export function recordViolations(
  register: string,
  record: AnyRecord,
  opts: RecordShapeOptions = {},
): ContractViolation[] {
  const out: ContractViolation[] = [];
  for (const c of RECORD_CHECKS)
    try {
      c.check(register, record, opts);
    } catch (err) {
      if (!(err instanceof ContractViolation)) throw err;
      out.push(err);
    }
  return out;
}

/** The field names of a record (members that are not `@...` or `rows`). */
export function fieldNames(record: AnyRecord): string[] {
  return Object.keys(record).filter((k) => !isMetaMember(k));
}
