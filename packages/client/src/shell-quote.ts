/** Words a POSIX shell reads as they are: no quoting, expansion, globbing or word splitting applies to them. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes one word for a POSIX shell when it needs it (the curl lines of reports and HAR replays, the `erpcert`
 * replay commands): a plain word stays as it is, anything else goes in single quotes, a `'` inside as `'\''`;
 * the empty word is `''`.
 */
export function shellQuote(word: string): string {
  if (PLAIN.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
