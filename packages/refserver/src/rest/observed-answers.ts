import { escapeXml } from '@erpcert/contract';
import type { AlreadyRegistered } from '../business/register-behaviour.js';
import { textResponse } from '../http/respond.js';
import type { AppResponse, RouteRequest } from '../http/types.js';
import type { EnvelopeInfo } from '../render/envelope.js';
import type { RegisterSchema } from '../schema/register-schema.js';

/**
 * Answers of live servers to registers described as data (specs/observed-fields.yaml, issue 21; README "Observed
 * registers").
 */

/**
 * A create whose key exists, on a register with `onDuplicate: already-registered`: HTTP 200 with the message
 * "Already registered" and a url ending in `/<register>/` (no key); nothing is stored. XML:
 * `<message description="Already registered"/>` before `<data register sequence systemversion url/>`; JSON, by the
 * "@ = attribute" convention: `{"data": {"@register", "@sequence", "@systemversion", "@url", "message":
 * {"@description": "Already registered"}}}`.
 */
export function alreadyRegisteredAnswer(req: RouteRequest, err: AlreadyRegistered, info: EnvelopeInfo): AppResponse {
  const url = `/api/1/${err.register}/`;
  if (req.format === 'json')
    return textResponse(
      req,
      200,
      'application/json',
      JSON.stringify({
        data: {
          '@register': err.register,
          '@sequence': String(info.sequence),
          '@systemversion': info.systemVersion,
          '@url': url,
          message: { '@description': err.description },
        },
      }),
    );
  const attrs = `register="${escapeXml(err.register)}" sequence="${info.sequence}" systemversion="${escapeXml(info.systemVersion)}" url="${url}"`;
  return textResponse(
    req,
    200,
    'application/xml',
    `<message description="${escapeXml(err.description)}"/>\n<data ${attrs}/>\n`,
  );
}

/**
 * `--quirks` on a register with `rawControlChars`: the JSON escapes of control characters (`\u0001`) are sent as the
 * raw characters, as live servers send RLinkVc FromRecidStr, which breaks a strict JSON parser. Only JSON answers
 * change (XML cannot carry them at all).
 */
export function rawControlCharsQuirk(res: AppResponse, schema: RegisterSchema, req: RouteRequest): AppResponse {
  if (req.format !== 'json' || (schema.behaviour?.rawControlChars.length ?? 0) === 0) return res;
  const enc = req.charset === 'utf-8' ? 'utf8' : 'latin1';
  // only an escape after an even number of backslashes: in JSON `\\u0001` is an escaped backslash, then text
  const text = res.body
    .toString(enc)
    .replace(
      /(?<!\\)((?:\\\\)*)\\u00([01][0-9a-fA-F])/g,
      (_, slashes: string, hex: string) => `${slashes}${String.fromCharCode(Number.parseInt(hex, 16))}`,
    );
  return { ...res, body: Buffer.from(text, enc) };
}
