import { ErpError, HttpStatusError, TransportError } from '@erpcert/client';
import { afterEach, describe, expect, it } from 'vitest';
import { accepted, RequestRefused } from './accepted.js';
import { beginObservations, endObservations, observationRecords } from './observations.js';
import { classifyFailure } from './rule-test.js';

afterEach(() => endObservations());

const RULE = 'REST.WRITE.JSON_AT_REGISTER_OPTIONAL';
const where = { operation: 'createJson', register: 'CUVc' } as const;

/** The errors the client throws for the answers a server can give a request. */
const answers = {
  'HTTP 400 with a JSON error': () =>
    new ErpError('json-error', [{ code: '1011', description: 'the body holds no CUVc record' }], {
      ...where,
      status: 400,
    }),
  'HTTP 200 with an <error> element': () =>
    new ErpError('error-element', [{ code: '1058', description: 'Code is required' }], { ...where, status: 200 }),
  'HTTP 404 with a plain text': () => new HttpStatusError(404, 'Not Found', 'not here', { ...where, status: 404 }),
  'HTTP 500 with a JSON error': () =>
    new ErpError('json-error', [{ code: '1', description: 'crash' }], { ...where, status: 500 }),
  'no answer': () => new TransportError('reset', 'socket hang up', { ...where }),
};

describe('accepted: a refusal of a documented-accepted request FAILs the rule that allows it', () => {
  it.each<[keyof typeof answers, 'refused' | 'passed through']>([
    ['HTTP 400 with a JSON error', 'refused'],
    ['HTTP 200 with an <error> element', 'refused'],
    ['HTTP 404 with a plain text', 'refused'],
    ['HTTP 500 with a JSON error', 'passed through'],
    ['no answer', 'passed through'],
  ])('%s: %s', async (answer, want) => {
    const records = observationRecords();
    beginObservations(records);
    const thrown = answers[answer]();
    const err = await accepted(RULE, Promise.reject(thrown), 'JSON POST of CUVc with @register').catch((e) => e);
    if (want === 'refused') {
      expect(err).toBeInstanceOf(RequestRefused);
      expect(err.rule).toBe(RULE);
      expect(err.message).toMatch(/^\[REST\.WRITE\.JSON_AT_REGISTER_OPTIONAL\] .*the target refused it/);
      // a FAIL of the allowing rule, not an ERROR of the test's rules
      expect(classifyFailure(err, [])).toEqual({ kind: 'violation', rules: [RULE] });
      expect(records.decisive[RULE]).toBe(1);
    } else {
      expect(err).toBe(thrown);
      expect(records.counts[RULE]).toBeUndefined();
    }
  });

  it('a success passes its value and counts nothing', async () => {
    const records = observationRecords();
    beginObservations(records);
    await expect(accepted(RULE, Promise.resolve(7), 'x')).resolves.toBe(7);
    expect(records.counts).toEqual({});
  });

  it('an unknown rule is a defect of the suite', async () => {
    await expect(accepted('REST.NOPE.NOPE', Promise.resolve(1), 'x')).rejects.toThrow(/unknown rule id/);
  });
});
