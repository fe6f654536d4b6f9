/**
 * The one Markdown table-cell escaper's cases: those of every former copy (cli reports/summary-md.ts and
 * fixtures-section.ts, cli load/summary-md.ts, load/k6 lib/markdown.ts).
 */
import { describe, expect, it } from 'vitest';
import { markdownCell } from './markdown-cell.js';

describe('markdownCell', () => {
  it.each<[string, string, string]>([
    ['plain text is unchanged', 'REST.QUERY.FILTER_AND', 'REST.QUERY.FILTER_AND'],
    ['a pipe is escaped (all four)', 'a|b', 'a\\|b'],
    ['a line break is a space (all four)', 'two\nlines', 'two lines'],
    ['CR LF is one space', 'two\r\nlines', 'two lines'],
    ['a lone CR is a space', 'two\rlines', 'two lines'],
    ['a backslash is doubled (cli reports)', 'back\\slash', 'back\\\\slash'],
    ['a backslash before a pipe cannot unescape it', 'a\\|b', 'a\\\\\\|b'],
    ['a Windows path', 'C:\\reports\\x', 'C:\\\\reports\\\\x'],
    ['the empty string', '', ''],
  ])('%s', (_, given, want) => {
    expect(markdownCell(given)).toBe(want);
  });

  it('a table row of escaped cells has exactly its column separators', () => {
    const cells = ['a|b', 'c\\', 'd\ne', '\\|'];
    const row = `| ${cells.map(markdownCell).join(' | ')} |`;
    // GFM: a pipe preceded by an odd number of backslashes is text; the rest separate cells
    const separators = row.match(/(?<!\\)(?:\\\\)*\|/g) ?? [];
    expect(separators).toHaveLength(cells.length + 1);
    expect(row).not.toMatch(/[\r\n]/);
  });
});
