import { describe, expect, it } from 'vitest';
import type { RouteRequest } from '../http/types.js';
import { buildSchema } from '../schema/register-schema.js';
import { rawControlCharsQuirk } from './observed-answers.js';

const schema = buildSchema({
  name: 'RLinkVc',
  key: ['SerNr'],
  fields: ['SerNr', 'FromRecidStr'],
  behaviour: {
    filters: [],
    feeds: [],
    labels: {},
    errors: [],
    onDuplicate: 'refuse',
    printout: true,
    rawControlChars: ['FromRecidStr'],
  },
});
const json = { format: 'json', charset: 'utf-8' } as RouteRequest;
const answer = (value: unknown) => ({ status: 200, headers: {}, body: Buffer.from(JSON.stringify(value)) });

describe('rawControlCharsQuirk (--quirks, issue 21)', () => {
  const C1 = String.fromCharCode(1);
  const C2 = String.fromCharCode(2);
  it.each([
    ['a control character escape becomes the raw character', `${C2}SVOVc`, `{"FromRecidStr":"${C2}SVOVc"}`],
    ['an escaped backslash before "u0001" stays text', '\\u0001', '{"FromRecidStr":"\\\\u0001"}'],
    ['an escaped backslash, then a control character', `\\${C1}`, `{"FromRecidStr":"\\\\${C1}"}`],
  ])('%s', (_name, value, want) => {
    const body = rawControlCharsQuirk(answer({ FromRecidStr: value }), schema, json).body.toString('utf8');
    expect(body).toBe(want);
  });

  it('leaves XML answers and registers without rawControlChars alone', () => {
    const res = answer({ FromRecidStr: String.fromCharCode(1) });
    expect(rawControlCharsQuirk(res, schema, { ...json, format: 'xml' })).toBe(res);
    expect(rawControlCharsQuirk(res, buildSchema({ name: 'X', key: ['A'], fields: ['A'] }), json)).toBe(res);
  });
});
