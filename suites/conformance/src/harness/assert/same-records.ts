/**
 * JSON and XML describe the same records (record-rest-api.md §1: "Responses are XML by default or JSON when
 * the request header Accept: application/json is sent" — one answer, two formats).
 */
import type { RestEnvelope } from '@erpcert/client';
import type { AnyRecord } from '../records.js';
import { expectRule, show } from '../violation.js';

const RULE = 'REST.ENVELOPE.JSON_ON_ACCEPT';

function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = normalise((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/** The first member where two records differ, or undefined when they are the same. */
export function recordDifference(xml: AnyRecord, json: AnyRecord): string | undefined {
  const names = [...new Set([...Object.keys(xml), ...Object.keys(json)])].sort();
  for (const name of names) {
    const a = JSON.stringify(normalise(xml[name]));
    const b = JSON.stringify(normalise(json[name]));
    if (a !== b) return `${name}: XML ${a ?? '(absent)'} vs JSON ${b ?? '(absent)'}`;
  }
  return undefined;
}

/**
 * The XML and the JSON answer of the same request hold the same records in the same order, member by
 * member (the client reads XML into the JSON shape: attributes as `@` members, `<rows><row>` as `rows`).
 * The caller makes sure that nothing was written between the two reads (equal `@sequence`).
 */
export function assertSameRecords(register: string, xml: RestEnvelope<string>, json: RestEnvelope<string>): void {
  expectRule(
    xml.records.length === json.records.length,
    RULE,
    () => `${register}: XML holds ${xml.records.length} records, JSON ${json.records.length}`,
  );
  xml.records.forEach((x, i) => {
    const j = json.records[i] as AnyRecord;
    const diff = recordDifference(x as AnyRecord, j);
    expectRule(
      diff === undefined,
      RULE,
      () => `${register} record ${i} (${show((x as AnyRecord)['@url'])}) differs between XML and JSON: ${diff}`,
    );
  });
}
