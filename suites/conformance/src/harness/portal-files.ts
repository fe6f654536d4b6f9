/**
 * Downloading an attachment for a byte comparison (portal-action-api.md §4 "Download attachment"). The body
 * of getfile is not shown (operation rule 11): the file's bytes as they are, or, as files travel "as base64
 * inside XML" (§2), a `<data><file><base64>` wrapper. The raw answer is read here rather than through the
 * client's `getfile`, whose decoding goes by the Content-Type and reads an XML file's own bytes as a wrapper.
 */
import { asElement, attributesOf, type RawResponse } from '@erpcert/client';
import { xmlTop } from './portal-outcome.js';
import type { RuleContext } from './rule-test.js';

/** A getfile answer: the raw response and the file bytes it carries (raw, or base64 inside XML). */
export interface DownloadedFile {
  readonly raw: RawResponse;
  /** Each reading of the body that could be the file: the bytes as sent, the base64 of a wrapper. */
  readonly candidates: readonly Buffer[];
}

/** `action=action&register=getfile&regname&id&file` with the client's credentials, recorded, undecoded. */
export async function downloadFile(
  ctx: RuleContext,
  regname: string,
  id: string,
  uuid: string,
): Promise<DownloadedFile> {
  const raw = await ctx.client.request({
    api: 'portal',
    operation: 'action_getfile',
    method: 'GET',
    path: ctx.client.portal.path,
    query: [
      ['action', 'action'],
      ['register', 'getfile'],
      ['regname', regname],
      ['id', id],
      ['file', uuid],
    ],
  });
  const candidates: Buffer[] = [raw.bytes];
  const file = asElement(asElement(xmlTop(raw)?.data)?.file);
  const base64 = file?.base64;
  if (typeof base64 === 'string') candidates.push(Buffer.from(base64, 'base64'));
  return { raw, candidates };
}

/**
 * The failure text of a getfile answer that is the documented error shape instead of a file: an operation result
 * `<data><res errstr="<text>"/></data>` with a non-empty errstr (§2 "Operation result", §7), and none of the
 * uploaded bytes. Undefined for anything else (a file, or an answer of another shape).
 */
export function getfileRefusal(got: DownloadedFile, content: Buffer): string | undefined {
  if (got.candidates.some((c) => Buffer.compare(c, content) === 0)) return undefined;
  const data = asElement(xmlTop(got.raw)?.data);
  const res = asElement(data?.res);
  if (res === undefined) return undefined;
  const errstr = attributesOf(res).errstr ?? (typeof res.errstr === 'string' ? res.errstr : '');
  return errstr !== '' ? errstr : undefined;
}
