/** The parts of a Content-Type header. */
export interface ContentType {
  /** Lower-case MIME type without parameters; empty when there was no header. */
  readonly mimeType: string;
  /** Lower-case charset parameter, when present. */
  readonly charset?: string;
}

/** Splits a Content-Type header into MIME type and charset. */
export function parseContentType(header: string | undefined): ContentType {
  if (!header) return { mimeType: '' };
  const [type = '', ...params] = header.split(';');
  const mimeType = type.trim().toLowerCase();
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq > 0 && p.slice(0, eq).trim().toLowerCase() === 'charset') {
      const charset = p
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase();
      if (charset) return { mimeType, charset };
    }
  }
  return { mimeType };
}

const LATIN1 = new Set(['iso-8859-1', 'iso8859-1', 'latin1', 'latin-1', 'l1', 'iso_8859-1', 'cp819', 'us-ascii']);
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a body and the charset it was decoded with. */
export interface DecodedText {
  readonly text: string;
  /** `utf-8`, `latin1` or another WHATWG label that was applied. */
  readonly charset: string;
}

/**
 * Decodes body bytes by the response charset (DESIGN.md "the wire is rough": servers send Latin-1 unless asked
 * for UTF-8). With no charset: UTF-8 when the bytes are valid UTF-8, else Latin-1. `iso-8859-1` is decoded as true
 * Latin-1 (every byte one code point), not as the WHATWG alias windows-1252.
 */
export function decodeText(bytes: Uint8Array, charset?: string): DecodedText {
  const out = decodeWith(bytes, charset);
  return out.text.charCodeAt(0) === 0xfeff ? { text: out.text.slice(1), charset: out.charset } : out;
}

function decodeWith(bytes: Uint8Array, charset?: string): DecodedText {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (charset) {
    if (LATIN1.has(charset)) return { text: buf.toString('latin1'), charset: 'latin1' };
    if (charset === 'utf-8' || charset === 'utf8') return { text: buf.toString('utf8'), charset: 'utf-8' };
    try {
      return { text: new TextDecoder(charset).decode(buf), charset };
    } catch {
      // unknown label: fall through to detection
    }
  }
  try {
    return { text: strictUtf8.decode(buf), charset: 'utf-8' };
  } catch {
    return { text: buf.toString('latin1'), charset: 'latin1' };
  }
}

/** True when a MIME type names text the client can decode (XML, JSON, text, forms). */
export function isTextMime(mimeType: string): boolean {
  return (
    mimeType === '' ||
    mimeType.startsWith('text/') ||
    mimeType.includes('xml') ||
    mimeType.includes('json') ||
    mimeType.includes('x-www-form-urlencoded')
  );
}
