import type { ErpError } from '../errors.js';
import { textResponse } from '../http/respond.js';
import type { AppResponse, RouteRequest } from '../http/types.js';

/**
 * The JSON answers of rough live servers that `--quirks` reproduces (issue 10 part 4, README "Quirks"). Each
 * kind comes in a fixed rotation per app, so a client test knows what it gets: the n-th PATCH of the app (from 0)
 * picks `n % 3`.
 */

/** How the n-th successful JSON PATCH answer is sent: as is, with an unkeyed object literal, or cut short. */
export type PatchAnswerQuirk = 'as-is' | 'unkeyed-object' | 'cut';
const PATCH_ROTATION: readonly PatchAnswerQuirk[] = ['as-is', 'unkeyed-object', 'cut'];

/** The quirk of the n-th PATCH (0-based). */
export function patchQuirk(n: number): PatchAnswerQuirk {
  return PATCH_ROTATION[n % PATCH_ROTATION.length]!;
}

/**
 * A successful JSON PATCH answer made malformed although the write succeeded: the records array loses its key, so
 * `data` holds an unkeyed object literal (`{"data":{"@register":"CUVc",...,{"Code":...}}}`), or the body is cut
 * before its last closing brace.
 */
export function malformedPatchAnswer(res: AppResponse, quirk: PatchAnswerQuirk, register: string): AppResponse {
  if (quirk === 'as-is') return res;
  let text = res.body.toString('utf8');
  if (quirk === 'unkeyed-object') {
    const key = `,${JSON.stringify(register)}:[`;
    const at = text.indexOf(key);
    if (at >= 0 && text.endsWith(']}}')) text = `${text.slice(0, at)},${text.slice(at + key.length, -3)}}}`;
  } else text = text.replace(/\}\s*$/, '');
  return { ...res, body: Buffer.from(text, 'utf8') };
}

/**
 * A PATCH validation error nested inside `data` as live servers send it:
 * `{"data":{"messages":["<description>"],"error":{"@code":"...","@field":"..."}}}`; when `cut`, the body ends
 * right after the code (the field and the closing braces are lost), as such answers often do.
 */
export function nestedPatchError(req: Pick<RouteRequest, 'charset'>, err: ErpError, cut: boolean): AppResponse {
  const whole = JSON.stringify({
    data: { messages: [err.description], error: { '@code': err.code, '@field': err.field ?? '' } },
  });
  const text = cut ? whole.slice(0, whole.indexOf('"@field"')) : whole;
  return textResponse(req, err.status, 'application/json', text, err.headers);
}

/** A JSON error with HTTP 200 that also carries a top-level `messages` array of strings. */
export function errorWithMessages(req: Pick<RouteRequest, 'charset'>, err: ErpError): AppResponse {
  const text = JSON.stringify({
    error: {
      '@code': err.code,
      '@description': err.description,
      '@row': String(err.row ?? -1),
      '@field': err.field ?? '',
    },
    messages: [err.description],
  });
  return textResponse(req, err.status, 'application/json', text, err.headers);
}
