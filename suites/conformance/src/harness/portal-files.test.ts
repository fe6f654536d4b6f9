/** getfileRefusal(): a getfile answered with the documented error shape instead of the uploaded file. */
import type { RawResponse } from '@erpcert/client';
import { describe, expect, it } from 'vitest';
import { type DownloadedFile, getfileRefusal } from './portal-files.js';

const answer = (text: string): DownloadedFile => {
  const bytes = Buffer.from(text, 'utf8');
  const raw = { status: 200, headers: {}, bytes, text, charset: 'utf-8' } as unknown as RawResponse;
  return { raw, candidates: [bytes] };
};
const uploaded = Buffer.from('hi\n', 'utf8');
const refusalXml = '<?xml version="1.0"?><data><res errstr="getfile is not available"/></data>';

describe('getfileRefusal', () => {
  it.each([
    ['an operation result with a non-empty errstr', refusalXml, uploaded, 'getfile is not available'],
    ['the uploaded bytes', 'hi\n', uploaded, undefined],
    ['an uploaded file that is itself such an operation result', refusalXml, Buffer.from(refusalXml), undefined],
    ['an operation result with an empty errstr (a success)', '<data><res errstr=""/></data>', uploaded, undefined],
    ['other bytes that are no operation result', 'something else', uploaded, undefined],
    ['a file wrapped as base64 in XML', '<data><file><base64>aGkK</base64></file></data>', uploaded, undefined],
  ])('%s', (_what, body, content, expected) => {
    expect(getfileRefusal(answer(body), content)).toBe(expected);
  });
});
