import type { ErpErrorDetail, ErpMessage } from './errors.js';
import { asElement, asList, attributesOf, parseXmlBody, type XmlElement, type XmlValue } from './xml-decode.js';

/** What a response body turned out to be. */
export type BodyFormat = 'xml' | 'json' | 'text' | 'empty';

/** A body read as XML or JSON, with the failure and warning documents pulled out. */
export interface DecodedBody {
  readonly format: BodyFormat;
  /** `<error>` elements (top level or in `<data>`) or the JSON `error` member(s). */
  readonly errors: readonly ErpErrorDetail[];
  /** `<message>` elements or JSON `message`/`messages` entries: warnings. */
  readonly messages: readonly ErpMessage[];
  /** XML: every top-level element by name (`data`, `error`, ...). */
  readonly xml?: XmlElement;
  /** JSON: the parsed document. */
  readonly json?: unknown;
}

/** The body is neither well-formed XML nor JSON although it looks like one of them. */
export class BodySyntaxError extends Error {
  override readonly name = 'BodySyntaxError';
}

/** Guesses the format from the first character: `<` XML, `{`/`[` JSON; MIME types lie on real servers. */
export function sniffFormat(text: string): BodyFormat {
  const t = text.trimStart();
  if (t === '') return 'empty';
  if (t[0] === '<') return 'xml';
  if (t[0] === '{' || t[0] === '[') return 'json';
  return 'text';
}

function xmlError(el: XmlValue): ErpErrorDetail {
  const e = asElement(el) ?? {};
  const a = attributesOf(e);
  const text = typeof e['#text'] === 'string' ? e['#text'].trim() : '';
  const description = a.description ?? (text || undefined);
  return {
    ...(a.code !== undefined ? { code: a.code } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(a.field !== undefined ? { field: a.field } : {}),
    ...(a.row !== undefined ? { row: a.row } : {}),
  };
}

function xmlMessage(el: XmlValue): ErpMessage {
  const e = asElement(el) ?? {};
  const { description, ...attrs } = attributesOf(e);
  const text = typeof e['#text'] === 'string' ? e['#text'].trim() : '';
  return { description: description ?? text, ...(Object.keys(attrs).length > 0 ? { attrs } : {}) };
}

function member(o: Record<string, unknown>, name: string): unknown {
  return o[`@${name}`] ?? o[name];
}

function str(v: unknown): string | undefined {
  return v === undefined || v === null ? undefined : String(v);
}

function jsonError(v: unknown): ErpErrorDetail {
  if (typeof v !== 'object' || v === null) return { description: String(v) };
  const o = v as Record<string, unknown>;
  const code = str(member(o, 'code'));
  const description = str(member(o, 'description'));
  const field = str(member(o, 'field'));
  const row = str(member(o, 'row'));
  return {
    ...(code !== undefined ? { code } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(field !== undefined ? { field } : {}),
    ...(row !== undefined ? { row } : {}),
  };
}

/** An error without a description takes the first message's: live servers put the text in `messages`. */
function withDescription(e: ErpErrorDetail, messages: readonly ErpMessage[]): ErpErrorDetail {
  const text = messages.find((m) => m.description !== '')?.description;
  return e.description === undefined && text !== undefined ? { ...e, description: text } : e;
}

function jsonMessage(v: unknown): ErpMessage {
  if (typeof v !== 'object' || v === null) return { description: String(v) };
  return { description: str(member(v as Record<string, unknown>, 'description')) ?? '' };
}

function listOf(v: unknown): unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

/**
 * The JSON text with every control character that stands raw inside a string literal written as its `\u00XX`
 * escape (RFC 8259 §7 forbids them there); everything outside strings is left as it is.
 */
export function escapeRawControlChars(text: string): string {
  let out = '';
  let inString = false;
  let afterBackslash = false;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (inString && !afterBackslash && code < 0x20) {
      out += `\\u${code.toString(16).padStart(4, '0')}`;
      continue;
    }
    out += ch;
    if (afterBackslash) afterBackslash = false;
    else if (inString && ch === '\\') afterBackslash = true;
    else if (ch === '"') inString = !inString;
  }
  return out;
}

/**
 * Decodes a body by sniffing its first character. XML bodies may have `<error>`/`<message>` elements before
 * `<data>` (no single root); JSON bodies may carry `{"error": {"@code", "@description", "@field"}}`
 * (DESIGN.md "What real deployments do"). Throws {@link BodySyntaxError} for a malformed XML or JSON body.
 */
export function decodeBody(text: string): DecodedBody {
  const format = sniffFormat(text);
  if (format === 'empty' || format === 'text') return { format, errors: [], messages: [] };
  if (format === 'xml') {
    let xml: XmlElement;
    try {
      xml = parseXmlBody(text);
    } catch (cause) {
      throw new BodySyntaxError(`malformed XML: ${(cause as Error).message}`, { cause });
    }
    const data = asElement(xml.data);
    const errors = [...asList(xml.error), ...asList(data?.error)].map(xmlError);
    const messages = [...asList(xml.message), ...asList(data?.message)].map(xmlMessage);
    return { format, errors, messages, xml };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    // live servers send control characters raw inside strings (RLinkVc FromRecidStr, issue 21): escape and retry
    const escaped = escapeRawControlChars(text);
    try {
      if (escaped === text) throw cause;
      json = JSON.parse(escaped);
    } catch {
      throw new BodySyntaxError(`malformed JSON: ${(cause as Error).message}`, { cause });
    }
  }
  const o = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  // live servers also nest a PATCH error inside data: {"data": {"messages": [...], "error": {"@code", "@field"}}}
  const d =
    typeof o.data === 'object' && o.data !== null && !Array.isArray(o.data) ? (o.data as Record<string, unknown>) : {};
  const messages = [...listOf(o.message), ...listOf(o.messages), ...listOf(d.message), ...listOf(d.messages)].map(
    jsonMessage,
  );
  const errors = [...listOf(o.error), ...listOf(o.errors), ...listOf(d.error)]
    .filter((e) => e !== false && e !== '')
    .map(jsonError)
    .map((e) => withDescription(e, messages));
  return { format, errors, messages, json };
}

/** A JSON string literal's value, tolerant of a body cut inside it. */
function jsonStringAt(text: string, name: string): string | undefined {
  const m = new RegExp(`"@?${name}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(text);
  return m ? unescapeJson(m[1]!) : undefined;
}

/** The value of the inside of a JSON string literal; the raw text when its escapes are broken. */
function unescapeJson(inner: string): string {
  try {
    return JSON.parse(`"${inner}"`) as string;
  } catch {
    return inner;
  }
}

/**
 * What can be read from a JSON body cut short or otherwise malformed, as live servers send after a PATCH (issue
 * 10): the error (`@code`, `@description`, `@field`, `@row`) and the `messages` strings that made it out before
 * the cut. Undefined when the text holds no error member.
 */
export function salvageJsonError(text: string): { errors: ErpErrorDetail[]; messages: ErpMessage[] } | undefined {
  if (!/"error"\s*:\s*\{/.test(text)) return undefined;
  const list = /"messages"\s*:\s*\[([^\]]*)/.exec(text)?.[1] ?? '';
  const messages = [...list.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => ({ description: unescapeJson(m[1]!) }));
  const errorText = text.slice(text.search(/"error"\s*:\s*\{/));
  const code = jsonStringAt(errorText, 'code');
  const description = jsonStringAt(errorText, 'description');
  const field = jsonStringAt(errorText, 'field');
  const row = jsonStringAt(errorText, 'row');
  const detail: ErpErrorDetail = {
    ...(code !== undefined ? { code } : {}),
    ...(field !== undefined ? { field } : {}),
    ...(row !== undefined ? { row } : {}),
  };
  return {
    errors: [withDescription(description !== undefined ? { ...detail, description } : detail, messages)],
    messages,
  };
}
