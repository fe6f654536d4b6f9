import { ErpError, ErrorCode, validationError } from '../errors.js';
import type { RegisterSchema } from '../schema/register-schema.js';
import type { StoredRecord } from '../store/record-table.js';
import { applyNewDefaults, repriceRows, runHeaderTriggers, runRowTriggers } from './auto-fill.js';
import { checkRecord } from './checks.js';
import { type Draft, Explicit, type WriteContext } from './draft.js';
import { AlreadyRegistered, applyLabels, checkFieldErrors } from './register-behaviour.js';
import { applyStateDefaults } from './states.js';
import { computeSums } from './sums.js';

/** Field changes of one write: header pairs and row pairs by 0-based row number, in request order. */
export interface FieldChanges {
  readonly header: readonly (readonly [string, string])[];
  readonly rows: ReadonlyMap<number, readonly (readonly [string, string])[]>;
}

/** A record of a JSON body: header values and rows (record-rest-api.md §4 "Create records, JSON"). */
export interface JsonRecord {
  readonly fields: Readonly<Record<string, string>>;
  readonly rows: readonly Readonly<Record<string, string>>[];
}

const WRITABLE_BASE = new Set(['UUID', 'SyncFlags']);
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function writable(schema: RegisterSchema, register: string): void {
  if (schema.readOnly)
    throw new ErpError(405, ErrorCode.methodNotAllowed, `register ${register} is read-only`, {
      headers: { Allow: 'GET, HEAD' },
    });
}

/** Rejects fields the register does not know (naming all of them) and fields nobody may write. */
function checkNames(
  schema: RegisterSchema,
  header: Iterable<string>,
  rows: Iterable<[number, Iterable<string>]>,
): void {
  const known = new Set(schema.fields);
  const unknown: string[] = [];
  let first: { field: string; row: number } | undefined;
  for (const f of header) {
    if (f === 'ServerSequence' && schema.base)
      throw validationError(ErrorCode.readOnlyField, 'ServerSequence is set by the server', f);
    if (!known.has(f) && !(schema.base && WRITABLE_BASE.has(f))) {
      unknown.push(f);
      first ??= { field: f, row: -1 };
    }
  }
  const rowKnown = new Set(schema.rowFields);
  for (const [i, fields] of rows) {
    for (const f of fields) {
      if (!rowKnown.has(f)) {
        unknown.push(`row ${i} ${f}`);
        first ??= { field: f, row: i };
      }
    }
  }
  if (first) {
    const list = [...new Set(unknown)].join(', ');
    const hint = schema.rowFields.length === 0 ? `; ${schema.name} has no rows` : '';
    throw validationError(
      ErrorCode.unknownWriteField,
      `unknown field in ${schema.name}: ${list}${hint}`,
      first.field,
      first.row,
    );
  }
}

/** An empty draft holding every field of the register. */
function emptyDraft(schema: RegisterSchema): Draft {
  const fields: Record<string, string> = {};
  for (const f of schema.fields) fields[f] = '';
  if (schema.base) {
    fields.UUID = '';
    fields.SyncFlags = '';
  }
  return { fields, rows: [] };
}

function emptyRow(schema: RegisterSchema): Record<string, string> {
  const r: Record<string, string> = {};
  for (const f of schema.rowFields) r[f] = '';
  return r;
}

/** Assigns the serial number when absent (issue 3 "New serial numbers are assigned when SerNr is absent"). */
function assignSerial(ctx: WriteContext, schema: RegisterSchema, d: Draft): void {
  const rule = schema.serial;
  if (!rule || (d.fields[rule.field] ?? '') !== '') return;
  // TRVc without IntYc: the year of TransDate, else of today (README "Decisions")
  for (const s of rule.scope) {
    if ((d.fields[s] ?? '') === '' && s === 'IntYc') d.fields.IntYc = (d.fields.TransDate || ctx.today).slice(0, 4);
  }
  const scope: Record<string, string> = {};
  for (const s of rule.scope) scope[s] = d.fields[s] ?? '';
  d.fields[rule.field] = String(ctx.store.nextSerial(schema.name, ctx.company, scope));
}

function checkUuid(d: Draft): void {
  const u = d.fields.UUID;
  if (u && !UUID_RE.test(u)) throw validationError(ErrorCode.invalidValue, `UUID "${u}" is not a UUID`, 'UUID');
}

/** Inserts a checked draft; refuses a key that exists. */
function insertDraft(ctx: WriteContext, schema: RegisterSchema, d: Draft): StoredRecord {
  assignSerial(ctx, schema, d);
  applyStateDefaults(schema, d);
  applyLabels(schema, d);
  checkRecord(ctx, schema, d);
  checkFieldErrors(schema, d);
  checkUuid(d);
  const keyParts = schema.key.map((k) => d.fields[k] ?? '');
  const exists = ctx.store.lookup(schema.name, ctx.company, keyParts);
  if (exists && schema.behaviour?.onDuplicate === 'already-registered') throw new AlreadyRegistered(schema.name);
  if (exists)
    throw validationError(
      ErrorCode.duplicateKey,
      `${schema.name} ${keyParts.join('/')} already exists`,
      schema.key[schema.key.length - 1],
    );
  return ctx.store.insert(schema.name, ctx.company, d);
}

/** Applies row changes: existing rows are updated, row N == count appends; gaps are refused. */
function applyRows(schema: RegisterSchema, d: Draft, changes: FieldChanges, ex: Explicit): Map<number, Set<string>> {
  const touched = new Map<number, Set<string>>();
  const numbers = [...changes.rows.keys()].sort((a, b) => a - b);
  for (const n of numbers) {
    if (n > d.rows.length)
      throw validationError(
        ErrorCode.invalidValue,
        `row ${n} cannot be set: the record has ${d.rows.length} row(s), so the next new row is ${d.rows.length}`,
        changes.rows.get(n)![0]![0],
        n,
      );
    if (n === d.rows.length) d.rows.push(emptyRow(schema));
    const set = new Set<string>();
    for (const [f, v] of changes.rows.get(n)!) {
      d.rows[n]![f] = v;
      ex.add(f, n);
      set.add(f);
    }
    touched.set(n, set);
  }
  return touched;
}

/**
 * Creates a record from a form body: set fields, run auto-fill and sums, check, assign the serial
 * number, insert (record-rest-api.md §4 rule 1). All inside one transaction.
 */
export function createFromForm(ctx: WriteContext, schema: RegisterSchema, changes: FieldChanges): StoredRecord {
  writable(schema, schema.name);
  checkNames(
    schema,
    changes.header.map(([f]) => f),
    [...changes.rows].map(([i, pairs]) => [i, pairs.map(([f]) => f)]),
  );
  return ctx.store.write(() => {
    const d = emptyDraft(schema);
    const ex = new Explicit();
    for (const [f, v] of changes.header) {
      d.fields[f] = v;
      ex.add(f);
    }
    const changed = applyNewDefaults(ctx, schema.name, d, ex);
    for (const [f] of changes.header) changed.add(f);
    runHeaderTriggers(ctx, schema.name, d, ex, changed);
    const touched = applyRows(schema, d, changes, ex);
    for (const [i, fields] of touched) runRowTriggers(ctx, schema.name, d, ex, i, fields);
    computeSums(schema.name, d, ex);
    return insertDraft(ctx, schema, d);
  });
}

/** Creates records from a JSON body: no auto-fill, no sums (rule 2); all or none. */
export function createFromJson(
  ctx: WriteContext,
  schema: RegisterSchema,
  records: readonly JsonRecord[],
): StoredRecord[] {
  writable(schema, schema.name);
  return ctx.store.write(() =>
    records.map((rec, n) => {
      try {
        checkNames(
          schema,
          Object.keys(rec.fields),
          rec.rows.map((r, i) => [i, Object.keys(r)] as [number, string[]]),
        );
        const d = emptyDraft(schema);
        Object.assign(d.fields, rec.fields);
        d.rows = rec.rows.map((r) => ({ ...emptyRow(schema), ...r }));
        return insertDraft(ctx, schema, d);
      } catch (err) {
        if (err instanceof ErpError && records.length > 1)
          throw new ErpError(err.status, err.code, `record ${n}: ${err.description}`, {
            ...(err.field !== undefined ? { field: err.field } : {}),
            ...(err.row !== undefined ? { row: err.row } : {}),
          });
        throw err;
      }
    }),
  );
}

/**
 * Updates a record by key from a form body. A confirmed record (OKFlag 1) refuses every change
 * (issue 3); key fields cannot change. Auto-fill runs for the changed fields; sums are recomputed.
 */
export function patchFromForm(
  ctx: WriteContext,
  schema: RegisterSchema,
  given: StoredRecord,
  changes: FieldChanges,
): StoredRecord {
  writable(schema, schema.name);
  checkNames(
    schema,
    changes.header.map(([f]) => f),
    [...changes.rows].map(([i, pairs]) => [i, pairs.map(([f]) => f)]),
  );
  return ctx.store.write(() => {
    // read the record again inside the transaction: a caller's copy may be stale (no lost updates)
    const current = ctx.store.get(
      schema.name,
      ctx.company,
      schema.key.map((k) => given.fields[k] ?? ''),
    );
    if (!current) throw new ErpError(404, ErrorCode.notFound, `${schema.name} no longer exists`);
    const existing = current;
    if (existing.fields.OKFlag === '1')
      throw validationError(ErrorCode.locked, 'Record is locked', changes.header[0]?.[0] ?? 'OKFlag');
    const d: Draft = { fields: { ...existing.fields }, rows: existing.rows.map((r) => ({ ...r })) };
    delete d.fields.ServerSequence;
    const ex = new Explicit();
    const changed = new Set<string>();
    for (const [f, v] of changes.header) {
      if (schema.key.includes(f) && v !== existing.fields[f])
        throw validationError(ErrorCode.readOnlyField, `${f} is part of the key and cannot change`, f);
      if (f === 'UUID' && v !== existing.fields.UUID)
        throw validationError(ErrorCode.readOnlyField, 'UUID cannot change', f);
      d.fields[f] = v;
      ex.add(f);
      changed.add(f);
    }
    runHeaderTriggers(ctx, schema.name, d, ex, changed);
    if (changed.has('PriceList')) repriceRows(ctx, schema.name, d, ex);
    const touched = applyRows(schema, d, changes, ex);
    for (const [i, fields] of touched) runRowTriggers(ctx, schema.name, d, ex, i, fields);
    computeSums(schema.name, d, ex);
    applyStateDefaults(schema, d);
    applyLabels(schema, d);
    checkRecord(ctx, schema, d);
    checkFieldErrors(schema, d);
    return ctx.store.update(schema.name, existing, d);
  });
}
