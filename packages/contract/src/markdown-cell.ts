/**
 * Escapes text for one cell of a Markdown table (GitHub flavour), the one way every erpcert Markdown report does:
 * a backslash is doubled (so that the text cannot escape the next character, and `a\|b` stays `a\|b`), a `|` is
 * `\|` (it would end the cell), and a line break (CR LF, LF or CR) is a space (a table row is one line).
 */
export function markdownCell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r\n|\r|\n/g, ' ');
}
