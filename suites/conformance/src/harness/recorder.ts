/**
 * Keeps the exchanges the client observes (secrets already masked by the client) so that a FAIL can carry
 * the exchanges of its failing run (meta.ts FailureDetail). One recorder per worker; tests in a file run
 * one after another, so "the current run" is well defined.
 */
import type { Exchange, ExchangeBody, ExchangeHeader } from '@erpcert/client';
import type { RecordedExchange, TargetFault, ThrottleCounts } from './meta.js';
import { observe } from './observations.js';
import { exchangeFault, TRANSPORT_RULES } from './target-fault.js';
import { behavioursOf } from './through.js';

/** Bodies in a report are cut to this many characters. @defaultValue 4096 */
export const RECORDED_BODY_CHARS = 4096;

function headerMap(headers: readonly ExchangeHeader[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of headers) {
    const name = h.name.toLowerCase();
    out[name] = out[name] === undefined ? h.value : `${out[name]}, ${h.value}`;
  }
  return out;
}

function bodyText(body: ExchangeBody | undefined, max: number): string | undefined {
  if (!body || body.size === 0) return undefined;
  const text = body.encoding === 'base64' ? `(binary, ${body.size} bytes, base64) ${body.text}` : body.text;
  const cut = text.length > max || body.truncated === true;
  return cut ? `${text.slice(0, max)}... (${body.size} bytes in all)` : text;
}

/** The client's masked exchange in the report's shape (meta.ts RecordedExchange), bodies cut to `maxBody`. */
export function toRecordedExchange(e: Exchange, maxBody: number = RECORDED_BODY_CHARS): RecordedExchange {
  const reqBody = bodyText(e.request.body, maxBody);
  const request = {
    method: e.request.method,
    url: e.request.url,
    headers: headerMap(e.request.headers),
    ...(reqBody !== undefined ? { body: reqBody } : {}),
  };
  if (!e.response) return { request, ...(e.error !== undefined ? { error: e.error } : {}), durationMs: e.durationMs };
  const resBody = bodyText(e.response.body, maxBody);
  return {
    request,
    response: {
      status: e.response.status,
      headers: headerMap(e.response.headers),
      ...(resBody !== undefined ? { body: resBody } : {}),
    },
    durationMs: e.durationMs,
  };
}

/** Faults kept per test: the first few are the evidence, the rest would repeat it. */
export const MAX_FAULTS = 5;

/**
 * The transport observation of a 2xx answer: the client parses every 2xx body it receives and throws
 * DecodeError when the body does not parse (target-fault.ts), so each received XML or JSON body is a check
 * of the XML or JSON rule of its API. A JSON PATCH answer is exempt (malformed on live servers, DESIGN.md).
 */
function transportObservation(e: Exchange): string | undefined {
  if (!e.response || e.response.status < 200 || e.response.status > 299) return undefined;
  const text = e.response.body.text.trimStart();
  const api = e.api === 'rest' ? 'rest' : e.api === 'portal' ? 'portal' : undefined;
  if (!api || e.response.body.encoding === 'base64') return undefined;
  if (text.startsWith('<')) return TRANSPORT_RULES[api].xml;
  if (text.startsWith('{') || text.startsWith('[')) {
    if (api === 'rest' && e.operation === 'update') return undefined;
    return TRANSPORT_RULES[api].json;
  }
  return undefined;
}

/**
 * Collects exchanges per test and per property run. `observe` is the client's `onExchange`; `beginTest`
 * and `beginRun` start a new collection; `current` is what the current run (or test) sent. It also keeps
 * the target faults of the test and of the run (a 5xx, no answer: target-fault.ts) and counts the
 * transport observations (observations.ts).
 */
export class ExchangeRecorder {
  #test: Exchange[] = [];
  #run: Exchange[] = [];
  #testFaults: TargetFault[] = [];
  #runFaults: TargetFault[] = [];
  /** The behaviours the test's and the run's requests passed data through (through.ts). */
  #testThrough = new Set<string>();
  #runThrough = new Set<string>();
  #throttling = { retried: 0, waitedMs: 0, gaveUp: 0 };
  /** At most this many exchanges are kept per test (the latest). @defaultValue 200 */
  readonly limit: number;

  constructor(limit = 200) {
    this.limit = limit;
  }

  /** The client's exchange observer. */
  readonly observe = (e: Exchange): void => {
    this.#countThrottle(e);
    const fault = exchangeFault(e);
    if (fault) {
      this.addFault(fault);
      if (fault.rule !== null) observe(fault.rule);
    } else {
      const rule = transportObservation(e);
      if (rule !== undefined) observe(rule);
    }
    for (const b of behavioursOf(e)) {
      this.#testThrough.add(b);
      this.#runThrough.add(b);
    }
    this.#test.push(e);
    this.#run.push(e);
    if (this.#test.length > this.limit) this.#test.splice(0, this.#test.length - this.limit);
    if (this.#run.length > this.limit) this.#run.splice(0, this.#run.length - this.limit);
  };

  #countThrottle(e: Exchange): void {
    if (e.throttle?.outcome === 'retried') {
      this.#throttling.retried++;
      this.#throttling.waitedMs += e.throttle.waitMs;
    } else if (e.throttle?.outcome === 'gave-up' || e.response?.status === 429) this.#throttling.gaveUp++;
  }

  /** The throttled answers of the test so far; undefined when there were none. */
  throttling(): ThrottleCounts | undefined {
    const t = this.#throttling;
    return t.retried + t.gaveUp > 0 ? { ...t } : undefined;
  }

  /** Starts a test: forgets everything. */
  beginTest(): void {
    this.#throttling = { retried: 0, waitedMs: 0, gaveUp: 0 };
    this.#test = [];
    this.#run = [];
    this.#testFaults = [];
    this.#runFaults = [];
    this.#testThrough = new Set();
    this.#runThrough = new Set();
  }

  /** Starts one property run: forgets the exchanges of the previous run. */
  beginRun(): void {
    this.#run = [];
    this.#runFaults = [];
    this.#runThrough = new Set();
  }

  /** The behaviours the current run's requests passed data through (through.ts), sorted. */
  runThrough(): string[] {
    return [...this.#runThrough].sort();
  }

  /** The behaviours the whole test's requests passed data through, sorted. */
  testThrough(): string[] {
    return [...this.#testThrough].sort();
  }

  /** Keeps a fault (from an exchange or from a client error) of the test and of the current run, once. */
  addFault(fault: TargetFault): void {
    const same = (f: TargetFault) => f.rule === fault.rule && f.detail === fault.detail;
    if (!this.#runFaults.some(same)) this.#runFaults.push(fault);
    if (this.#testFaults.length < MAX_FAULTS && !this.#testFaults.some(same)) this.#testFaults.push(fault);
  }

  /** The faults of the current run. */
  runFaults(): TargetFault[] {
    return [...this.#runFaults];
  }

  /** The faults of the whole test so far (the first {@link MAX_FAULTS}). */
  testFaults(): TargetFault[] {
    return [...this.#testFaults];
  }

  /** The exchanges of the current run, in the report's shape. */
  run(): RecordedExchange[] {
    return this.#run.map((e) => toRecordedExchange(e));
  }

  /** The exchanges of the whole test so far, in the report's shape (the latest `last`). */
  test(last = 20): RecordedExchange[] {
    return this.#test.slice(-last).map((e) => toRecordedExchange(e));
  }
}
