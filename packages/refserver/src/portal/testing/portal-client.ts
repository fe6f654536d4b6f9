import { XMLParser } from 'fast-xml-parser';
import type { App } from '../../app-types.js';
import { call } from '../../testing/test-client.js';

type CallOptions = Parameters<typeof call>[3];

/** One portal request: the query as an object (or a ready query string), GET unless a body is given. */
export function portal(
  app: App,
  query: Record<string, string> | string,
  options: CallOptions & { method?: string; path?: string } = {},
) {
  const qs = typeof query === 'string' ? query : new URLSearchParams(query).toString();
  const method = options.method ?? (options.body !== undefined || options.form ? 'POST' : 'GET');
  return call(app, method, `${options.path ?? '/WebErpAPI.hal'}?${qs}`, options);
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
});

/** Parsed XML that tests probe freely: attributes without prefix, values as strings. */
// biome-ignore lint/suspicious/noExplicitAny: tests walk parsed XML of many shapes
export type Parsed = Record<string, any>;

/** Parses a portal XML body (attributes without prefix, values as strings). */
export function parsePortal(text: string): Parsed {
  return parser.parse(text) as Parsed;
}

/** The attributes of `<data><res .../>`. */
export function resOf(text: string): Record<string, string> {
  const res = parsePortal(text).data?.res;
  if (res === undefined) throw new Error(`no <data><res> in: ${text}`);
  return (typeof res === 'object' ? res : {}) as Record<string, string>;
}

/** The errstr of a body (throws when there is none). */
export function errstrOf(text: string): string {
  return resOf(text).errstr ?? '';
}

/** A parsed element that may be absent, one, or repeated, as a list. */
export function asList(v: unknown): Parsed[] {
  return v === undefined || v === '' ? [] : Array.isArray(v) ? v : [v as Parsed];
}
