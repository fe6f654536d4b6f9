/**
 * Escaping text for XML 1.0, the one way erpcert writes it: the reference server's answers, the JUnit reports (cli
 * and k6), the XSD and examples generated from the specs, request bodies, the self-test's edited answers and the
 * masker's search forms.
 *
 * Characters XML 1.0 cannot carry at all (§2.2 `Char`: C0 controls other than tab, LF and CR; U+FFFE and U+FFFF;
 * a surrogate that is not half of a pair) become U+FFFD REPLACEMENT CHARACTER: the document stays well-formed and
 * shows that something stood there. A lone surrogate would become U+FFFD anyway once the text is encoded as UTF-8.
 */

/** A quick test for the common case: no forbidden character and no surrogate at all. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the characters XML forbids is the point
const MAYBE_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
/** A quick test for the common case (nothing to do): markup, forbidden characters, any surrogate. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the characters XML forbids is the point
const SPECIAL = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

const ENTITY: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};
const MARKUP_ALL = /[&<>"']/g;
const CONTENT = /[&<>]/;
const CONTENT_ALL = /[&<>]/g;
const ATTRIBUTE_ALL = /[&<>"'\t\n\r]/g;
const entity = (c: string): string => ENTITY[c]!;

/** Is the UTF-16 code unit `c` at `i` outside XML 1.0's `Char`, counting a surrogate as allowed only in a pair? */
function forbiddenAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0x20) return c !== 0x09 && c !== 0x0a && c !== 0x0d;
  if (c < 0xd800) return false;
  if (c <= 0xdbff) {
    const next = text.charCodeAt(i + 1);
    return !(next >= 0xdc00 && next <= 0xdfff);
  }
  if (c <= 0xdfff) {
    const before = i > 0 ? text.charCodeAt(i - 1) : 0;
    return !(before >= 0xd800 && before <= 0xdbff);
  }
  return c === 0xfffe || c === 0xffff;
}

// Surrogates are judged by code unit, not by a regular expression: k6's JavaScript runtime (sobek) matched each
// half of 😀 as a lone surrogate, with lookarounds and with a pair alternative alike.

/** The text with every character XML 1.0 forbids replaced by U+FFFD. */
export function replaceForbiddenXmlChars(text: string): string {
  if (!MAYBE_FORBIDDEN.test(text)) return text;
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (!forbiddenAt(text, i)) continue;
    out += `${text.slice(from, i)}\uFFFD`;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** True when the text holds a character XML 1.0 cannot carry (a write that would need one is refused). */
export function hasForbiddenXmlChar(text: string): boolean {
  if (!MAYBE_FORBIDDEN.test(text)) return false;
  for (let i = 0; i < text.length; i++) if (forbiddenAt(text, i)) return true;
  return false;
}

/**
 * Escapes text for element content or an attribute value in either quotes: the five predefined entities
 * (`&amp; &lt; &gt; &quot; &apos;`); characters XML forbids become U+FFFD. In an attribute, a tab or line break
 * reaches the reader as a space (XML 1.0 §3.3.3): use {@link escapeXmlAttribute} where they must survive.
 */
export function escapeXml(text: string): string {
  if (!SPECIAL.test(text)) return text;
  return replaceForbiddenXmlChars(text).replace(MARKUP_ALL, entity);
}

/**
 * Escapes text for an attribute value that keeps its tabs and line breaks: {@link escapeXml}, and tab, LF and CR
 * as character references (`&#9; &#10; &#13;`), which attribute-value normalisation leaves alone.
 */
export function escapeXmlAttribute(text: string): string {
  return replaceForbiddenXmlChars(text).replace(ATTRIBUTE_ALL, entity);
}

/**
 * Escapes text for element content only, as most XML writers do: `&`, `<` and `>` (so that `]]>` cannot occur);
 * quotes stay as they are. Characters XML forbids become U+FFFD.
 */
export function escapeXmlContent(text: string): string {
  const safe = replaceForbiddenXmlChars(text);
  return CONTENT.test(safe) ? safe.replace(CONTENT_ALL, entity) : safe;
}

const REFERENCE = /&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g;
const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Undoes the escaping of XML text read without a parser (a value cut out of a body by a pattern): the five
 * predefined entities and decimal or hexadecimal character references, in one pass (so `&amp;lt;` is `&lt;`).
 * Anything else stays as it is: an entity XML does not predefine (`&nbsp;`), a reference beyond U+10FFFF, a lone `&`.
 */
export function unescapeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref]!;
    const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
