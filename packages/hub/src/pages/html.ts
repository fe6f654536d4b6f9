/**
 * The pages' one escaping helper: `html` is a tagged template whose interpolated values are escaped as text
 * (`& < > " '`), unless they are {@link Html} made by this same tag. Only this module can make an `Html`, so a value
 * from a run (which the target under test chose) can never pass as markup, whatever its shape; there is no `raw`.
 * Attribute values are always written in double quotes by the templates.
 */
import { escapeXml } from '@erpcert/contract';

/**
 * Escapes text for an HTML text node or a double-quoted attribute value: the project's one XML escaper
 * (`& < > " '`; a character XML forbids becomes U+FFFD), which HTML 5 reads the same.
 */
export const escapeText: (s: string) => string = escapeXml;

/** Markup made by {@link html}: safe to put in a page as it is. */
export class Html {
  /**
   * The brand only this class's constructor sets: `#made in v` cannot be faked by an object given Html's prototype
   * (as a WeakSet of made objects could not either, at a fraction of the cost: a page of the matrix makes 20,000).
   */
  readonly #made = true;

  private constructor(readonly text: string) {}

  /** @internal only `html` calls this. */
  static of(text: string): Html {
    return new Html(text);
  }

  /** Whether `v` was made by {@link html}. */
  static made(v: unknown): v is Html {
    return typeof v === 'object' && v !== null && #made in v && (v as Html).#made;
  }

  toString(): string {
    return this.text;
  }
}

/** What a template may interpolate: markup from `html`, text, numbers, lists of these; nothing for null/false. */
export type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function append(out: string[], v: unknown): void {
  if (v === null || v === undefined || v === false || v === true) return;
  if (Html.made(v)) out.push(v.text);
  else if (Array.isArray(v)) for (const x of v) append(out, x);
  else out.push(escapeText(String(v)));
}

export function html(strings: TemplateStringsArray, ...values: readonly Part[]): Html {
  const out: string[] = [];
  strings.forEach((s, i) => {
    out.push(s);
    if (i < values.length) append(out, values[i]);
  });
  return Html.of(out.join(''));
}

/**
 * A link to a page of the hub: `path` is a list of segments, each URL-encoded (so a rule id or file path from a run
 * never leaves its segment, and a link never takes another scheme: it always starts with `/`); `query` values are
 * encoded too, empty ones left out.
 */
export function href(
  segments: readonly (string | number)[],
  query: Readonly<Record<string, string | number | undefined | null>> = {},
): string {
  const path = `/${segments.map((s) => encodeURIComponent(String(s))).join('/')}`;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}

const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point: they are shown escaped
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff\ufffd]/g;

/** How much of one evidence value a page shows; the rest is in the run's files. */
export const SHOWN_CHARS = 20_000;

/**
 * Evidence as plain text: control, bidi-override and undecodable characters are shown as `\uXXXX` (binary bodies stay readable
 * and cannot reorder the page), and values longer than {@link SHOWN_CHARS} are cut with a note saying how much.
 */
export function evidenceText(value: unknown): string {
  const s = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value, null, 2);
  const shown = s.length > SHOWN_CHARS ? s.slice(0, SHOWN_CHARS) : s;
  const visible = shown.replace(CONTROL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return s.length > SHOWN_CHARS
    ? `${visible}\n… (${s.length - SHOWN_CHARS} more characters: the whole value is in the run's results.json)`
    : visible;
}
