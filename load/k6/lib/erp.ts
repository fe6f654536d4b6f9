/**
 * Requests to the two APIs from k6: URLs with the company placement, Basic or HSESSION auth, a timeout on every
 * request and the `op` tag that names the operation in the metrics.
 */
import encoding from 'k6/encoding';
import exec from 'k6/execution';
import http, { type RefinedParams, type RefinedResponse } from 'k6/http';
import type { RunSettings } from './env.ts';

export type Query = Record<string, string | number | undefined>;
export type TextResponse = RefinedResponse<'text'>;

/** `a=1&b=2` with every value percent-encoded; undefined values are left out. */
export function queryString(query: Query): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return parts.join('&');
}

/** URL of a REST list/create path (record-rest-api.md §4), company in the query or in the path. */
export function restUrl(settings: RunSettings, register: string, query: Query = {}): string {
  // without a company code: /api/1/ (the documented version) and no compcode, i.e. the target's default company
  const version = settings.companyIn === 'path' ? (settings.compcode ?? 1) : 1;
  const all: Query = settings.companyIn === 'query' ? { compcode: settings.compcode, ...query } : query;
  const qs = queryString(all);
  return `${settings.target}/api/${version}/${register}${qs === '' ? '' : `?${qs}`}`;
}

/** URL of a portal call (portal-action-api.md §4), with the global parameters compno and usercode. */
export function portalUrl(settings: RunSettings, query: Query): string {
  const all: Query = { ...query, compno: settings.compno, usercode: settings.usercode };
  return `${settings.target}${settings.portalPath}?${queryString(all)}`;
}

let basicCache: { readonly key: RunSettings; readonly value: string } | undefined;

/** `Authorization: Basic ...` (record-rest-api.md §5, portal-action-api.md §5), encoded once per VU. */
export function basicAuth(settings: RunSettings): string {
  if (basicCache?.key !== settings) {
    basicCache = { key: settings, value: `Basic ${encoding.b64encode(`${settings.user}:${settings.password}`)}` };
  }
  return basicCache.value;
}

/** Request parameters: timeout, tags, and a fresh cookie jar so that a Basic request never rides on a cookie. */
export function params(settings: RunSettings, op: string, headers: Record<string, string>): RefinedParams<'text'> {
  return {
    headers,
    timeout: settings.timeoutMs,
    tags: { op },
    jar: new http.CookieJar(),
    responseType: 'text',
  };
}

/** GET with Basic auth. */
export function getBasic(settings: RunSettings, url: string, op: string): TextResponse {
  return http.get(url, params(settings, op, { Authorization: basicAuth(settings), 'Accept-Charset': 'utf-8' }));
}

/** Form POST with Basic auth (`application/x-www-form-urlencoded; charset=UTF-8`). */
export function postForm(settings: RunSettings, url: string, form: Record<string, string>, op: string): TextResponse {
  return http.post(
    url,
    queryString(form),
    params(settings, op, {
      Authorization: basicAuth(settings),
      'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8',
      'Accept-Charset': 'utf-8',
    }),
  );
}

/** GET with only `Cookie: HSESSION=<id>` (portal-action-api.md §5: "greatly reduces server load"). */
export function getWithSession(settings: RunSettings, url: string, sessionId: string, op: string): TextResponse {
  return http.get(url, params(settings, op, { Cookie: `HSESSION=${sessionId}`, 'Accept-Charset': 'utf-8' }));
}

/** The `Sequence` response header as a number (record-rest-api.md §4 rule 6), or undefined. */
export function sequenceHeader(response: TextResponse): number | undefined {
  const raw = response.headers.Sequence ?? response.headers.sequence;
  if (raw === undefined) return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/** The HSESSION cookie a response sets, or undefined. */
export function sessionCookie(response: TextResponse): string | undefined {
  const cookies = response.cookies.HSESSION;
  return cookies !== undefined && cookies.length > 0 ? cookies[0]!.value : undefined;
}

/** Response body as a string ('' when there is none). */
export function bodyText(response: TextResponse): string {
  return typeof response.body === 'string' ? response.body : '';
}

/** Body size in bytes: Content-Length when sent, else the UTF-8 length of the text. */
export function bodyBytes(response: TextResponse): number {
  const header = response.headers['Content-Length'];
  if (header !== undefined && /^\d+$/.test(header)) return Number(header);
  const text = bodyText(response);
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00) {
      bytes += 4; // a surrogate pair is one 4-byte character
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** `HTTP 401`, or `no answer (<k6 error>)` when the request got no response (timeout, refused, reset). */
export function answerOf(response: TextResponse): string {
  return response.status === 0
    ? `no answer (${response.error || `k6 error ${response.error_code}`})`
    : `HTTP ${response.status}`;
}

/** Stops the run in setup() when ERPCERT_TARGET is not set (an archive may be made without it). */
export function requireTarget(settings: RunSettings): void {
  if (!/^https?:\/\/./.test(settings.target)) {
    exec.test.abort(`ERPCERT_TARGET must be the http(s) base URL of the ERP, got "${settings.target}"`);
  }
}
