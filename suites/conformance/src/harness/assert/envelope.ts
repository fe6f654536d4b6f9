/**
 * The REST envelope (record-rest-api.md §2 "Envelope (JSON)", §1 formats, §4 rule 6 Sequence header).
 * One assertion per check; each throws a ContractViolation naming its rule.
 */
import type { RestEnvelope } from '@erpcert/client';
import { expectRule, show, violated } from '../violation.js';

const INTEGER = /^-?\d+$/;

/** The parsed JSON document of a JSON answer; a ContractViolation of `rule` when the body is not JSON. */
export function rawJson(env: RestEnvelope<string>, rule = 'REST.ENVELOPE.JSON_ON_ACCEPT'): unknown {
  try {
    return JSON.parse(env.raw.text);
  } catch {
    return violated(rule, `the body is not JSON: ${show(env.raw.text, 200)}`);
  }
}

/**
 * The answer is in the format asked for: XML without `Accept: application/json`, JSON with it (§1).
 * Judged by the body's first character, as MIME types lie on real servers.
 */
export function assertFormat(env: RestEnvelope<string>, asked: 'xml' | 'json'): void {
  const first = env.raw.text.trimStart()[0];
  const format = first === '<' ? 'xml' : first === '{' || first === '[' ? 'json' : 'other';
  if (asked === 'json')
    expectRule(format === 'json', 'REST.ENVELOPE.JSON_ON_ACCEPT', () => `got ${format}: ${show(env.raw.text, 120)}`);
  else expectRule(format === 'xml', 'REST.ENVELOPE.XML_DEFAULT', () => `got ${format}: ${show(env.raw.text, 120)}`);
}

/** The `data` member of a JSON answer, when it is an object. */
function jsonData(env: RestEnvelope<string>): Record<string, unknown> | undefined {
  const doc = rawJson(env) as { data?: unknown } | null;
  const data = doc?.data;
  return typeof data === 'object' && data !== null && !Array.isArray(data)
    ? (data as Record<string, unknown>)
    : undefined;
}

/** The answer holds a `data` envelope (REST.QUERY.LIST_RECORDS: "envelope with record array"). */
export function assertHasEnvelope(env: RestEnvelope<string>): void {
  expectRule(env.hasEnvelope, 'REST.QUERY.LIST_RECORDS', () => `no data envelope in ${show(env.raw.text, 200)}`);
  if (env.format === 'json')
    expectRule(
      jsonData(env) !== undefined,
      'REST.QUERY.LIST_RECORDS',
      () => `"data" is not an object: ${show(env.raw.text, 200)}`,
    );
}

/** `data.@register` names the register of the request (§2 "Envelope (JSON)"). */
export function assertEnvelopeRegister(env: RestEnvelope<string>, register: string): void {
  if (!env.hasEnvelope) return;
  const reg = env.format === 'json' ? jsonData(env)?.['@register'] : env.register;
  expectRule(reg === register, 'REST.ENVELOPE.REGISTER', () => `data.@register is ${show(reg)}, asked ${register}`);
}

/** `data.@sequence` is a string holding an integer. */
export function assertEnvelopeSequence(env: RestEnvelope<string>): void {
  if (!env.hasEnvelope) return;
  const seq = env.format === 'json' ? jsonData(env)?.['@sequence'] : env.sequence;
  expectRule(
    typeof seq === 'string' && INTEGER.test(seq),
    'REST.ENVELOPE.SEQUENCE',
    () => `data.@sequence is ${show(seq)}, not a string holding an integer`,
  );
}

/** `data.@systemversion` is a string (§2; §9 "Each envelope reports @systemversion"). */
export function assertEnvelopeSystemVersion(env: RestEnvelope<string>, rule = 'REST.ENVELOPE.SYSTEMVERSION'): void {
  if (!env.hasEnvelope) return;
  const version = env.format === 'json' ? jsonData(env)?.['@systemversion'] : env.systemVersion;
  expectRule(typeof version === 'string', rule, () => `data.@systemversion is ${show(version)}, not a string`);
}

/** `data.<Register>` is an array of the records (JSON; XML repeats the record element, checked by the XSD). */
export function assertRecordsArray(env: RestEnvelope<string>, register: string): void {
  if (!env.hasEnvelope || env.format !== 'json') return;
  const data = jsonData(env);
  if (!data) return;
  const list = data[register];
  expectRule(
    Array.isArray(list),
    'REST.ENVELOPE.RECORDS_ARRAY',
    () => `data.${register} is ${list === undefined ? 'missing' : show(list, 120)}, not an array`,
  );
}

/** One envelope check of one rule. */
export interface EnvelopeCheck {
  readonly rule: string;
  readonly check: (env: RestEnvelope<string>, register: string) => void;
}

/** Every envelope check, one per rule (a test of one rule runs only its own). */
export const ENVELOPE_CHECKS: readonly EnvelopeCheck[] = [
  { rule: 'REST.QUERY.LIST_RECORDS', check: (env) => assertHasEnvelope(env) },
  { rule: 'REST.ENVELOPE.REGISTER', check: assertEnvelopeRegister },
  { rule: 'REST.ENVELOPE.SEQUENCE', check: (env) => assertEnvelopeSequence(env) },
  { rule: 'REST.ENVELOPE.SYSTEMVERSION', check: (env) => assertEnvelopeSystemVersion(env) },
  { rule: 'REST.ENVELOPE.RECORDS_ARRAY', check: assertRecordsArray },
  { rule: 'REST.SEQ.HEADER', check: (env) => assertSequenceHeader(env) },
];

/**
 * The envelope of a list or write answer: `data` with `@register` naming the register, `@sequence` an
 * integer string, `@systemversion` a string, and `data.<Register>` an array of records (§2 "Envelope
 * (JSON)"). For JSON bodies the raw document is checked, not the client's lenient reading; for XML the
 * XSD checks the element shapes (assertXmlValid) and this the decoded attributes. The Sequence header is
 * {@link assertSequenceHeader}'s.
 */
export function assertEnvelope(env: RestEnvelope<string>, register: string): void {
  for (const c of ENVELOPE_CHECKS) if (c.rule !== 'REST.SEQ.HEADER') c.check(env, register);
}

/**
 * The `Sequence` response header (§4 rule 6): present, an integer, and, where the body has an envelope,
 * the same number as `data@sequence` (both are the current sequence number).
 */
export function assertSequenceHeader(env: RestEnvelope<string>): void {
  const header = env.sequenceHeader;
  expectRule(header !== undefined, 'REST.SEQ.HEADER', () => 'the response has no Sequence header');
  expectRule(INTEGER.test(header.trim()), 'REST.SEQ.HEADER', () => `Sequence header is ${show(header)}`);
  if (env.hasEnvelope && env.sequence !== undefined)
    expectRule(
      BigInt(header.trim()) === BigInt(env.sequence),
      'REST.SEQ.HEADER',
      () => `Sequence header ${header} and data@sequence ${env.sequence} disagree`,
    );
}

/**
 * The current sequence number of an answer: its envelope's `data@sequence` (§2 "current sequence number"),
 * else its Sequence header (§4 rule 6). The envelope comes first so that checks of the feed and of the order
 * of writes do not rest on the header, which REST.SEQ.HEADER judges on its own.
 */
export function sequenceOf(env: RestEnvelope<string>): bigint | undefined {
  for (const text of [env.sequence, env.sequenceHeader?.trim()])
    if (text !== undefined && INTEGER.test(text)) return BigInt(text);
  return undefined;
}

/** `after` is above `before` (REST.SEQ.MONOTONIC and `rule`): a write moved the sequence forward. */
export function assertSequenceAdvanced(before: bigint, after: bigint | undefined, rule: string, what: string): void {
  expectRule(
    after !== undefined && after > before,
    rule,
    () => `${what}: the sequence went from ${before} to ${after ?? '(none)'}`,
  );
}
