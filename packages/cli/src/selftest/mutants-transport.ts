/**
 * Transport mutants (issue 9 "A new verdict, ERROR"): a server that answers some requests with an HTML 500
 * page, and one that cuts some bodies short. The transport rules of specs/rules.yaml FAIL with the
 * evidence; the rules whose checks were cut short get ERROR, which does not count against precision.
 */
import type { Mutant, ProxyRequest, ProxyResponse } from './proxy.js';
import { isPortal, pathOf, portalAction } from './wire.js';

/** What an HTML 500 page breaks: failures come as XML or JSON (REST) and in the documented forms (portal). */
export const FAILURE_FORM_RULES: readonly string[] = [
  'REST.ENVELOPE.FAILURE_XML_OR_JSON',
  'PORTAL.ERRORS.FAILURE_FORM',
];

/** What a body cut short breaks: every XML answer is well-formed, every JSON answer parses. */
export const WELL_FORMED_RULES: readonly string[] = [
  'REST.ENVELOPE.XML_WELL_FORMED',
  'REST.ENVELOPE.JSON_PARSES',
  'PORTAL.DISPATCH.XML_WELL_FORMED',
  'PORTAL.DISPATCH.JSON_PARSES',
];

/** Every `every`-th exchange of one run (the first at `every`), counted in the order the proxy sees them. */
function everyNth(every: number): () => boolean {
  let n = 0;
  return () => ++n % every === 0;
}

/**
 * The answers `truncated-bodies` cuts: every 2xx REST answer (XML and JSON alike) and every 2xx portal answer
 * but login's (without a session no portal request after it would be sent, and no JSON answer seen). Which
 * answers are cut depends on their kind only, never on their order, so every run breaks the same rules: the
 * REST transport tests ask for the API root in XML and in JSON, the portal transport test a field trigger
 * (JSON), the portal list tests list queries (XML).
 */
export function cutsShort(req: ProxyRequest, res: ProxyResponse): boolean {
  if (res.status < 200 || res.status > 299 || res.body.length <= 20) return false;
  if (/^\/api\/\d+(\/|$)/.test(pathOf(req))) return true;
  return isPortal(req) && portalAction(req) !== 'login';
}

/**
 * A throttled answer as a rate limiter in front of an ERP sends it: 429 (RFC 6585 §4) or 503 with `Retry-After`
 * (RFC 9110 §10.2.3) in delay-seconds, a plain-text body.
 */
export function throttledAnswer(status: 429 | 503, retryAfterSeconds: number): ProxyResponse {
  return {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': String(retryAfterSeconds) },
    body: Buffer.from(status === 429 ? 'Too Many Requests' : 'Service Unavailable', 'utf8'),
  };
}

/** The transport mutants; `breaks` are the transport rules a run of the selection can FAIL. */
export function transportMutants(): Mutant[] {
  const fail500 = everyNth(17);
  const throttle429 = everyNth(9);
  const throttle503 = everyNth(23);
  return [
    {
      id: 'throttles-with-retry-after',
      description:
        'one request in 9 is answered 429 and one in 23 is answered 503, each with Retry-After: 1 (a rate limiter); no rule may FAIL',
      breaks: [],
      harmless: true,
      select: 'REST.QUERY.*,PORTAL.LIST.*,REST.ENVELOPE.*',
      request: (req) => (throttle429() ? throttledAnswer(429, 1) : throttle503() ? throttledAnswer(503, 1) : req),
    },
    {
      id: 'http-500-sometimes',
      description: 'one request in 17 is answered 500 with an HTML error page',
      breaks: [...FAILURE_FORM_RULES],
      select: 'REST.QUERY.*,PORTAL.LIST.*',
      request: (req) =>
        fail500()
          ? {
              status: 500,
              headers: { 'content-type': 'text/html; charset=utf-8' },
              body: Buffer.from('<html><body><h1>500 Internal Server Error</h1></body></html>', 'utf8'),
            }
          : req,
    },
    {
      id: 'truncated-bodies',
      description:
        'every REST answer and every portal answer but login is cut off halfway (Content-Length of the short body)',
      breaks: [...WELL_FORMED_RULES],
      select: ['REST.QUERY.*', 'PORTAL.LIST.*', ...WELL_FORMED_RULES].join(','),
      response: (req, res) =>
        cutsShort(req, res) ? { ...res, body: res.body.subarray(0, Math.floor(res.body.length / 2)) } : res,
    },
  ];
}
