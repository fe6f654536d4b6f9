import { describe, expect, it } from 'vitest';
import {
  headingSlug,
  normaliseDocText,
  notShownSentences,
  numberedItems,
  parseDocSections,
  readDoc,
  rowQuote,
  tableRows,
} from './rules-markdown.js';
import { RULE_DOCS } from './rules-types.js';

const sample = [
  '# Title',
  'intro',
  '## 1. First',
  'Text of **one**. Also `code`.',
  '### Sub part',
  '| A | B |',
  '| - | :-: |',
  '| a1 | b `1` |',
  '| a2 |  b2 |',
  '## 2. Second',
  '1. First rule. Its option: not shown.',
  '2. Second rule.',
  '- Policy: not shown.',
].join('\n');

describe('markdown helpers', () => {
  it.each([
    ['Text of **one**.\n  Also `code`.', 'Text of one. Also code.'],
    ['  a\tb  ', 'a b'],
  ])('normaliseDocText(%j) is %j', (given, want) => {
    expect(normaliseDocText(given)).toBe(want);
  });

  it.each([
    ['4. Endpoints', '4-endpoints'],
    ['Registers, keys and main fields', 'registers-keys-and-main-fields'],
    ['Result element shapes (XML)', 'result-element-shapes-xml'],
    ['Field-trigger request body (JSON)', 'field-trigger-request-body-json'],
    ['Approval status codes (`approvalstatus`)', 'approval-status-codes-approvalstatus'],
  ])('headingSlug(%j) is %j', (given, want) => {
    expect(headingSlug(given)).toBe(want);
  });

  it('splits sections with their own text and their full text', () => {
    const sections = parseDocSections(sample);
    expect(sections.map((s) => [s.level, s.heading])).toEqual([
      [1, 'Title'],
      [2, '1. First'],
      [3, 'Sub part'],
      [2, '2. Second'],
    ]);
    const first = sections[1]!;
    expect(normaliseDocText(first.own)).toBe('Text of one. Also code.');
    expect(first.full).toContain('| a2 |');
    expect(sections[0]!.full).toContain('Policy');
  });

  it('reads table body rows without header and separator', () => {
    const rows = tableRows(parseDocSections(sample)[2]!.own);
    expect(rows).toEqual([
      ['a1', 'b `1`'],
      ['a2', 'b2'],
    ]);
    expect(rowQuote(rows[0]!)).toBe('a1 | b 1');
  });

  it('reads numbered items and "not shown" sentences', () => {
    expect(numberedItems(sample)).toEqual([
      { n: 1, text: 'First rule. Its option: not shown.' },
      { n: 2, text: 'Second rule.' },
    ]);
    expect(notShownSentences(sample)).toEqual(['Its option: not shown.', 'Policy: not shown.']);
  });

  it.each(RULE_DOCS)('gives every heading of %s its own anchor (no GitHub "-1" suffixes needed)', (doc) => {
    const slugs = parseDocSections(readDoc(doc)).map((s) => headingSlug(s.heading));
    expect(new Set(slugs).size).toBe(slugs.length);
  });
});
