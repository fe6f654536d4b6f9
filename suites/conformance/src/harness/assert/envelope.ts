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

/**
 * The envelope of a list or write answer: `data` with `@register` naming the register, `@sequence` an
 * integer string, `@systemversion` a string, and `data.<Register>` an array of records (§2 "Envelope
 * (JSON)"; REST.QUERY.LIST_RECORDS). For JSON bodies the raw document is checked, not the client's lenient
 * reading; for XML the XSD checks the element shapes (assertXmlValid) and this the decoded attributes.
 */
export function assertEnvelope(env: RestEnvelope<string>, register: string): void {
  expectRule(env.hasEnvelope, 'REST.QUERY.LIST_RECORDS', () => `no data envelope in ${show(env.raw.text, 200)}`);
  if (env.format === 'json') {
    const doc = rawJson(env) as { data?: Record<string, unknown> } | null;
    const data = doc?.data;
    expectRule(
      typeof data === 'object' && data !== null && !Array.isArray(data),
      'REST.QUERY.LIST_RECORDS',
      () => `"data" is not an object: ${show(data)}`,
    );
    const reg = data['@register'];
    expectRule(reg === register, 'REST.ENVELOPE.REGISTER', () => `data.@register is ${show(reg)}, asked ${register}`);
    const seq = data['@sequence'];
    expectRule(
      typeof seq === 'string' && INTEGER.test(seq),
      'REST.ENVELOPE.SEQUENCE',
      () => `data.@sequence is ${show(seq)}, not a string holding an integer`,
    );
    const version = data['@systemversion'];
    expectRule(
      typeof version === 'string',
      'REST.ENVELOPE.SYSTEMVERSION',
      () => `data.@systemversion is ${show(version)}, not a string`,
    );
    const list = data[register];
    expectRule(
      Array.isArray(list),
      'REST.ENVELOPE.RECORDS_ARRAY',
      () => `data.${register} is ${list === undefined ? 'missing' : show(list, 120)}, not an array`,
    );
    return;
  }
  expectRule(
    env.register === register,
    'REST.ENVELOPE.REGISTER',
    () => `<data register> is ${show(env.register)}, asked ${register}`,
  );
  expectRule(
    env.sequence !== undefined && INTEGER.test(env.sequence),
    'REST.ENVELOPE.SEQUENCE',
    () => `<data sequence> is ${show(env.sequence)}, not an integer`,
  );
  expectRule(env.systemVersion !== undefined, 'REST.ENVELOPE.SYSTEMVERSION', () => '<data> has no systemversion');
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

/** The current sequence of an answer: its header, else its envelope. */
export function sequenceOf(env: RestEnvelope<string>): bigint | undefined {
  const text = env.sequenceHeader?.trim() ?? env.sequence;
  return text !== undefined && INTEGER.test(text) ? BigInt(text) : undefined;
}

/** `after` is above `before` (REST.SEQ.MONOTONIC and `rule`): a write moved the sequence forward. */
export function assertSequenceAdvanced(before: bigint, after: bigint | undefined, rule: string, what: string): void {
  expectRule(
    after !== undefined && after > before,
    rule,
    () => `${what}: the sequence went from ${before} to ${after ?? '(none)'}`,
  );
}
