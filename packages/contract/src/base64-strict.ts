/** Standard base64 (RFC 4648 §4): the alphabet, then at most two `=` of padding at the end. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes standard base64 strictly: white space between characters is allowed (line-wrapped bodies); any other
 * character outside the alphabet, padding anywhere but at the end, or a length that is not a multiple of 4 makes
 * it `undefined` (`Buffer.from(text, 'base64')` would skip such characters silently and decode the rest).
 */
export function decodeBase64Strict(text: string): Buffer | undefined {
  const compact = text.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) return undefined;
  return Buffer.from(compact, 'base64');
}
