/**
 * Keeps the exchanges the client observes (secrets already masked by the client) so that a FAIL can carry
 * the exchanges of its failing run (meta.ts FailureDetail). One recorder per worker; tests in a file run
 * one after another, so "the current run" is well defined.
 */
import type { Exchange, ExchangeBody, ExchangeHeader } from '@erpcert/client';
import type { RecordedExchange } from './meta.js';

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

/**
 * Collects exchanges per test and per property run. `observe` is the client's `onExchange`; `beginTest`
 * and `beginRun` start a new collection; `current` is what the current run (or test) sent.
 */
export class ExchangeRecorder {
  #test: Exchange[] = [];
  #run: Exchange[] = [];
  /** At most this many exchanges are kept per test (the latest). @defaultValue 200 */
  readonly limit: number;

  constructor(limit = 200) {
    this.limit = limit;
  }

  /** The client's exchange observer. */
  readonly observe = (e: Exchange): void => {
    this.#test.push(e);
    this.#run.push(e);
    if (this.#test.length > this.limit) this.#test.splice(0, this.#test.length - this.limit);
    if (this.#run.length > this.limit) this.#run.splice(0, this.#run.length - this.limit);
  };

  /** Starts a test: forgets everything. */
  beginTest(): void {
    this.#test = [];
    this.#run = [];
  }

  /** Starts one property run: forgets the exchanges of the previous run. */
  beginRun(): void {
    this.#run = [];
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
