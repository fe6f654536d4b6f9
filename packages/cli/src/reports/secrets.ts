/**
 * "Passwords and session ids are read, never printed" (DESIGN.md "Command-line contract"). Secrets are masked
 * where they stand, never by a substring replace over a whole report: the client masks the exchanges it records
 * (packages/client mask.ts); the CLI masks every event of a run and the results document as data, walking the
 * object (keys, rule ids and the report's own words are never touched); junit.xml, summary.md, report.html,
 * curl and replay lines are rendered from that masked data. Free text (messages, bodies, terminal lines) is
 * searched only for secrets of at least {@link MIN_SECRET_LENGTH} characters, the client's own threshold: a
 * shorter password (`test`, `data`, `p`) would mask ordinary words. It is masked where it stands: the
 * `Authorization` header, cookie values, parameters and fields named like a secret, a URL's user-info.
 */
import { MASK, Masker, MIN_SECRET_LENGTH, maskHeaderValue } from '@erpcert/client';
import type { RecordedExchange } from './runner.js';

export { MASK, MIN_SECRET_LENGTH };

/** The masker of a run: the Basic credentials (password and base64 credential) of `user` and `password`. */
export function runMasker(user: string | undefined, password: string | undefined): Masker {
  const masker = new Masker();
  if (password !== undefined && password !== '') {
    if (user !== undefined) masker.addBasic(user, password);
    else masker.addSecret(password);
  }
  return masker;
}

type Headers = Readonly<Record<string, string>>;

function maskHeaders(masker: Masker, headers: Headers): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, masker.scrub(maskHeaderValue(name, value))]),
  );
}

function contentType(headers: Headers): string {
  return Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
}

/** One recorded exchange masked where each secret stands: URL, header values, bodies by their type, the error. */
export function maskExchange(masker: Masker, e: RecordedExchange): RecordedExchange {
  const { request, response } = e;
  return {
    ...e,
    request: {
      ...request,
      url: masker.url(request.url),
      headers: maskHeaders(masker, request.headers),
      ...(request.body !== undefined ? { body: masker.body(request.body, contentType(request.headers)) } : {}),
    },
    ...(response !== undefined
      ? {
          response: {
            ...response,
            headers: maskHeaders(masker, response.headers),
            ...(response.body !== undefined ? { body: masker.body(response.body, contentType(response.headers)) } : {}),
          },
        }
      : {}),
    ...(e.error !== undefined ? { error: masker.scrub(e.error) } : {}),
  };
}

function isExchange(v: Record<string, unknown>): boolean {
  const r = v.request as Record<string, unknown> | undefined;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.method === 'string' &&
    typeof r.url === 'string' &&
    typeof r.headers === 'object' &&
    r.headers !== null
  );
}

/**
 * Masks any JSON-like value as data: a copy in which every recorded exchange is masked where its secrets stand
 * ({@link maskExchange}) and every other string is searched for the registered secrets. Keys, numbers and
 * booleans are kept as they are, so the masked value has the same structure as `value`.
 */
export function maskData<T>(masker: Masker, value: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return masker.scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    const exchange = isExchange(o) ? (maskExchange(masker, o as unknown as RecordedExchange) as object) : o;
    return Object.fromEntries(Object.entries(exchange).map(([k, x]) => [k, walk(x)]));
  };
  return walk(value) as T;
}

/** A writer that masks the registered secrets in everything written through it (terminal output of a run). */
export function maskingWriter(out: { write(text: string): unknown }, masker: Masker): { write(text: string): boolean } {
  return {
    write(text: string) {
      out.write(masker.scrub(text));
      return true;
    },
  };
}
