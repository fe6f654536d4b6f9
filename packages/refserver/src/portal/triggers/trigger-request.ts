import type { PortalContext } from '../handler.js';
import { PortalError } from '../handler.js';

/** The field-trigger request body (portal-action-api.md §2 "Field-trigger request body (JSON)"). */
export interface TriggerRequest {
  readonly vcname: string;
  readonly fieldname: string;
  readonly value: string;
  /** -1: a header field. */
  readonly rowindex: number;
  readonly id: string;
  readonly headerfields: readonly FieldType[] | undefined;
  readonly rowfields: readonly FieldType[] | undefined;
  readonly header: Readonly<Record<string, string>>;
  readonly rows: readonly Readonly<Record<string, string>>[];
  readonly sourceRegister: string;
  readonly sourceRecordId: string;
}

/** A `FieldName:TypeCode` pair of headerfields/rowfields. */
export interface FieldType {
  readonly name: string;
  /** 1 string; 2 date (YYYY-MM-DD); 5 decimal; 12 decimal; 15 decimal with one decimal place. */
  readonly type: 1 | 2 | 5 | 12 | 15;
}

const TYPE_CODES = new Set([1, 2, 5, 12, 15]);

/**
 * The JSON of a body: plain, or with `encrypted=true` "byte-reversed and then base64-encoded" (§4 "Field
 * trigger"): base64-decode, reverse the bytes, parse. Any content type is accepted.
 */
export function decodeTriggerBody(ctx: PortalContext, what = 'the field-trigger body'): unknown {
  const encrypted = ctx.params.oneOf('encrypted', ['true', 'false'], 'false') === 'true';
  const raw = ctx.req.body.toString('utf8').trim();
  if (raw === '')
    throw new PortalError(`${what} is empty; send the JSON${encrypted ? ' (byte-reversed, base64)' : ''}`);
  let text = raw;
  if (encrypted) {
    if (!/^[A-Za-z0-9+/=\s]+$/.test(raw))
      throw new PortalError(`${what} is not base64 (encrypted=true: the JSON byte-reversed, then base64-encoded)`);
    text = Buffer.from(raw, 'base64').reverse().toString('utf8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PortalError(
      encrypted
        ? `${what} does not decode to JSON (encrypted=true: the JSON byte-reversed, then base64-encoded)`
        : `${what} is not JSON${/^[A-Za-z0-9+/]+={0,2}$/.test(raw) && raw.length % 4 === 0 ? ' (an encrypted body needs encrypted=true)' : ''}`,
    );
  }
}

/** A value of the body as text: strings as they are, numbers and booleans written out, null as empty. */
function text(v: unknown, path: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new PortalError(`${path} must be a string`);
}

function fieldList(v: unknown, name: string): FieldType[] | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new PortalError(`${name} must be a string of FieldName:TypeCode pairs`);
  return v.split(',').map((pair) => {
    const m = /^\s*([A-Za-z][A-Za-z0-9_]*):(\d+)\s*$/.exec(pair);
    if (!m || !TYPE_CODES.has(Number(m[2])))
      throw new PortalError(`${name}: "${pair}" is not FieldName:TypeCode (type codes 1, 2, 5, 12, 15)`);
    return { name: m[1]!, type: Number(m[2]) as FieldType['type'] };
  });
}

function record(v: unknown, path: string): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new PortalError(`${path} must be an object`);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) out[k] = text(x, `${path}.${k}`);
  return out;
}

/** Reads and checks the body; every problem names the member. */
export function parseTriggerRequest(body: unknown): TriggerRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new PortalError('the field-trigger body must be a JSON object');
  const b = body as Record<string, unknown>;
  const vcname = text(b.vcname, 'vcname');
  if (vcname === '') throw new PortalError('missing required member "vcname" (the register)');
  const fieldname = text(b.fieldname, 'fieldname');
  if (fieldname === '') throw new PortalError('missing required member "fieldname" (the field that changed)');
  let rowindex = -1;
  if (b.rowindex !== undefined && b.rowindex !== null && b.rowindex !== '') {
    const n = typeof b.rowindex === 'string' && /^-?\d+$/.test(b.rowindex) ? Number(b.rowindex) : b.rowindex;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < -1)
      throw new PortalError(`rowindex must be a whole number from -1 (header), got ${JSON.stringify(b.rowindex)}`);
    rowindex = n;
  }
  const values = b.values === undefined || b.values === null ? {} : b.values;
  if (typeof values !== 'object' || Array.isArray(values))
    throw new PortalError('values must be an object {header, rows}');
  const v = values as Record<string, unknown>;
  if (v.rows !== undefined && v.rows !== null && !Array.isArray(v.rows))
    throw new PortalError('values.rows must be an array');
  return {
    vcname,
    fieldname,
    value: text(b.value, 'value'),
    rowindex,
    id: text(b.id, 'id'),
    headerfields: fieldList(b.headerfields, 'headerfields'),
    rowfields: fieldList(b.rowfields, 'rowfields'),
    header: record(v.header, 'values.header'),
    rows: ((v.rows as unknown[] | undefined) ?? []).map((r, i) => record(r, `values.rows[${i}]`)),
    sourceRegister: text(b.sourceRegister, 'sourceRegister'),
    sourceRecordId: text(b.sourceRecordId, 'sourceRecordId'),
  };
}
