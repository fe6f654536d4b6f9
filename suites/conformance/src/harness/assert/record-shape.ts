/**
 * The shape of one record (record-rest-api.md §2 "Record", "Registers, keys and main fields", §4 rule 11).
 * Each check throws a ContractViolation naming its rule.
 */
import { getRegister } from '@erpcert/contract';
import { type AnyRecord, isMetaMember, keyFromUrl } from '../records.js';
import { expectRule, show } from '../violation.js';

/** How the record was read. */
export interface RecordShapeOptions {
  /**
   * The read named `fields`: only those fields come back, so the checks that need the whole record (rows
   * present, base fields present, key fields present) are left out. @defaultValue false
   */
  readonly projected?: boolean;
  /** The register is a base register (it answered `updates_after`): UUID, ServerSequence, SyncFlags. */
  readonly base?: boolean;
}

/** Characters that a URL-encoded key part cannot hold raw (RFC 3986 delimiters and space). */
const RAW_FORBIDDEN = /[\s/?#[\]"<>\\^`{|}]|%(?![0-9A-Fa-f]{2})/;

/**
 * `@url` is `/api/<v>/<register>/<key>`: key parts URL-encoded, composite parts joined by `/` in key order,
 * decoding to the record's key field values where the record carries them (REST.RECORD.URL_FORMAT,
 * URL_COMPOSITE_KEY, URL_KEY_MATCHES).
 */
export function assertUrl(register: string, record: AnyRecord): void {
  const url = record['@url'];
  expectRule(typeof url === 'string', 'REST.RECORD.META_FIELDS', () => `@url is ${show(url)}`);
  const m = /^\/api\/([^/]+)\/([^/]+)\/(.*)$/.exec(url);
  expectRule(
    m !== null && m[2] === register,
    'REST.RECORD.URL_FORMAT',
    () => `@url ${show(url)} is not /api/<version>/${register}/<key>`,
  );
  // an empty part is an empty key field (ItemStatusVc without a Location): `/api/1/ItemStatusVc/A1/`
  const rawParts = m[3]!.split('/');
  for (const part of rawParts)
    expectRule(
      !RAW_FORBIDDEN.test(part),
      'REST.RECORD.URL_FORMAT',
      () => `key part ${show(part)} of @url ${show(url)} is not URL-encoded`,
    );
  const parts = keyFromUrl(url, register);
  expectRule(parts !== undefined, 'REST.RECORD.URL_FORMAT', () => `@url ${show(url)} does not decode`);
  const def = getRegister(register);
  if (!def) return;
  if (def.key.length > 1)
    expectRule(
      parts.length === def.key.length,
      'REST.RECORD.URL_COMPOSITE_KEY',
      () => `@url ${show(url)} has ${parts.length} part(s); the key is ${def.key.join(' + ')}`,
    );
  def.key.forEach((field, i) => {
    const value = record[field];
    if (value === undefined) return; // not returned (fields, or the non-empty mode): nothing to compare
    expectRule(
      parts[i] === value,
      'REST.RECORD.URL_KEY_MATCHES',
      () => `@url ${show(url)} part ${i + 1} is ${show(parts[i])} but ${field} is ${show(value)}`,
    );
  });
}

/** Every field value, of the record and of its rows, is a string, never null (REST.RECORD.STRING_VALUES, EMPTY_STRING). */
export function assertStringValues(register: string, record: AnyRecord): void {
  const check = (obj: AnyRecord, where: string) => {
    for (const [name, value] of Object.entries(obj)) {
      if (name === 'rows') continue;
      expectRule(value !== null, 'REST.RECORD.EMPTY_STRING', () => `${register} ${where}${name} is null, not ""`);
      expectRule(
        typeof value === 'string',
        'REST.RECORD.STRING_VALUES',
        () => `${register} ${where}${name} is ${typeof value} ${show(value)}, not a string`,
      );
    }
  };
  check(record, '');
  const rows = record.rows;
  if (Array.isArray(rows)) for (const [i, row] of rows.entries()) check(row as AnyRecord, `row ${i} `);
}

/**
 * Rows: registers with lines carry `rows` as an array, each row with `@rownumber` 0, 1, 2... in order;
 * registers without lines carry `rows: []` (REST.RECORD.ROWS_ARRAY, ROWNUMBER, ROWS_EMPTY_WITHOUT_LINES).
 */
export function assertRows(register: string, record: AnyRecord, projected: boolean): void {
  const rows = record.rows;
  const def = getRegister(register);
  if (rows === undefined) {
    if (projected) return;
    expectRule(
      def === undefined || def.rowFields.length > 0,
      'REST.RECORD.ROWS_EMPTY_WITHOUT_LINES',
      () => `${register} has no lines but the record carries no rows array`,
    );
    expectRule(false, 'REST.RECORD.ROWS_ARRAY', () => `${register} record ${show(record['@url'])} has no rows member`);
  }
  expectRule(Array.isArray(rows), 'REST.RECORD.ROWS_ARRAY', () => `rows is ${show(rows, 120)}, not an array`);
  if (def && def.rowFields.length === 0)
    expectRule(
      rows.length === 0,
      'REST.RECORD.ROWS_EMPTY_WITHOUT_LINES',
      () => `${register} has no lines but rows holds ${rows.length} entries`,
    );
  rows.forEach((row, i) => {
    const n = (row as AnyRecord | null)?.['@rownumber'];
    expectRule(
      n === String(i),
      'REST.RECORD.ROWNUMBER',
      () => `row ${i} of ${show(record['@url'])} has @rownumber ${show(n)}; expected "${i}" (0-based, in order)`,
    );
  });
}

/**
 * The whole shape of a record of `register`: `@register`, `@sequence`, `@url` (REST.RECORD.META_FIELDS),
 * the url, string values, rows, and for base registers UUID, ServerSequence and SyncFlags.
 */
export function assertRecordShape(register: string, record: AnyRecord, opts: RecordShapeOptions = {}): void {
  for (const member of ['@register', '@sequence', '@url'])
    expectRule(
      typeof record[member] === 'string',
      'REST.RECORD.META_FIELDS',
      () => `${register} record lacks ${member} (got ${show(record[member])})`,
    );
  expectRule(
    record['@register'] === register,
    'REST.RECORD.META_FIELDS',
    () => `@register is ${show(record['@register'])} in a ${register} answer`,
  );
  assertUrl(register, record);
  assertStringValues(register, record);
  assertRows(register, record, opts.projected === true);
  if (opts.base && !opts.projected)
    for (const f of ['UUID', 'ServerSequence', 'SyncFlags'])
      expectRule(
        typeof record[f] === 'string',
        'REST.RECORD.BASE_SYNC_FIELDS',
        () => `${register} answers updates_after (a base register) but ${show(record['@url'])} has no ${f}`,
      );
}

/** The field names of a record (members that are not `@...` or `rows`). */
export function fieldNames(record: AnyRecord): string[] {
  return Object.keys(record).filter((k) => !isMetaMember(k));
}
