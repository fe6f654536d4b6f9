/**
 * A small, strict XML parser for the subset the ERP's bodies use: elements, attributes, character data,
 * CDATA sections, comments, processing instructions and the five predefined entities plus character
 * references. No DTD: a `<!DOCTYPE` is refused, and so is any entity it could have declared (XML 1.0 §4.1
 * "Well-formedness constraint: Entity Declared"). It builds a tree with text, which `xsd-outline.ts` (a shallow
 * routing outline, no text, lenient) does not, and it runs synchronously in-process, which xmllint-wasm (a
 * worker that prints text, no tree) does not.
 *
 * A body may hold several top-level elements (`<error/><data>...</data>`, specs/xsd/README.md "Bodies without a
 * single root"), so the result is a list of roots.
 */

/** One element: its attributes (values normalised and decoded) and its element children. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** The character data directly inside the element (text and CDATA, in order, decoded); children's excluded. */
  readonly text: string;
  /** 1-based line of the start tag. */
  readonly line: number;
}

/** A parsed body: its top-level elements in document order (at least one). */
export interface XmlTree {
  readonly roots: readonly XmlElement[];
}

/** The text is not well-formed XML, or uses something outside the subset (a DTD). */
export class XmlParseError extends Error {
  override readonly name = 'XmlParseError';
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`line ${line}, column ${column}: ${message}`);
  }
}

// XML 1.0 §2.3 NameStartChar / NameChar, without the supplementary planes.
const startChars =
  ':A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C\\u200D' +
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD';
const namePattern = new RegExp(`[${startChars}][${startChars}\\-.0-9\\u00B7\\u0300-\\u036F\\u203F\\u2040]*`, 'y');
const whitespace = /[ \t\n]*/y;
const referencePattern = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|([A-Za-z_:][-A-Za-z0-9_:.]*));/y;
const predefined: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

interface Building {
  name: string;
  attributes: Record<string, string>;
  children: Building[];
  text: string;
  line: number;
}

/** XML 1.0 §2.2 Char. */
function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/**
 * Parses `source` (a decoded string; a leading BOM and an XML declaration are allowed). Throws
 * {@link XmlParseError} with the line and column of the first fault.
 */
export function parseXml(source: string): XmlTree {
  // XML 1.0 §2.11: CR LF and lone CR become LF before parsing.
  const text = source.replace(/\r\n?/g, '\n');
  const lineStarts = [0];
  for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) lineStarts.push(k + 1);
  const lineOf = (at: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  function fail(message: string, at: number): never {
    const line = lineOf(at);
    throw new XmlParseError(message, line, at - lineStarts[line - 1]! + 1);
  }

  const decode = (raw: string, at: number): string => {
    let out = '';
    let from = 0;
    for (let amp = raw.indexOf('&'); amp >= 0; amp = raw.indexOf('&', from)) {
      out += raw.slice(from, amp);
      referencePattern.lastIndex = amp;
      const m = referencePattern.exec(raw);
      if (!m) fail('"&" that starts no entity or character reference (write &amp;)', at + amp);
      const [whole, hex, dec, entity] = m;
      if (entity !== undefined) {
        const value = predefined[entity];
        if (value === undefined) fail(`undefined entity &${entity}; (no DTD is read)`, at + amp);
        out += value;
      } else {
        const cp = Number.parseInt(hex ?? dec!, hex !== undefined ? 16 : 10);
        if (!isXmlChar(cp)) fail(`character reference ${whole} is not an XML character`, at + amp);
        out += String.fromCodePoint(cp);
      }
      from = amp + whole.length;
    }
    return out + raw.slice(from);
  };

  const readName = (at: number, what: string): string => {
    namePattern.lastIndex = at;
    const m = namePattern.exec(text);
    if (!m) fail(`expected ${what}`, at);
    return m[0];
  };
  const skipWhitespace = (at: number): number => {
    whitespace.lastIndex = at;
    whitespace.exec(text);
    return whitespace.lastIndex;
  };

  const roots: Building[] = [];
  const stack: Building[] = [];
  let i = text.startsWith('\uFEFF') ? 1 : 0;
  if (/^<\?xml[ \t\n?]/.test(text.slice(i, i + 6))) {
    const end = text.indexOf('?>', i);
    if (end < 0) fail('unterminated XML declaration', i);
    i = end + 2;
  }
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const runEnd = lt < 0 ? text.length : lt;
    if (runEnd > i) {
      const run = text.slice(i, runEnd);
      const current = stack[stack.length - 1];
      if (!current) {
        if (run.trim() !== '') fail('text outside any element', i + run.search(/\S/));
      } else {
        const cdataEnd = run.indexOf(']]>');
        if (cdataEnd >= 0) fail('"]]>" in character data', i + cdataEnd);
        current.text += decode(run, i);
      }
    }
    if (lt < 0) break;
    i = lt;
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('--', i + 4);
      if (end < 0) fail('unterminated comment', i);
      if (text[end + 2] !== '>') fail('"--" inside a comment', end);
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i + 9);
      if (end < 0) fail('unterminated CDATA section', i);
      const current = stack[stack.length - 1];
      if (!current) fail('CDATA section outside any element', i);
      current.text += text.slice(i + 9, end);
      i = end + 3;
    } else if (text.startsWith('<!', i)) {
      fail('DOCTYPE and other markup declarations are not supported (no DTD)', i);
    } else if (text.startsWith('<?', i)) {
      const target = readName(i + 2, 'a processing-instruction target');
      if (target.toLowerCase() === 'xml') fail('XML declaration not at the start of the body', i);
      const end = text.indexOf('?>', i + 2);
      if (end < 0) fail('unterminated processing instruction', i);
      i = end + 2;
    } else if (text.startsWith('</', i)) {
      const name = readName(i + 2, 'an element name after "</"');
      const gt = skipWhitespace(i + 2 + name.length);
      if (text[gt] !== '>') fail(`expected ">" to close </${name}`, gt);
      const open = stack.pop();
      if (!open) fail(`end tag </${name}> without a start tag`, i);
      if (open.name !== name) fail(`end tag </${name}> does not match <${open.name}> (line ${open.line})`, i);
      i = gt + 1;
    } else {
      const name = readName(i + 1, 'an element name after "<"');
      const element: Building = { name, attributes: {}, children: [], text: '', line: lineOf(i) };
      const entries: [string, string][] = [];
      const seen = new Set<string>();
      let p = i + 1 + name.length;
      for (;;) {
        const afterSpace = skipWhitespace(p);
        if (text.startsWith('/>', afterSpace) || text[afterSpace] === '>') {
          p = afterSpace;
          break;
        }
        if (afterSpace === p) fail(`expected whitespace, ">" or "/>" in <${name}>`, p);
        const attribute = readName(afterSpace, `an attribute name or ">" in <${name}>`);
        if (seen.has(attribute)) fail(`attribute ${attribute} repeated in <${name}>`, afterSpace);
        seen.add(attribute);
        let q = skipWhitespace(afterSpace + attribute.length);
        if (text[q] !== '=') fail(`expected "=" after attribute ${attribute}`, q);
        q = skipWhitespace(q + 1);
        const quote = text[q];
        if (quote !== '"' && quote !== "'") fail(`expected a quoted value for attribute ${attribute}`, q);
        const close = text.indexOf(quote, q + 1);
        if (close < 0) fail(`unterminated value of attribute ${attribute}`, q);
        const raw = text.slice(q + 1, close);
        const lessThan = raw.indexOf('<');
        if (lessThan >= 0) fail(`"<" in the value of attribute ${attribute}`, q + 1 + lessThan);
        // XML 1.0 §3.3.3: literal white space becomes a space; a character reference keeps its character.
        entries.push([attribute, decode(raw.replace(/[\t\n]/g, ' '), q + 1)]);
        p = close + 1;
      }
      element.attributes = Object.fromEntries(entries);
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(element);
      else roots.push(element);
      if (text.startsWith('/>', p)) i = p + 2;
      else {
        stack.push(element);
        i = p + 1;
      }
    }
  }
  const unclosed = stack[stack.length - 1];
  if (unclosed) fail(`<${unclosed.name}> (line ${unclosed.line}) is never closed`, text.length);
  if (roots.length === 0) fail('no element in the body', text.length);
  return { roots };
}
