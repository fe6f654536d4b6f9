/**
 * Faults of the target below the contract's level, detected centrally (issue 9 "A new verdict, ERROR"):
 * a 5xx answer, a body that does not parse, a reset or a timeout, a throttled answer (429, or 503 with
 * `Retry-After`) the client did not wait out. Each is judged against the transport
 * rules of specs/rules.yaml (standing `inferred`) and gives the rules whose checks it cut short ERROR:
 *
 * - a 5xx answer whose body is not in a documented failure form: the REST answer is neither XML nor JSON
 *   (`REST.ENVELOPE.FAILURE_XML_OR_JSON`; the REST error format itself is not shown), the portal answer
 *   holds neither an `<error>` element, a non-empty `errstr` nor a JSON error (`PORTAL.ERRORS.FAILURE_FORM`);
 *   a 5xx in a documented form breaks no rule but still could not be judged (ERROR only);
 * - a 2xx body that the client cannot parse (DecodeError caused by BodySyntaxError): the XML or JSON rule
 *   of its API (`*.XML_WELL_FORMED`, `*.JSON_PARSES`);
 * - no answer at all (reset, timeout, refused, an unreadable status line): no rule quotes the docs for it,
 *   so nothing FAILs, and the cut-short rules get ERROR.
 *
 * Judged from the client's errors (on the unmasked body) and from the recorded exchanges (status line and
 * a short body: a masked secret never stands in an HTML error page).
 */
import {
  decodeBody,
  ErpError,
  type Exchange,
  isErpClientError,
  sniffFormat,
  type TransportError,
} from '@erpcert/client';
import type { RecordedExchange, TargetFault } from './meta.js';
import { toRecordedExchange } from './recorder.js';

/** The transport rules, by API (specs/rules.yaml). */
export const TRANSPORT_RULES = {
  rest: {
    failureForm: 'REST.ENVELOPE.FAILURE_XML_OR_JSON',
    xml: 'REST.ENVELOPE.XML_WELL_FORMED',
    json: 'REST.ENVELOPE.JSON_PARSES',
  },
  portal: {
    failureForm: 'PORTAL.ERRORS.FAILURE_FORM',
    xml: 'PORTAL.DISPATCH.XML_WELL_FORMED',
    json: 'PORTAL.DISPATCH.JSON_PARSES',
  },
} as const;

type Api = keyof typeof TRANSPORT_RULES;

function apiOf(api: Exchange['api'] | undefined, url: string | undefined): Api {
  if (api === 'rest' || api === 'portal') return api;
  return url !== undefined && /\/api\/\d+(\/|$|\?)/.test(url) ? 'rest' : 'portal';
}

/** An HTML page (a web server's error page) is not an XML answer, even when it parses as one. */
function isHtml(text: string): boolean {
  return /^\s*(<\?xml[^>]*>\s*)?(<!doctype\s+html|<html[\s>])/i.test(text);
}

/** The transport rule a 5xx body breaks, or null when the body is in a documented failure form. */
export function failureFormRule(api: Api, body: string): string | null {
  const rule = TRANSPORT_RULES[api].failureForm;
  const format = sniffFormat(body);
  if (format !== 'xml' && format !== 'json') return rule;
  if (isHtml(body)) return rule;
  let errors = 0;
  try {
    errors = decodeBody(body).errors.length;
  } catch {
    return rule;
  }
  if (api === 'rest') return null; // XML or JSON: the REST error body format is not shown
  return errors > 0 || /\berrstr\s*=\s*"[^"]+"/.test(body) ? null : rule;
}

function statusLine(status: number, body: string | undefined): string {
  const snippet = (body ?? '').replace(/\s+/g, ' ').trim().slice(0, 120);
  return `HTTP ${status}${snippet ? `: ${snippet}` : ' with an empty body'}`;
}

/**
 * A throttled answer: 429, or a 503 the client read a `Retry-After` from (client retry-after.ts). Neither API
 * document mentions throttling, so no rule is blamed: the client waited and sent the request again (no fault),
 * or handed the answer on past its bounds, and then the checks it cut short get ERROR with the exchange.
 */
function throttleFault(e: Exchange, where: string): TargetFault | undefined {
  const status = e.response?.status;
  if (status !== 429 && e.throttle === undefined) return undefined;
  const why = e.throttle?.outcome === 'gave-up' ? e.throttle.reason : 'no Retry-After to wait for';
  return {
    rule: null,
    detail: `${where}: throttled, HTTP ${status} (${why})`,
    exchange: toRecordedExchange(e),
  };
}

/**
 * The fault an exchange shows by itself: a 5xx, a throttled answer the client gave up on, or no answer (a
 * cancelled request is ours, not a fault). A throttled answer the client waited for and sent again is none.
 */
export function exchangeFault(e: Exchange): TargetFault | undefined {
  const where = `${e.request.method} ${e.operation}${e.register ? ` ${e.register}` : ''}`;
  if (!e.response) {
    if (e.error === undefined || /abort/i.test(e.error)) return undefined;
    return { rule: null, detail: `${where}: no answer (${e.error})`, exchange: toRecordedExchange(e) };
  }
  if (e.throttle?.outcome === 'retried') return undefined;
  const throttled = throttleFault(e, where);
  if (throttled) return throttled;
  if (e.response.status < 500) return undefined;
  const body = e.response.body.encoding === 'base64' ? '' : e.response.body.text;
  const rule = e.response.body.truncated ? null : failureFormRule(apiOf(e.api, e.request.url), body);
  const form = rule === null ? 'a server failure' : 'a server failure in no documented failure form';
  return {
    rule,
    detail: `${where}: ${form}, ${statusLine(e.response.status, body)}`,
    exchange: toRecordedExchange(e),
  };
}

/** True when the cause chain holds the client's BodySyntaxError (a body that does not parse). */
function isSyntaxError(err: unknown): boolean {
  for (let c: unknown = err, i = 0; c instanceof Error && i < 5; c = c.cause, i++)
    if (c.name === 'BodySyntaxError') return true;
  return false;
}

/**
 * True for an error that says the target misbehaved below the contract (no answer, a 5xx, a body that does
 * not parse), as opposed to a refusal (`<error>`, errstr, a 4xx) that a check may expect.
 */
export function isTargetFault(err: unknown): boolean {
  if (!isErpClientError(err)) return false;
  if (err.kind === 'transport') return (err as TransportError).reason !== 'aborted';
  if (err.kind === 'decode') return isSyntaxError(err);
  if (err.kind === 'http-status' || err.kind === 'erp') return (err.status ?? 0) >= 500 || err.status === 429;
  return false;
}

/** True when a client error carries a throttled answer (429, or 503 with `Retry-After`): no rule is blamed. */
function isThrottled(err: { status?: number | undefined; exchange?: Exchange | undefined }): boolean {
  return err.status === 429 || err.exchange?.throttle !== undefined;
}

/** The fault a client error shows, or undefined for any other error. */
export function errorFault(err: unknown): TargetFault | undefined {
  if (!isTargetFault(err) || !isErpClientError(err)) return undefined;
  const exchange: RecordedExchange | undefined = err.exchange ? toRecordedExchange(err.exchange) : undefined;
  const api = apiOf(err.exchange?.api, err.exchange?.request.url);
  const detail = err.message.split('\n')[0] ?? err.message;
  let rule: string | null = null;
  if (isThrottled(err)) rule = null;
  else if (err.kind === 'decode') {
    const text = err.exchange?.response?.body.text ?? '';
    // a malformed PATCH answer is what live servers do (DESIGN.md): handled, never a FAIL
    const exempt = api === 'rest' && err.operation === 'update';
    rule = exempt ? null : TRANSPORT_RULES[api][sniffFormat(text) === 'json' ? 'json' : 'xml'];
  } else if (err.kind === 'http-status') {
    const body = (err as { bodyText?: string }).bodyText ?? '';
    rule = failureFormRule(api, body);
  } else if (err instanceof ErpError) rule = null; // a 5xx in a documented form
  return { rule, detail, ...(exchange ? { exchange } : {}) };
}
