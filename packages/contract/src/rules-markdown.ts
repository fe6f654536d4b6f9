import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { docsDir } from './paths.js';

/** One heading of a markdown document with the text under it. */
export interface DocSection {
  /** Heading level: 1 for `#`, 2 for `##` ... */
  readonly level: number;
  /** The heading text as written (`Row types (\`stp\`)`). */
  readonly heading: string;
  /** The text up to the next heading of any level: what the section itself says. */
  readonly own: string;
  /** The text up to the next heading of the same or a higher level: the section with its subsections. */
  readonly full: string;
}

/**
 * The form in which doc text and catalogue quotes are compared: markdown backticks and asterisks
 * removed, whitespace collapsed to single spaces, trimmed.
 */
export function normaliseDocText(text: string): string {
  return text.replace(/[`*]/g, '').replace(/\s+/g, ' ').trim();
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen (`4. Endpoints` -> `4-endpoints`). */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

/** Splits a markdown document into its headed sections, in document order. Text before the first heading is dropped. */
export function parseDocSections(markdown: string): readonly DocSection[] {
  const lines = markdown.split(/\r?\n/);
  const heads: { level: number; heading: string; line: number }[] = [];
  lines.forEach((line, i) => {
    const m = HEADING.exec(line);
    if (m) heads.push({ level: m[1]!.length, heading: m[2]!, line: i });
  });
  return heads.map((h, i) => {
    const nextAny = heads[i + 1]?.line ?? lines.length;
    const nextSame = heads.slice(i + 1).find((o) => o.level <= h.level)?.line ?? lines.length;
    return {
      level: h.level,
      heading: h.heading,
      own: lines.slice(h.line + 1, nextAny).join('\n'),
      full: lines.slice(h.line + 1, nextSame).join('\n'),
    };
  });
}

/** The section whose heading matches `heading` (compared normalised), or undefined. */
export function findDocSection(sections: readonly DocSection[], heading: string): DocSection | undefined {
  const want = normaliseDocText(heading);
  return sections.find((s) => normaliseDocText(s.heading) === want);
}

const SEPARATOR_ROW = /^\|[\s:|-]+\|$/;

/** The body rows of every markdown table in `text` (header and separator rows left out), each as trimmed cells. */
export function tableRows(text: string): readonly (readonly string[])[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const rows: string[][] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('|') || SEPARATOR_ROW.test(line)) return;
    if (SEPARATOR_ROW.test(lines[i + 1] ?? '')) return; // header row
    rows.push(
      line
        .replace(/^\|/, '')
        .replace(/\|$/, '')
        .split('|')
        .map((c) => c.trim()),
    );
  });
  return rows;
}

/** A table row as the catalogue quotes it: cells normalised and joined by ` | `. */
export function rowQuote(cells: readonly string[]): string {
  return cells.map(normaliseDocText).join(' | ');
}

/** The items of the numbered lists in `text` (`1. ...`), with their numbers. */
export function numberedItems(text: string): readonly { readonly n: number; readonly text: string }[] {
  return text.split(/\r?\n/).flatMap((line) => {
    const m = /^\s*(\d+)\.\s+(.*)$/.exec(line);
    return m ? [{ n: Number(m[1]), text: m[2]! }] : [];
  });
}

/** Every sentence of `markdown` that contains "not shown", normalised, list markers removed. */
export function notShownSentences(markdown: string): readonly string[] {
  return markdown
    .split(/\r?\n/)
    .filter((line) => line.includes('not shown'))
    .flatMap((line) =>
      normaliseDocText(line.replace(/^\s*(?:[-*]|\d+\.)\s+/, ''))
        .split(/(?<=\.)\s+(?=[A-Z])/)
        .filter((sentence) => sentence.includes('not shown')),
    );
}

/** Reads one of the two API documents from `docs/`. */
export function readDoc(doc: string): string {
  return readFileSync(join(docsDir, doc), 'utf8');
}
