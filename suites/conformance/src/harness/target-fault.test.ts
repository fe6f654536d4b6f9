import { DecodeError, decodeBody, ErpError, type Exchange, HttpStatusError, TransportError } from '@erpcert/client';
import { describe, expect, it } from 'vitest';
import { beginObservations, endObservations, observationRecords } from './observations.js';
import { ExchangeRecorder } from './recorder.js';
import { errorFault, exchangeFault, failureFormRule, isTargetFault } from './target-fault.js';

function exchange(api: 'rest' | 'portal', status: number | undefined, body = '', operation = 'list'): Exchange {
  return {
    id: 1,
    api,
    operation,
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 3,
    request: {
      method: 'GET',
      url: api === 'rest' ? 'http://h/api/1/CUVc' : 'http://h/WebErpAPI.hal?action=login',
      headers: [],
    },
    ...(status === undefined
      ? { error: 'read ECONNRESET' }
      : {
          response: {
            status,
            statusText: '',
            httpVersion: '1.1',
            headers: [],
            body: { mimeType: '', text: body, size: body.length },
          },
        }),
  };
}

const HTML = '<!DOCTYPE html><html><body>Internal Server Error</body></html>';

describe('failureFormRule: is a 5xx body in a documented failure form?', () => {
  it.each<[string, 'rest' | 'portal', string, string | null]>([
    ['REST HTML page', 'rest', HTML, 'REST.ENVELOPE.FAILURE_XML_OR_JSON'],
    ['REST empty body', 'rest', '', 'REST.ENVELOPE.FAILURE_XML_OR_JSON'],
    ['REST plain text', 'rest', 'Internal error', 'REST.ENVELOPE.FAILURE_XML_OR_JSON'],
    ['REST truncated JSON', 'rest', '{"error":', 'REST.ENVELOPE.FAILURE_XML_OR_JSON'],
    ['REST any XML (the error format is not shown)', 'rest', '<data><x/></data>', null],
    ['REST any JSON', 'rest', '{"message":"boom"}', null],
    ['portal <error>', 'portal', '<error description="boom"/>', null],
    ['portal errstr', 'portal', '<data><res errstr="boom"/></data>', null],
    ['portal JSON error', 'portal', '{"error":{"@description":"boom"}}', null],
    ['portal XML without a failure', 'portal', '<data><res errstr=""/></data>', 'PORTAL.ERRORS.FAILURE_FORM'],
    ['portal HTML page', 'portal', HTML, 'PORTAL.ERRORS.FAILURE_FORM'],
    ['portal empty body', 'portal', '', 'PORTAL.ERRORS.FAILURE_FORM'],
  ])('%s', (_name, api, body, want) => {
    expect(failureFormRule(api, body)).toBe(want);
  });
});

describe('exchangeFault', () => {
  it.each<[string, Exchange, string | null | undefined]>([
    ['a 200 is no fault', exchange('rest', 200, '<data/>'), undefined],
    ['a 404 is a refusal, no fault', exchange('rest', 404, 'no such index'), undefined],
    ['an HTML 500 breaks the REST failure rule', exchange('rest', 500, HTML), 'REST.ENVELOPE.FAILURE_XML_OR_JSON'],
    [
      'a portal 503 with <error> breaks nothing (still a fault)',
      exchange('portal', 503, '<error description="x"/>'),
      null,
    ],
    ['no answer at all: a fault without a rule', exchange('rest', undefined), null],
    [
      'a 429 the client waited out and sent again is no fault',
      { ...exchange('rest', 429, 'slow down'), throttle: { outcome: 'retried', waitMs: 1000 } },
      undefined,
    ],
    [
      'a text/plain 503 the client waited out is no fault',
      { ...exchange('portal', 503, 'Service Unavailable'), throttle: { outcome: 'retried', waitMs: 1000 } },
      undefined,
    ],
    [
      'a 429 the client gave up on: a fault without a rule (ERROR, never FAIL)',
      {
        ...exchange('rest', 429, 'slow down'),
        throttle: { outcome: 'gave-up', reason: 'still throttled after 3 retries' },
      },
      null,
    ],
    [
      'a plain-text 503 with Retry-After it gave up on blames no failure form',
      { ...exchange('rest', 503, 'Service Unavailable'), throttle: { outcome: 'gave-up', reason: 'too long' } },
      null,
    ],
    ['a 429 without Retry-After: a fault without a rule', exchange('portal', 429, ''), null],
  ])('%s', (_name, e, want) => {
    const f = exchangeFault(e);
    if (want === undefined) expect(f).toBeUndefined();
    else {
      expect(f?.rule).toBe(want);
      expect(f?.exchange?.request.url).toBe(e.request.url);
    }
  });

  it('a request we aborted is no fault of the target', () => {
    expect(exchangeFault({ ...exchange('rest', undefined), error: 'This operation was aborted' })).toBeUndefined();
  });
});

describe('isTargetFault and errorFault: client errors', () => {
  const ctx = { operation: 'list', register: 'CUVc', exchange: exchange('rest', 200, '{"data":') };
  const syntax = (() => {
    try {
      decodeBody('{"data":');
    } catch (err) {
      return err;
    }
  })();
  it.each<[string, unknown, boolean, string | null | undefined]>([
    ['a body that does not parse', new DecodeError('malformed JSON', ctx, syntax), true, 'REST.ENVELOPE.JSON_PARSES'],
    ['a shape the client cannot read: not a fault', new DecodeError('no data envelope', ctx), false, undefined],
    ['a timeout', new TransportError('timeout', 'no answer', ctx), true, null],
    ['a cancelled request: ours', new TransportError('aborted', 'aborted', ctx), false, undefined],
    ['an HTML 500', new HttpStatusError(500, '', HTML, ctx), true, 'REST.ENVELOPE.FAILURE_XML_OR_JSON'],
    ['a 404: a refusal', new HttpStatusError(404, '', 'nope', ctx), false, undefined],
    [
      'an <error> at HTTP 500: a fault in a documented form',
      new ErpError('error-element', [{ description: 'x' }], { ...ctx, status: 500 }),
      true,
      null,
    ],
    [
      'an <error> at HTTP 200: a refusal',
      new ErpError('error-element', [{ description: 'x' }], { ...ctx, status: 200 }),
      false,
      undefined,
    ],
    ['a TypeError of the suite', new TypeError('x is undefined'), false, undefined],
    ['a 429 handed on: a fault without a rule', new HttpStatusError(429, '', 'slow down', ctx), true, null],
    [
      'a plain-text 503 with Retry-After handed on: a fault without a rule',
      new HttpStatusError(503, '', 'Service Unavailable', {
        ...ctx,
        exchange: { ...exchange('rest', 503, 'Service Unavailable'), throttle: { outcome: 'gave-up', reason: 'x' } },
      }),
      true,
      null,
    ],
  ])('%s', (_name, err, fault, rule) => {
    expect(isTargetFault(err)).toBe(fault);
    expect(errorFault(err)?.rule).toBe(rule);
  });

  it('a malformed PATCH answer is handled, never a FAIL (DESIGN.md): a fault without a rule', () => {
    const patch = new DecodeError('malformed JSON', { ...ctx, operation: 'update' }, syntax);
    expect(errorFault(patch)?.rule).toBeNull();
  });
});

describe('ExchangeRecorder: throttled answers', () => {
  it('counts what the client waited out and what it handed on, per test', () => {
    const r = new ExchangeRecorder();
    r.beginTest();
    expect(r.throttling()).toBeUndefined();
    r.observe({ ...exchange('rest', 429, ''), throttle: { outcome: 'retried', waitMs: 1000 } });
    r.observe({ ...exchange('rest', 503, ''), throttle: { outcome: 'retried', waitMs: 2500 } });
    r.observe({ ...exchange('rest', 429, ''), throttle: { outcome: 'gave-up', reason: 'x' } });
    r.observe(exchange('portal', 429, ''));
    r.observe(exchange('rest', 200, '<data/>'));
    expect(r.throttling()).toEqual({ retried: 2, waitedMs: 3500, gaveUp: 2 });
    expect(r.testFaults().map((f) => f.rule)).toEqual([null, null]);
    r.beginTest();
    expect(r.throttling()).toBeUndefined();
  });
});

describe('ExchangeRecorder: faults and transport observations', () => {
  it('keeps the faults of the test and the run, and counts each 2xx XML or JSON answer as an observation', () => {
    const counts = observationRecords().counts;
    beginObservations({ counts: counts, decisive: {}, undecided: {} });
    const r = new ExchangeRecorder();
    r.beginTest();
    r.observe(exchange('rest', 200, '<data/>'));
    r.observe(exchange('rest', 200, '{"data":{}}'));
    r.observe(exchange('portal', 200, '<data><res errstr=""/></data>'));
    r.observe(exchange('rest', 200, '{"data":{}}', 'update')); // PATCH answers are exempt
    r.observe(exchange('rest', 500, HTML));
    r.beginRun();
    r.observe(exchange('rest', 500, HTML)); // the same fault again: kept once per test
    endObservations();
    expect(counts).toEqual({
      'REST.ENVELOPE.XML_WELL_FORMED': 1,
      'REST.ENVELOPE.JSON_PARSES': 1,
      'PORTAL.DISPATCH.XML_WELL_FORMED': 1,
      'REST.ENVELOPE.FAILURE_XML_OR_JSON': 2,
    });
    expect(r.testFaults().map((f) => f.rule)).toEqual(['REST.ENVELOPE.FAILURE_XML_OR_JSON']);
    expect(r.runFaults()).toHaveLength(1);
    r.beginTest();
    expect(r.testFaults()).toEqual([]);
  });
});
