import type { JsonRecord } from '../business/record-write.js';
import { ErpError, ErrorCode } from '../errors.js';

const malformed = (description: string) => new ErpError(400, ErrorCode.malformedBody, description);

/** A field value of a JSON body: strings as they are, numbers and booleans as text, null as empty. */
function value(v: unknown, where: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null) return '';
  throw malformed(`${where} must be a string, got ${Array.isArray(v) ? 'an array' : typeof v}`);
}

function fieldsOf(o: Record<string, unknown>, where: string, skip: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) {
    if (k.startsWith('@') || k === skip) continue;
    out[k] = value(v, `${where} ${k}`);
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads `{data: {<Register>: [ {<field>: <value>, rows: [ {...} ]} ]}}` (record-rest-api.md §4
 * "Create records, JSON"; rule 3: the register comes from the URL and the array key, `@register`
 * inside the objects is optional and `@`-attributes are ignored). A single object counts as one record.
 */
export function parseJsonRecords(body: Buffer, register: string): JsonRecord[] {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw malformed(`the body is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(doc) || !isObject(doc.data)) throw malformed('the body must be {"data": {"<Register>": [records]}}');
  const keys = Object.keys(doc.data).filter((k) => !k.startsWith('@'));
  const other = keys.find((k) => k !== register);
  if (other !== undefined)
    throw malformed(`the body holds records of "${other}" but the URL names register ${register}`);
  const list = doc.data[register];
  const records = Array.isArray(list) ? list : list === undefined ? [] : [list];
  if (records.length === 0) throw malformed(`the body holds no ${register} record`);
  return records.map((rec, i) => {
    if (!isObject(rec)) throw malformed(`record ${i} must be an object`);
    const at = rec['@register'];
    if (at !== undefined && at !== register)
      throw malformed(`record ${i} says @register "${String(at)}" but the URL names ${register}`);
    const rows = rec.rows ?? [];
    if (!Array.isArray(rows)) throw malformed(`record ${i} rows must be an array`);
    return {
      fields: fieldsOf(rec, `record ${i}`, 'rows'),
      rows: rows.map((r, j) => {
        if (!isObject(r)) throw malformed(`record ${i} row ${j} must be an object`);
        return fieldsOf(r, `record ${i} row ${j}`, '');
      }),
    };
  });
}
