import { escapeRegExp, escapeXml, escapeXmlAttribute, escapeXmlContent } from '@erpcert/contract';
import type { ExchangeHeader } from './exchange.js';

/** What every masked value becomes. */
export const MASK = '***';

/** Names of fields, parameters and JSON keys whose values are secrets (suffix match, any case). */
export const SECRET_NAME = /(password|passwd|pwd|secret|token|session|session_?id|api_?key)$/i;

/**
 * The shortest secret that is searched for in free text (bodies, messages, report strings, terminal lines).
 * A shorter one is too likely to be an ordinary word of the data or of a report (`test`, `data`, `rules`, `p`):
 * searching for it would mask keys, rule ids and the report's own words. It is still masked where it stands,
 * whatever its length: the `Authorization` header, cookie values, parameters, JSON members and XML elements
 * named like a secret, and the password of a URL's user-info. Eight is the usual minimum of password
 * policies. The CLI (packages/cli/src/reports/secrets.ts) uses this same constant.
 */
export const MIN_SECRET_LENGTH = 8;

/**
 * The forms XML writers give a value: content escaped as most do (`& < >`), all five entities, a double-quoted
 * attribute that leaves `'` alone (libxml2, .NET), a single-quoted one that leaves `"` alone, and an attribute
 * with its tabs and line breaks as character references.
 */
function xmlForms(value: string): string[] {
  const all = escapeXml(value);
  return [
    escapeXmlContent(value),
    all,
    all.replaceAll('&apos;', "'"),
    all.replaceAll('&quot;', '"'),
    escapeXmlAttribute(value),
  ];
}

/**
 * Masks secrets in what the client records: by position (the `Authorization` header, HSESSION cookie values,
 * query parameters, form fields, JSON keys and XML elements/attributes named like a secret) and by value
 * (every registered secret and its URL-, JSON-, XML- and Basic-encoded forms, wherever it appears).
 */
export class Masker {
  readonly #literals = new Set<string>();
  #pattern: RegExp | undefined;

  /**
   * Registers a secret value (a password, a token, a session id) to scrub from all recorded text; one shorter
   * than {@link MIN_SECRET_LENGTH} is only masked where it stands (see there).
   */
  addSecret(value: string | undefined): void {
    if (!value || value.length < MIN_SECRET_LENGTH) return;
    const forms = [
      value,
      encodeURIComponent(value),
      encodeURIComponent(value).replace(/%20/g, '+'),
      new URLSearchParams({ p: value }).toString().slice(2), // form bodies and URL.searchParams
      JSON.stringify(value).slice(1, -1),
      ...xmlForms(value),
    ];
    let added = false;
    for (const f of forms) {
      if (!this.#literals.has(f)) {
        this.#literals.add(f);
        added = true;
      }
    }
    if (added) this.#pattern = undefined;
  }

  /** Registers HTTP Basic credentials: the password, and the base64 credential of the header. */
  addBasic(user: string, password: string): void {
    this.addSecret(password);
    this.addSecret(Buffer.from(`${user}:${password}`, 'utf8').toString('base64'));
  }

  /** True when some secret is registered for {@link scrub}. */
  get searching(): boolean {
    return this.#literals.size > 0;
  }

  /** Replaces every registered secret in `text` (free text: secrets of {@link MIN_SECRET_LENGTH} and more). */
  scrub(text: string): string {
    if (this.#literals.size === 0 || text.length === 0) return text;
    if (!this.#pattern) {
      const alternatives = [...this.#literals].sort((a, b) => b.length - a.length).map(escapeRegExp);
      this.#pattern = new RegExp(alternatives.join('|'), 'g');
    }
    return text.replace(this.#pattern, MASK);
  }

  /** Masks header values: credentials of `Authorization`, HSESSION cookie values, then registered secrets. */
  headers(headers: readonly ExchangeHeader[]): ExchangeHeader[] {
    return headers.map(({ name, value }) => ({ name, value: this.scrub(maskHeaderValue(name, value)) }));
  }

  /** Masks the user-info password and secret query values of an absolute or relative URL, then registered secrets. */
  url(url: string): string {
    return this.scrub(maskUrl(url));
  }

  /** Masks a text body by its MIME type (form, JSON, XML), then registered secrets. */
  body(text: string, mimeType: string): string {
    const mime = mimeType.toLowerCase();
    let out = text;
    if (mime.includes('x-www-form-urlencoded') || (mime === '' && /^[\w.%[\]-]+=[^\s]*$/.test(text)))
      out = maskPairs(text);
    else if (mime.includes('json') || /^\s*[[{]/.test(text)) out = maskJson(text);
    if (mime.includes('xml') || /^\s*</.test(text)) out = maskXml(out);
    return this.scrub(out);
  }
}

/** Masks the password of a URL's user-info (`https://u:***@host/`) and its secret query values. */
export function maskUrl(url: string): string {
  let out = url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:)[^/?#@]*@/i, `$1${MASK}@`);
  const q = out.indexOf('?');
  if (q < 0) return out;
  const hash = out.indexOf('#', q);
  const end = hash < 0 ? out.length : hash;
  out = out.slice(0, q + 1) + maskPairs(out.slice(q + 1, end)) + out.slice(end);
  return out;
}

/**
 * Masks one header value by name: the credentials of `Authorization`, every cookie value of `Cookie`, the
 * value of the cookie a `Set-Cookie` sets (its attributes stay), and the whole value of a header named like
 * a secret (`X-Api-Token`).
 */
export function maskHeaderValue(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') {
    const space = value.indexOf(' ');
    return space < 0 ? MASK : `${value.slice(0, space)} ${MASK}`;
  }
  if (lower === 'cookie') return value.replace(/(^|;)(\s*[^=;]+=)[^;]*/g, `$1$2${MASK}`);
  if (lower === 'set-cookie')
    // one header line per cookie; a recorder may join several with ', ' (a date's comma is followed by a day)
    return value.replace(/(^|,\s*)([^=;,\s]+\s*=)[^;,]*/g, (all, head: string, name: string) =>
      /^\d/.test(name) ? all : `${head}${name}${MASK}`,
    );
  if (SECRET_NAME.test(lower)) return MASK;
  return value;
}

/** Masks `name=value` pairs (query strings, form bodies) whose name looks secret. */
export function maskPairs(pairs: string): string {
  return pairs
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // keep the raw name
      }
      return SECRET_NAME.test(name) ? `${pair.slice(0, eq + 1)}${MASK}` : pair;
    })
    .join('&');
}

/** Masks JSON members whose key looks secret, keeping the text's formatting. */
export function maskJson(text: string): string {
  return text.replace(
    /("((?:[^"\\]|\\.)*)"\s*:\s*)("(?:[^"\\]|\\.)*"|[^\s,{}[\]"]+)/g,
    (all, head: string, key: string) => (SECRET_NAME.test(key) ? `${head}"${MASK}"` : all),
  );
}

/** Masks XML elements and attributes whose name looks secret. */
export function maskXml(text: string): string {
  return text
    .replace(/<([A-Za-z_][\w.-]*)(\s[^>]*)?>([^<]*)<\/\1\s*>/g, (all, name: string, attrs: string | undefined) =>
      SECRET_NAME.test(name) ? `<${name}${attrs ?? ''}>${MASK}</${name}>` : all,
    )
    .replace(/(\s([A-Za-z_][\w.-]*)\s*=\s*)("[^"]*"|'[^']*')/g, (all, head: string, name: string) =>
      SECRET_NAME.test(name) ? `${head}"${MASK}"` : all,
    );
}
