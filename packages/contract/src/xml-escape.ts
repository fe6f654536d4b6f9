/**
 * Escaping text for XML 1.0, the one way erpcert writes it: the reference server's answers, the JUnit reports (cli
 * and k6), the XSD and examples generated from the specs, request bodies, the self-test's edited answers and the
 * masker's search forms.
 *
 * Characters XML 1.0 cannot carry at all (§2.2 `Char`: C0 controls other than tab, LF and CR; U+FFFE and U+FFFF;
 * a surrogate that is not half of a pair) become U+FFFD REPLACEMENT CHARACTER: the document stays well-formed and
 * shows that something stood there. A lone surrogate would become U+FFFD anyway once the text is encoded as UTF-8.
 */

/** Characters outside XML 1.0's `Char` production: C0 controls but tab/LF/CR, U+FFFE/U+FFFF, lone surrogates. */
const FORBIDDEN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the characters XML forbids is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const FORBIDDEN_ALL = new RegExp(FORBIDDEN.source, 'g');
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

/** The text with every character XML 1.0 forbids replaced by U+FFFD. */
export function replaceForbiddenXmlChars(text: string): string {
  return FORBIDDEN.test(text) ? text.replace(FORBIDDEN_ALL, '\uFFFD') : text;
}

/** True when the text holds a character XML 1.0 cannot carry (a write that would need one is refused). */
export function hasForbiddenXmlChar(text: string): boolean {
  return FORBIDDEN.test(text);
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
