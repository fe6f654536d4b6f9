import { BodySyntaxError, DecodeError, type RestEnvelope } from '@erpcert/client';
import { describe, expect, it } from 'vitest';
import {
  assertJsonListBody,
  decodeViolation,
  jsonListBodyValid,
  LIST_BODY_RULE,
  listBodyViolation,
} from './list-body.js';

/** A JSON list answer of `doc` as the client hands it on (only what the checks read). */
function jsonAnswer(doc: unknown, status = 200): RestEnvelope<string> {
  return { format: 'json', raw: { status, text: JSON.stringify(doc) } } as unknown as RestEnvelope<string>;
}

const envelope = (register: string, data: Record<string, unknown>) => ({
  data: { '@register': register, '@sequence': '12', '@systemversion': '1.0', ...data },
});
const sdvc = { '@register': 'SDVc', '@sequence': '3', '@url': '/api/1/SDVc/1', SerNr: '1', OKFlag: '1', rows: [] };

describe('REST list bodies validate, blamed by the part that broke', () => {
  it.each([
    ['an empty register', envelope('SDVc', { SDVc: [] })],
    ['a register with a record', envelope('SDVc', { SDVc: [sdvc] })],
  ])('%s passes', async (_name, doc) => {
    expect(jsonListBodyValid('SDVc', jsonAnswer(doc))).toBe(true);
    expect(await listBodyViolation('SDVc', jsonAnswer(doc))).toBeUndefined();
  });

  it.each([
    ['data null', { data: null }, LIST_BODY_RULE],
    ['data removed', {}, LIST_BODY_RULE],
    ['no record array', envelope('SDVc', {}), 'REST.ENVELOPE.RECORDS_ARRAY'],
    ['@register of another case', envelope('sdvc', { SDVc: [] }), 'REST.ENVELOPE.REGISTER'],
    [
      '@sequence empty',
      { data: { ...envelope('SDVc', { SDVc: [] }).data, '@sequence': '' } },
      'REST.ENVELOPE.SEQUENCE',
    ],
    ['OKFlag a number', envelope('SDVc', { SDVc: [{ ...sdvc, OKFlag: 1 }] }), 'REST.STATE.OKFLAG_VALUES'],
  ])('%s: a violation of the rule that owns that part', async (_name, doc, rule) => {
    expect(jsonListBodyValid('SDVc', jsonAnswer(doc))).toBe(false);
    expect((await listBodyViolation('SDVc', jsonAnswer(doc)))?.rule).toBe(rule);
    expect(() => assertJsonListBody('SDVc', jsonAnswer(doc))).toThrow(`[${rule}]`);
  });

  it('judges no 204, no empty body and no register outside the table', async () => {
    expect(await listBodyViolation('SDVc', jsonAnswer('', 204))).toBeUndefined();
    expect(await listBodyViolation('PRVc', jsonAnswer({ data: null }))).toBeUndefined();
  });

  it('validates an XML body against rest-envelope.xsd', async () => {
    const xml = (seq: string) =>
      ({
        format: 'xml',
        raw: { status: 200, text: `<data register="SDVc" sequence="${seq}" systemversion="1.0"></data>` },
      }) as unknown as RestEnvelope<string>;
    expect(await listBodyViolation('SDVc', xml('12'))).toBeUndefined();
    expect((await listBodyViolation('SDVc', xml('')))?.rule).toBe('REST.ENVELOPE.SEQUENCE');
  });
});

describe('decodeViolation: an envelope the client could not read', () => {
  const decodeError = (text: string, cause?: unknown) =>
    new DecodeError(
      '"data" is not an object',
      {
        operation: 'list',
        register: 'IPVc',
        status: 200,
        exchange: { response: { body: { text } } } as never,
      },
      cause,
    );

  it('is blamed by path from the recorded body', () => {
    const records = JSON.stringify(envelope('IPVc', { IPVc: ['10001'] }));
    expect(decodeViolation('IPVc', decodeError(records))?.rule).toBe('REST.ENVELOPE.RECORDS_ARRAY');
    expect(decodeViolation('IPVc', decodeError('{"data":null}'))?.rule).toBe(LIST_BODY_RULE);
  });

  it('is the envelope rule when the body is not at hand, and nothing for a body that does not parse', () => {
    expect(decodeViolation('IPVc', decodeError(''))?.rule).toBe(LIST_BODY_RULE);
    expect(decodeViolation('IPVc', decodeError('{"data"', new BodySyntaxError('bad JSON')))).toBeUndefined();
    expect(decodeViolation('IPVc', new Error('other'))).toBeUndefined();
  });
});
