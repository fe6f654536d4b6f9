import { ErpError, ErrorCode } from '../errors.js';
import { type EnvelopeInfo, envelopeJson, envelopeXml, errorJson, errorXml } from '../render/envelope.js';
import type { AppResponse, RouteRequest } from './types.js';

/** Encodes a text body in the request's charset; characters Latin-1 lacks become `?`. */
export function encodeText(text: string, charset: RouteRequest['charset']): Buffer {
  if (charset === 'utf-8') return Buffer.from(text, 'utf8');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every character beyond Latin-1
  return Buffer.from(text.replace(/[^\u0000-\u00ff]/g, '?'), 'latin1');
}

/** A text response: XML gets its declaration; the Content-Type names the charset unless it is Latin-1 (quirks). */
export function textResponse(
  req: Pick<RouteRequest, 'charset'>,
  status: number,
  type: 'application/xml' | 'application/json' | 'text/plain',
  text: string,
  headers: Record<string, string | string[]> = {},
): AppResponse {
  const latin = req.charset === 'latin1';
  const body =
    type === 'application/xml' ? `<?xml version="1.0" encoding="${latin ? 'ISO-8859-1' : 'UTF-8'}"?>\n${text}` : text;
  return {
    status,
    headers: { 'Content-Type': latin ? type : `${type}; charset=utf-8`, ...headers },
    body: encodeText(body, req.charset),
  };
}

/** An envelope response with record elements (XML text or a JSON array text). */
export function dataResponse(
  req: RouteRequest,
  info: EnvelopeInfo,
  records: string | undefined,
  headers: Record<string, string | string[]> = {},
): AppResponse {
  return req.format === 'json'
    ? textResponse(req, 200, 'application/json', envelopeJson(info, records ?? '[]'), headers)
    : textResponse(req, 200, 'application/xml', envelopeXml(info, records ?? ''), headers);
}

/**
 * Renders an ErpError. Status 200 (a validation error of a write) puts `<error>` before an empty
 * `<data>` envelope, as real deployments do; other statuses send the error shape alone, or plain text.
 */
export function errorResponse(
  req: Pick<RouteRequest, 'format' | 'charset'>,
  err: ErpError,
  envelope?: EnvelopeInfo,
): AppResponse {
  if (err.plainText) return textResponse(req, err.status, 'text/plain', `${err.description}\n`, err.headers);
  if (req.format === 'json') return textResponse(req, err.status, 'application/json', errorJson(err), err.headers);
  const tail = err.status === 200 && envelope ? envelopeXml(envelope) : '';
  return textResponse(req, err.status, 'application/xml', errorXml(err) + tail, err.headers);
}

/** The 500 answer: the error shape with a generic text and no stack (the stack goes to the log). */
export function internalError(req: Pick<RouteRequest, 'format' | 'charset'>): AppResponse {
  return errorResponse(
    req,
    new ErpError(500, ErrorCode.internal, 'internal server error; the server log has the details'),
  );
}
