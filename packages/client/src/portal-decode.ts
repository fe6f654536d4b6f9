import { type DecodedBody, sniffFormat } from './body-decode.js';
import { DecodeError, ErpError } from './errors.js';
import type { RawResponse } from './http-core.js';
import { decryptTriggerText } from './portal-bodies.js';
import type { PortalResultKind } from './portal-operations.js';
import type { PortalAttachment, PortalRecord, PortalResponseBase, PortalResultByKind } from './portal-types.js';
import { contextOf, decodeChecked } from './response-check.js';
import { asElement, asList, attributesOf, type XmlElement, type XmlValue } from './xml-decode.js';

/** Where a decoded answer came from: the operation and its register (for error context). */
export interface PortalDecodeContext {
  readonly operation: string;
  readonly register?: string;
  /** The list or lookup register, when the records are named after it. */
  readonly recordRegister?: string;
}

function fail(raw: RawResponse, ctx: PortalDecodeContext, detail: string): never {
  throw new DecodeError(detail, contextOf(raw, ctx.operation, ctx.register));
}

/** Text children of an element (attributes excluded), as strings. */
function childTexts(el: XmlElement | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!el) return out;
  for (const [k, v] of Object.entries(el)) if (!k.startsWith('@') && typeof v === 'string') out[k] = v;
  return out;
}

/** Reads `<res>` and throws its non-empty errstr (portal-action-api.md §7). */
function resOf(data: XmlElement | undefined, raw: RawResponse, ctx: PortalDecodeContext, body: DecodedBody) {
  const res = asElement(data?.res);
  if (!res) return undefined;
  const attrs = attributesOf(res);
  const errstr = attrs.errstr ?? (typeof res.errstr === 'string' ? res.errstr : '');
  if (errstr !== '')
    throw new ErpError('errstr', [{ description: errstr }], contextOf(raw, ctx.operation, ctx.register), body.messages);
  return { res, attrs, errstr };
}

function wholeNumber(v: string | undefined): number | undefined {
  return v !== undefined && /^\s*\d+\s*$/.test(v) ? Number(v) : undefined;
}

function recordOf(v: XmlValue): PortalRecord {
  return asElement(v) ?? {};
}

function recordsNamed(data: XmlElement | undefined, name: string | undefined): PortalRecord[] {
  if (!data) return [];
  if (name && name in data) return asList(data[name]).map(recordOf);
  // a hook-added list may name its records differently: take every element list there is but res/error/message
  const keys = Object.keys(data).filter((k) => !k.startsWith('@') && !['res', 'error', 'message', '#text'].includes(k));
  return keys.flatMap((k) => asList(data[k]).map(recordOf));
}

function fileName(disposition: string | undefined): string | undefined {
  const m = disposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1];
  }
}

function decodeFile(raw: RawResponse, ctx: PortalDecodeContext): PortalResultByKind['file'] {
  const looksXml = raw.mimeType.includes('xml') || (raw.mimeType === '' && sniffFormat(raw.text) === 'xml');
  if (!looksXml) {
    if (raw.status < 200 || raw.status > 299) decodeChecked(raw, ctx.operation, ctx.register);
    return {
      content: raw.bytes,
      name: fileName(raw.header('content-disposition')),
      contentType: raw.mimeType,
      messages: [],
      raw,
    };
  }
  const body = decodeChecked(raw, ctx.operation, ctx.register);
  const data = asElement(body.xml?.data);
  resOf(data, raw, ctx, body);
  const file = childTexts(asElement(data?.file));
  if (file.base64 === undefined) fail(raw, ctx, 'an XML getfile answer without <file><base64>');
  return {
    content: Buffer.from(file.base64, 'base64'),
    name: file.name ?? file.filename,
    contentType: raw.mimeType,
    messages: body.messages,
    raw,
  };
}

function decodeJson(raw: RawResponse, ctx: PortalDecodeContext, body: DecodedBody): unknown {
  if (body.format === 'json') return body.json;
  if (body.format === 'text') {
    // an encrypted field-trigger answer: base64 of the reversed JSON (§4 "Field trigger")
    try {
      return JSON.parse(decryptTriggerText(raw.text));
    } catch {
      fail(raw, ctx, 'expected JSON (plain or encrypted), got text');
    }
  }
  if (body.format === 'xml') resOf(asElement(body.xml?.data), raw, ctx, body);
  return fail(raw, ctx, `expected JSON, got ${body.format === 'empty' ? 'an empty body' : body.format}`);
}

/**
 * Decodes a portal answer of the given kind. Throws `ErpError` for `<error>` elements, a non-empty `errstr` or a
 * JSON error; `HttpStatusError` for another non-2xx; `DecodeError` when the body is not the expected shape.
 */
export function decodePortal<K extends PortalResultKind>(
  kind: K,
  raw: RawResponse,
  ctx: PortalDecodeContext,
): PortalResultByKind[K] {
  return decodeAny(kind, raw, ctx) as PortalResultByKind[K];
}

function decodeAny(
  kind: PortalResultKind,
  raw: RawResponse,
  ctx: PortalDecodeContext,
): PortalResultByKind[PortalResultKind] {
  if (kind === 'file') return decodeFile(raw, ctx);
  const body = decodeChecked(raw, ctx.operation, ctx.register);
  const base: PortalResponseBase = { messages: body.messages, raw };
  if (kind === 'trigger' || kind === 'activefields' || kind === 'json')
    return { ...base, body: decodeJson(raw, ctx, body) };
  if (kind === 'open') {
    if (body.format === 'json') return { ...base, data: undefined, json: body.json };
    const data = body.format === 'xml' ? asElement(body.xml?.data) : undefined;
    resOf(data, raw, ctx, body);
    return { ...base, data };
  }
  if (body.format !== 'xml')
    fail(raw, ctx, `expected XML, got ${body.format === 'empty' ? 'an empty body' : body.format}`);
  const data = asElement(body.xml?.data);
  if (!data) fail(raw, ctx, 'no <data> element');
  const r = resOf(data, raw, ctx, body);
  const needsRes =
    kind === 'result' || kind === 'upload' || kind === 'conversion' || kind === 'hasapi' || kind === 'login';
  if (needsRes && !r) fail(raw, ctx, 'no <res> element in <data>');
  const result = r ? { ...base, errstr: r.errstr, attrs: r.attrs } : undefined;
  switch (kind) {
    case 'result':
      return result!;
    case 'upload':
      return { ...result!, uuid: r!.attrs.uuid };
    case 'conversion':
      return { ...result!, newdata: r!.attrs.newdata };
    case 'hasapi':
      return { ...result!, hasapi: r!.attrs.hasapi };
    case 'login': {
      const texts = childTexts(r!.res);
      const pick = (k: string) => r!.attrs[k] ?? texts[k];
      const fields: Record<string, string> = {};
      for (const k of ['dateformat', 'dec_separator', 'apiversion', 'version']) {
        const v = pick(k);
        if (v !== undefined) fields[k] = v;
      }
      const sup = asElement(r!.res.supported);
      const supported = { ...attributesOf(sup), ...childTexts(sup) };
      return { ...result!, fields, supported, sessionId: undefined } satisfies PortalResultByKind['login'];
    }
    case 'approval': {
      const dummy = asElement(data.DummyVc);
      return {
        ...base,
        errstr: r?.errstr ?? '',
        attrs: r?.attrs ?? {},
        regname: r?.attrs.regname,
        status: dummy ? childTexts(dummy) : undefined,
      };
    }
    case 'document': {
      const file = childTexts(asElement(data.file));
      if (file.base64 === undefined) fail(raw, ctx, 'no <file><base64> element');
      return {
        ...base,
        name: file.name ?? '',
        base64: file.base64,
        content: Buffer.from(file.base64, 'base64'),
      };
    }
    case 'attachments': {
      const attachments: PortalAttachment[] = asList(data.attachment).map((a) => ({
        ...childTexts(asElement(a)),
        ...attributesOf(a),
      }));
      return { ...base, attachments };
    }
    case 'lookup':
      return {
        ...base,
        register: ctx.recordRegister ?? '',
        records: recordsNamed(data, ctx.recordRegister),
      };
    case 'list': {
      const attrs = attributesOf(data);
      return {
        ...base,
        register: ctx.recordRegister ?? '',
        attrs,
        count: wholeNumber(attrs.count),
        page: wholeNumber(attrs.page),
        perpage: wholeNumber(attrs.perpage),
        totalpages: wholeNumber(attrs.totalpages),
        total: wholeNumber(attrs.total),
        records: recordsNamed(data, ctx.recordRegister),
      };
    }
    default:
      return fail(raw, ctx, `unknown result kind ${kind}`);
  }
}
