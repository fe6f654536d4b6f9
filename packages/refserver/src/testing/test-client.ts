import { XMLParser } from 'fast-xml-parser';
import { type App, type AppOptions, createApp } from '../app.js';
import type { AppResponse } from '../http/types.js';

/** `Authorization` for the default user erpcert / erpcert. */
export const BASIC = `Basic ${Buffer.from('erpcert:erpcert').toString('base64')}`;

/** An in-process app for route tests: a fixed clock, log lines collected instead of printed. */
export function testApp(options: AppOptions = {}): App & { logs: string[] } {
  const logs: string[] = [];
  const app = createApp({
    seed: false,
    // noon local time: "today" is 2025-03-10 in every time zone
    now: () => new Date(2025, 2, 10, 12, 0, 0),
    log: (l) => logs.push(l),
    ...options,
  });
  return Object.assign(app, { logs });
}

/** One request through `App.handle` with Basic auth unless `auth` is false or headers carry their own. */
export async function call(
  app: App,
  method: string,
  url: string,
  options: {
    headers?: Record<string, string>;
    form?: Record<string, string> | [string, string][];
    json?: unknown;
    body?: string | Buffer;
    auth?: boolean;
    remoteAddress?: string;
  } = {},
): Promise<AppResponse & { text: string }> {
  const headers: Record<string, string> = {};
  if (options.auth !== false) headers.authorization = BASIC;
  let body = options.body;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form as Record<string, string>).toString();
  }
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json; charset=utf-8';
    body = JSON.stringify(options.json);
  }
  Object.assign(headers, options.headers);
  const res = await app.handle({
    method,
    url,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
  return Object.assign(res, { text: res.body.toString('utf8') });
}

/** Parses an XML body; `<error>` before `<data>` comes back as two top-level keys. */
export function parseXml(text: string): Record<string, unknown> {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    isArray: (_name, jpath, _leaf, isAttribute) =>
      !isAttribute && (/^data\.[^.]+$/.test(String(jpath)) || String(jpath).endsWith('.rows.row')),
  });
  return parser.parse(text) as Record<string, unknown>;
}

/** A record of a JSON envelope. */
export type JsonRecordOut = Record<string, unknown> & { rows?: Record<string, string>[] };

/** The records of a JSON envelope. */
export function jsonRecords(text: string, register: string): JsonRecordOut[] {
  const doc = JSON.parse(text) as { data: Record<string, unknown> };
  return (doc.data[register] as JsonRecordOut[] | undefined) ?? [];
}

/**
 * The records of an XML envelope in the JSON shape (attributes `@x`, empty elements "", rows as a
 * list of `{@rownumber, ...}`), so that the XML and JSON views of the same data compare equal.
 */
export function xmlRecords(text: string, register: string): JsonRecordOut[] {
  const doc = parseXml(text) as { data?: Record<string, unknown> };
  const list = (doc.data?.[register] as Record<string, unknown>[] | undefined) ?? [];
  return list.map((rec) => {
    const out: JsonRecordOut = {};
    for (const [k, v] of Object.entries(rec)) {
      if (k === 'rows') {
        const rows = (v === '' ? [] : ((v as { row?: Record<string, unknown>[] }).row ?? [])) as Record<
          string,
          unknown
        >[];
        out.rows = rows.map((r) =>
          Object.fromEntries(Object.entries(r).map(([rk, rv]) => [rk, rv === '' ? '' : String(rv)])),
        );
      } else out[k] = v === '' ? '' : String(v);
    }
    return out;
  });
}
