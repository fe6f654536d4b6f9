import { type BodySyntaxError, type DecodedBody, decodeBody } from './body-decode.js';
import { DecodeError, ErpError, type ErrorContext, HttpStatusError } from './errors.js';
import type { RawResponse } from './http-core.js';

/** True for a 2xx status. */
export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The error context of a response: operation, register, status and the masked exchange. */
export function contextOf(raw: RawResponse, operation: string, register?: string): ErrorContext {
  return { operation, ...(register ? { register } : {}), status: raw.status, exchange: raw.exchange };
}

/**
 * Decodes a body and throws what it reports: `ErpError` for `<error>` elements or a JSON error (whatever the
 * status), `HttpStatusError` for any other non-2xx, `DecodeError` for a malformed 2xx body.
 */
export function decodeChecked(raw: RawResponse, operation: string, register?: string): DecodedBody {
  let body: DecodedBody;
  try {
    body = decodeBody(raw.text);
  } catch (err) {
    const ctx = contextOf(raw, operation, register);
    if (!isSuccess(raw.status)) throw new HttpStatusError(raw.status, raw.statusText, raw.text, ctx);
    throw new DecodeError((err as BodySyntaxError).message, ctx, err);
  }
  if (body.errors.length > 0) {
    const source = body.format === 'json' ? 'json-error' : 'error-element';
    throw new ErpError(source, body.errors, contextOf(raw, operation, register), body.messages);
  }
  if (!isSuccess(raw.status))
    throw new HttpStatusError(raw.status, raw.statusText, raw.text, contextOf(raw, operation, register));
  return body;
}
