/** Code points outside XML 1.0's Char production (XML 1.0 §2.2): no document may carry them. */
const FORBIDDEN = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF';
/** Characters that need an entity, plus those XML 1.0 cannot carry at all (dropped). */
const SPECIAL = new RegExp(`[&<>"'${FORBIDDEN}]`);
const SPECIAL_ALL = new RegExp(`[&<>"'${FORBIDDEN}]`, 'g');
const FORBIDDEN_RE = new RegExp(`[${FORBIDDEN}]`);
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes text for an XML element or attribute value; characters XML 1.0 forbids are dropped. */
export function escapeXml(text: string): string {
  if (!SPECIAL.test(text)) return text;
  return text.replace(SPECIAL_ALL, (c) => ENTITY[c] ?? '');
}

/** True when the text holds a character XML 1.0 cannot carry (writes refuse such values). */
export function hasForbiddenXmlChar(text: string): boolean {
  return FORBIDDEN_RE.test(text);
}
