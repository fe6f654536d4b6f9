import type { ExchangeHeader } from './exchange.js';

/** What every masked value becomes. */
export const MASK = '***';

/** Names of fields, parameters and JSON keys whose values are secrets (suffix match, any case). */
export const SECRET_NAME = /(password|passwd|pwd|secret|token|hsession)$/i;

/** Literal secrets shorter than this are not scrubbed from free text (they would mask ordinary words). */
export const MIN_LITERAL_SECRET = 4;

const COOKIE_VALUE = /(\bHSESSION\s*=\s*)[^;,\s]*/gi;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Masks secrets in what the client records: by position (the `Authorization` header, HSESSION cookie values,
 * query parameters, form fields, JSON keys and XML elements/attributes named like a secret) and by value
 * (every registered secret and its URL-, JSON-, XML- and Basic-encoded forms, wherever it appears).
 */
export class Masker {
  readonly #literals = new Set<string>();
  #pattern: RegExp | undefined;

  /** Registers a secret value (a password, a token, a session id) to scrub from all recorded text. */
  addSecret(value: string | undefined): void {
    if (!value || value.length < MIN_LITERAL_SECRET) return;
    const forms = [
      value,
      encodeURIComponent(value),
      encodeURIComponent(value).replace(/%20/g, '+'),
      JSON.stringify(value).slice(1, -1),
      xmlEscape(value),
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

  /** Replaces every registered secret in `text`. */
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

  /** Masks secret query values of an absolute or relative URL. */
  url(url: string): string {
    const q = url.indexOf('?');
    if (q < 0) return this.scrub(url);
    const hash = url.indexOf('#', q);
    const end = hash < 0 ? url.length : hash;
    return this.scrub(url.slice(0, q + 1) + maskPairs(url.slice(q + 1, end)) + url.slice(end));
  }

  /** Masks a text body by its MIME type (form, JSON, XML), then registered secrets. */
  body(text: string, mimeType: string): string {
    const mime = mimeType.toLowerCase();
    let out = text;
    if (mime.includes('x-www-form-urlencoded')) out = maskPairs(text);
    else if (mime.includes('json') || /^\s*[[{]/.test(text)) out = maskJson(text);
    if (mime.includes('xml') || /^\s*</.test(text)) out = maskXml(out);
    return this.scrub(out);
  }
}

/** Masks one header value by name. */
export function maskHeaderValue(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') {
    const space = value.indexOf(' ');
    return space < 0 ? MASK : `${value.slice(0, space)} ${MASK}`;
  }
  if (lower === 'cookie' || lower === 'set-cookie') return value.replace(COOKIE_VALUE, `$1${MASK}`);
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
