import type { FieldChanges } from '../business/record-write.js';
import { ErpError, ErrorCode } from '../errors.js';

/**
 * Percent-decodes one form component into bytes, then text in the given charset. `+` is a space, or with
 * `literalPlus` (`--quirks`, as live servers do) a plus sign.
 */
function decodeComponent(s: string, charset: 'utf-8' | 'latin1', literalPlus = false): string {
  // s came from a Latin-1 reading of the body: one character per byte
  if (/^[\x20-\x24\x26-\x2a\x2c-\x7e]*$/.test(s)) return s;
  const bytes = Buffer.alloc(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2b) bytes[n++] = literalPlus ? 0x2b : 0x20;
    else if (c === 0x25 && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes[n++] = Number.parseInt(s.slice(i + 1, i + 3), 16);
      i += 2;
    } else bytes[n++] = c & 0xff;
  }
  return bytes.subarray(0, n).toString(charset === 'utf-8' ? 'utf8' : 'latin1');
}

/**
 * Parses `application/x-www-form-urlencoded` into name/value pairs. The body bytes are ASCII by the
 * format; percent-escapes decode as UTF-8, or Latin-1 in `--quirks` mode without `charset=UTF-8`.
 * `literalPlus` (`--quirks`) keeps a `+` as a plus sign, as live servers do: clients must send `%20`.
 */
export function parseForm(
  body: Buffer,
  charset: 'utf-8' | 'latin1' = 'utf-8',
  literalPlus = false,
): [string, string][] {
  const text = body.toString('latin1');
  const pairs: [string, string][] = [];
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    pairs.push([decodeComponent(name, charset, literalPlus), decodeComponent(value, charset, literalPlus)]);
  }
  return pairs;
}

const malformed = (description: string, field?: string) =>
  new ErpError(400, ErrorCode.malformedBody, description, field !== undefined ? { field } : {});

/**
 * Turns form pairs into field changes: `set_field.<Field>` (header) and `set_row_field.<N>.<Field>`
 * (row N, 0-based), record-rest-api.md §4 "Create records, form". Anything else is refused (400).
 */
export function formChanges(pairs: readonly (readonly [string, string])[]): FieldChanges {
  const header = new Map<string, string>();
  const rows = new Map<number, Map<string, string>>();
  for (const [name, value] of pairs) {
    if (name.startsWith('set_field.')) {
      const field = name.slice('set_field.'.length);
      if (!/^\w+$/.test(field)) throw malformed(`"${name}" names no field`, field);
      header.set(field, value);
      continue;
    }
    // any row number is well-formed; one beyond the record's rows is the write's validation error (HTTP 200)
    const m = /^set_row_field\.(\d+)\.(\w+)$/.exec(name);
    if (m) {
      const n = Number(m[1]);
      if (!rows.has(n)) rows.set(n, new Map());
      rows.get(n)!.set(m[2]!, value);
      continue;
    }
    if (name.startsWith('set_row_field.'))
      throw malformed(`"${name}" must be set_row_field.<row number from 0>.<field>`, name);
    throw malformed(`unknown body parameter "${name}": use set_field.<Field> or set_row_field.<N>.<Field>`, name);
  }
  return {
    header: [...header],
    rows: new Map([...rows].map(([n, m]) => [n, [...m]] as const)),
  };
}
