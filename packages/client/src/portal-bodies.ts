import { escapeXmlContent, type PortalComponents } from '@erpcert/contract';
import type { PortalBody } from './portal-types.js';

type Schemas = PortalComponents['schemas'];

/** The field-trigger request (windowactions, portal-action-api.md §2 "Field-trigger request body"). */
export type FieldTriggerRequest = Schemas['PortalFieldTriggerRequest'];
/** The active-edit-fields request `{vcname, id}` (§4 "Active edit fields"). */
export type ActiveEditFieldsRequest = Schemas['PortalActiveEditFieldsRequest'];
/** The report request (§4 "Report"). */
export type ReportRequest = Schemas['PortalReportRequest'];

/** Reverses a byte sequence into a new buffer. */
function reversed(bytes: Uint8Array): Buffer {
  const out = Buffer.alloc(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes[bytes.length - 1 - i]!;
  return out;
}

/**
 * The `encrypted=true` form of a JSON text (§4 "Field trigger"): its UTF-8 bytes reversed, then base64-encoded.
 */
export function encryptTriggerText(json: string): string {
  return reversed(Buffer.from(json, 'utf8')).toString('base64');
}

/** Undoes {@link encryptTriggerText}: base64-decode, reverse the bytes, read UTF-8. */
export function decryptTriggerText(encrypted: string): string {
  return reversed(Buffer.from(encrypted.trim(), 'base64')).toString('utf8');
}

/** The windowactions body: plain JSON (the default) or, with `encrypted`, the reversed-and-base64 form. */
export function fieldTriggerBody(
  request: FieldTriggerRequest | Record<string, unknown>,
  encrypted = false,
): PortalBody {
  const json = JSON.stringify(request);
  return encrypted
    ? { contentType: 'text/plain; charset=UTF-8', data: encryptTriggerText(json) }
    : { contentType: 'application/json; charset=utf-8', data: json };
}

/** The activeeditfields body: `application/octet-stream`, base64 of the JSON `{vcname, id}` (§4). */
export function activeEditFieldsBody(request: ActiveEditFieldsRequest | Record<string, unknown>): PortalBody {
  return {
    contentType: 'application/octet-stream',
    data: Buffer.from(JSON.stringify(request), 'utf8').toString('base64'),
  };
}

/** The report body: JSON `{reportwindow, repname, lang, spec}` (§4 "Report"). */
export function reportBody(request: ReportRequest | Record<string, unknown>): PortalBody {
  return { contentType: 'application/json; charset=utf-8', data: JSON.stringify(request) };
}

/**
 * The doupload body: `<root><file><filename>name</filename><base64>content</base64></file></root>` (§2 "Attachment
 * upload body"). `content` is the file's bytes, or a string already in base64.
 */
export function uploadBody(filename: string, content: Uint8Array | string): PortalBody {
  const base64 = typeof content === 'string' ? content : Buffer.from(content).toString('base64');
  return {
    contentType: 'application/xml; charset=UTF-8',
    data: `<?xml version="1.0" encoding="UTF-8"?>\n<root><file><filename>${escapeXmlContent(filename)}</filename><base64>${base64}</base64></file></root>`,
  };
}

/** The posttext body: form-encoded `set_field.Math` (text or HTML, §4 "Post text"). */
export function postTextBody(text: string): PortalBody {
  return {
    contentType: 'application/x-www-form-urlencoded; charset=UTF-8',
    data: `set_field.Math=${encodeURIComponent(text)}`,
  };
}

/** A plain-text body (addcomment, settaskdescription: the body shape is not shown, §4 rule 12). */
export function textBody(text: string): PortalBody {
  return { contentType: 'text/plain; charset=UTF-8', data: text };
}
