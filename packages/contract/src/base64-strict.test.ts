/** The one strict base64 decoder's cases: those of cli attest/dsse.ts and refserver attachments/upload-body.ts. */
import { describe, expect, it } from 'vitest';
import { decodeBase64Strict } from './base64-strict.js';

describe('decodeBase64Strict', () => {
  it.each<[string, string, string]>([
    ['padded', 'aGVsbG8=', 'hello'],
    ['two padding characters', 'aGk=', 'hi'],
    ['no padding needed', 'aGVs', 'hel'],
    ['the empty string', '', ''],
    ['line-wrapped with spaces, tabs and CR LF', 'aGVs\r\nbG8=\n', 'hello'],
    ['+ and / of the standard alphabet', '+/8=', '\u00fb\u00ff'],
  ])('%s: %j', (_, given, want) => {
    expect(decodeBase64Strict(given)?.toString('latin1')).toBe(want);
  });

  it.each<[string, string]>([
    ['a character outside the alphabet', 'aGV*bG8='],
    ['a length that is not a multiple of 4', 'aGVsbG8'],
    ['padding in the middle', 'aG==bG8='],
    ['three padding characters', 'a==='],
    ['the URL-safe alphabet', '-_8='],
    ['a data: URL', 'data:text/plain;base64,aGk='],
  ])('refuses %s: %j', (_, given) => {
    expect(decodeBase64Strict(given)).toBeUndefined();
  });
});
