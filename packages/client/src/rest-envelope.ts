import type { DecodedBody } from './body-decode.js';
import { asElement, asList, type XmlElement, type XmlValue } from './xml-decode.js';

/** The envelope parts of a REST body, records in the JSON shape. */
export interface EnvelopeParts {
  readonly register: string;
  readonly sequence: string | undefined;
  readonly systemVersion: string | undefined;
  readonly records: Record<string, unknown>[];
  /** False when the body had no `data` envelope at all (an empty 200, a PATCH answer of another shape). */
  readonly hasEnvelope: boolean;
}

/** The envelope is there but its records are not in a recognisable shape. */
export class EnvelopeShapeError extends Error {
  override readonly name = 'EnvelopeShapeError';
}

/** XML row `<row rownumber="0">` -> JSON row `{ "@rownumber": "0", ... }`: the parser's `@` prefix already matches. */
function xmlRows(value: XmlValue): XmlValue {
  if (value === '') return [];
  const el = asElement(value);
  if (!el || !('row' in el)) return value;
  return asList(el.row).map((r) => asElement(r) ?? {});
}

/** An XML record element in the JSON record shape (record-rest-api.md §2 "Record"; xml-shapes.md). */
export function xmlRecordToJson(value: XmlValue): Record<string, unknown> {
  const el = asElement(value) ?? {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(el)) out[k] = k === 'rows' ? xmlRows(v) : v;
  return out;
}

function str(v: unknown): string | undefined {
  return v === undefined || v === null ? undefined : String(v);
}

function recordsOf(data: Record<string, unknown>, register: string): unknown {
  if (register in data) return data[register];
  // the records' key is the register name; when it differs from the one asked for, take the one list there is
  const lists = Object.keys(data).filter((k) => !k.startsWith('@') && k !== 'error' && k !== 'message');
  return lists.length === 1 ? data[lists[0]!] : undefined;
}

/**
 * Reads the envelope of an XML (`<data register sequence systemversion>` with one element per record) or JSON
 * (`{"data": {"@register", "@sequence", "@systemversion", "<Reg>": [...]}}`) body. Throws
 * {@link EnvelopeShapeError} when records are not objects.
 */
export function envelopeParts(body: DecodedBody, requested: string): EnvelopeParts {
  let data: Record<string, unknown> | undefined;
  if (body.format === 'xml')
    data = body.xml && 'data' in body.xml ? (asElement(body.xml.data) as XmlElement) : undefined;
  else if (body.format === 'json' && typeof body.json === 'object' && body.json !== null) {
    const d = (body.json as Record<string, unknown>).data;
    if (d !== undefined && (typeof d !== 'object' || d === null || Array.isArray(d)))
      throw new EnvelopeShapeError('"data" is not an object');
    data = d as Record<string, unknown> | undefined;
  }
  if (!data)
    return { register: requested, sequence: undefined, systemVersion: undefined, records: [], hasEnvelope: false };
  const register = str(data['@register']) ?? requested;
  const found = recordsOf(data, register);
  const list = found === undefined || found === '' ? [] : Array.isArray(found) ? found : [found];
  const records = list.map((r, i) => {
    if (body.format === 'xml') return xmlRecordToJson(r as XmlValue);
    if (typeof r !== 'object' || r === null || Array.isArray(r))
      throw new EnvelopeShapeError(`record ${i} of ${register} is not an object`);
    return r as Record<string, unknown>;
  });
  return {
    register,
    sequence: str(data['@sequence']),
    systemVersion: str(data['@systemversion']),
    records,
    hasEnvelope: true,
  };
}
