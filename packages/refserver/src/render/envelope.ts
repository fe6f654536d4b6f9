import { escapeXml } from '@erpcert/contract';
import type { ErrorInfo } from '../errors.js';

export type { ErrorInfo } from '../errors.js';

/** The attributes of the `data` envelope (record-rest-api.md §2 "Envelope"). */
export interface EnvelopeInfo {
  /** Absent on the API root (`GET /api/1/`), which lists no register. */
  readonly register?: string;
  readonly sequence: number;
  readonly systemVersion: string;
}

/** `<data register sequence systemversion>records</data>`; an empty envelope self-closes. */
export function envelopeXml(info: EnvelopeInfo, records = ''): string {
  const reg = info.register === undefined ? '' : ` register="${escapeXml(info.register)}"`;
  const attrs = `${reg} sequence="${info.sequence}" systemversion="${escapeXml(info.systemVersion)}"`;
  return records === '' ? `<data${attrs}/>\n` : `<data${attrs}>\n${records}</data>\n`;
}

/** `{"data":{"@register","@sequence","@systemversion","<Register>":[...]}}`. */
export function envelopeJson(info: EnvelopeInfo, recordsArray?: string): string {
  const reg = info.register === undefined ? '' : `"@register":${JSON.stringify(info.register)},`;
  const head = `{"data":{${reg}"@sequence":"${info.sequence}","@systemversion":${JSON.stringify(info.systemVersion)}`;
  return info.register !== undefined && recordsArray !== undefined
    ? `${head},${JSON.stringify(info.register)}:${recordsArray}}}`
    : `${head}}}`;
}

/** `<error code description row field/>`. */
export function errorXml(e: ErrorInfo): string {
  return (
    `<error code="${escapeXml(e.code)}" description="${escapeXml(e.description)}" ` +
    `row="${e.row ?? -1}" field="${escapeXml(e.field ?? '')}"/>\n`
  );
}

/** `{"error":{"@code","@description","@row","@field"}}`. */
export function errorJson(e: ErrorInfo): string {
  return JSON.stringify({
    error: { '@code': e.code, '@description': e.description, '@row': String(e.row ?? -1), '@field': e.field ?? '' },
  });
}
