import type { RestEnvelope } from '@erpcert/client';
import { describe, expect, it } from 'vitest';
import { ContractViolation } from '../violation.js';
import { assertEnvelope, assertFormat, assertSequenceAdvanced, assertSequenceHeader, sequenceOf } from './envelope.js';

/** An envelope as the client decodes it, from a JSON or XML text. */
function env(text: string, over: Partial<RestEnvelope<string>> = {}): RestEnvelope<string> {
  const json = text.trimStart().startsWith('{');
  const data = json ? (JSON.parse(text) as { data?: Record<string, unknown> }).data : undefined;
  return {
    register: String(data?.['@register'] ?? 'CUVc'),
    sequence: data?.['@sequence'] as string | undefined,
    systemVersion: data?.['@systemversion'] as string | undefined,
    records: [],
    sequenceHeader: '9',
    messages: [],
    format: json ? 'json' : 'xml',
    hasEnvelope: true,
    raw: { text } as RestEnvelope<string>['raw'],
    ...over,
  };
}

const good = '{"data":{"@register":"CUVc","@sequence":"9","@systemversion":"1.0","CUVc":[]}}';

function ruleOf(f: () => void): string | undefined {
  try {
    f();
    return undefined;
  } catch (err) {
    if (err instanceof ContractViolation) return err.rule;
    throw err;
  }
}

describe('assertEnvelope (JSON read raw)', () => {
  it.each([
    ['good', good, undefined],
    [
      '@register of another register',
      good.replace('"@register":"CUVc"', '"@register":"INVc"'),
      'REST.ENVELOPE.REGISTER',
    ],
    ['@sequence a number', good.replace('"9"', '9'), 'REST.ENVELOPE.SEQUENCE'],
    ['@sequence not an integer', good.replace('"9"', '"x"'), 'REST.ENVELOPE.SEQUENCE'],
    ['no @systemversion', good.replace('"@systemversion":"1.0",', ''), 'REST.ENVELOPE.SYSTEMVERSION'],
    ['records not an array', good.replace('"CUVc":[]', '"CUVc":{}'), 'REST.ENVELOPE.RECORDS_ARRAY'],
    ['data an array', '{"data":[]}', 'REST.QUERY.LIST_RECORDS'],
  ])('%s', (_label, text, rule) => {
    expect(ruleOf(() => assertEnvelope(env(text), 'CUVc'))).toBe(rule);
  });

  it('an answer without envelope', () => {
    expect(ruleOf(() => assertEnvelope(env('', { hasEnvelope: false }), 'CUVc'))).toBe('REST.QUERY.LIST_RECORDS');
  });

  it('XML: the decoded attributes', () => {
    const xml = env('<data/>', { format: 'xml', register: 'CUVc', sequence: '9', systemVersion: '1' });
    expect(ruleOf(() => assertEnvelope(xml, 'CUVc'))).toBeUndefined();
    expect(ruleOf(() => assertEnvelope({ ...xml, systemVersion: undefined }, 'CUVc'))).toBe(
      'REST.ENVELOPE.SYSTEMVERSION',
    );
  });
});

describe('assertFormat', () => {
  it.each([
    [good, 'json', undefined],
    ['<data/>', 'xml', undefined],
    ['<data/>', 'json', 'REST.ENVELOPE.JSON_ON_ACCEPT'],
    [good, 'xml', 'REST.ENVELOPE.XML_DEFAULT'],
  ] as const)('%s asked %s', (text, asked, rule) => {
    expect(ruleOf(() => assertFormat(env(text), asked))).toBe(rule);
  });
});

describe('the Sequence header', () => {
  it.each([
    ['agrees with the envelope', '9', undefined],
    ['missing', undefined, 'REST.SEQ.HEADER'],
    ['not a number', 'abc', 'REST.SEQ.HEADER'],
    ['disagrees with the envelope', '8', 'REST.SEQ.HEADER'],
  ])('%s', (_label, header, rule) => {
    expect(ruleOf(() => assertSequenceHeader(env(good, { sequenceHeader: header })))).toBe(rule);
  });

  it('sequenceOf prefers the envelope, then the header', () => {
    expect(sequenceOf(env(good, { sequenceHeader: ' 12 ' }))).toBe(9n);
    expect(sequenceOf(env(good, { sequenceHeader: undefined }))).toBe(9n);
    expect(sequenceOf(env(good, { sequence: undefined, sequenceHeader: ' 12 ' }))).toBe(12n);
    expect(sequenceOf(env(good, { sequence: 'x', sequenceHeader: '12' }))).toBe(12n);
    expect(sequenceOf(env('', { sequenceHeader: undefined, sequence: undefined }))).toBeUndefined();
  });

  it('assertSequenceAdvanced wants strictly more', () => {
    expect(ruleOf(() => assertSequenceAdvanced(5n, 6n, 'REST.SEQ.MONOTONIC', 'w'))).toBeUndefined();
    expect(ruleOf(() => assertSequenceAdvanced(5n, 5n, 'REST.SEQ.MONOTONIC', 'w'))).toBe('REST.SEQ.MONOTONIC');
    expect(ruleOf(() => assertSequenceAdvanced(5n, undefined, 'REST.SEQ.MONOTONIC', 'w'))).toBe('REST.SEQ.MONOTONIC');
  });
});
