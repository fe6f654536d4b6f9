/**
 * Escapes text so that a regular expression matches it literally: every character with a meaning in a pattern
 * (`. * + ? ^ $ { } ( ) | [ ] \`) gets a backslash. The same as `RegExp.escape` of Node 24 for these characters;
 * Node 20 is erpcert's floor.
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
