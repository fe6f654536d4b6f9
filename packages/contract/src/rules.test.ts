import { describe, expect, it } from 'vitest';
import { RULE_ID_PATTERN, rules } from './rules.js';
import {
  type DocSection,
  findDocSection,
  normaliseDocText,
  notShownSentences,
  numberedItems,
  parseDocSections,
  readDoc,
  rowQuote,
  tableRows,
} from './rules-markdown.js';
import { RULE_DOCS, RULE_KINDS, RULE_STANDINGS, type RuleDoc } from './rules-types.js';

const docText: Record<RuleDoc, string> = {
  'record-rest-api.md': readDoc('record-rest-api.md'),
  'portal-action-api.md': readDoc('portal-action-api.md'),
};
const docSections: Record<RuleDoc, readonly DocSection[]> = {
  'record-rest-api.md': parseDocSections(docText['record-rest-api.md']),
  'portal-action-api.md': parseDocSections(docText['portal-action-api.md']),
};

function section(doc: RuleDoc, heading: string): DocSection {
  const s = findDocSection(docSections[doc], heading);
  if (!s) throw new Error(`${doc} has no heading "${heading}"`);
  return s;
}

function rulesIn(doc: RuleDoc, heading: string) {
  return rules.filter((r) => r.doc === doc && normaliseDocText(r.section) === normaliseDocText(heading));
}

describe('rule catalogue (specs/rules.yaml): structure', () => {
  it('holds well over a hundred rules of both documents', () => {
    expect(rules.length).toBeGreaterThan(300);
    expect(rules.filter((r) => r.api === 'REST').length).toBeGreaterThan(100);
    expect(rules.filter((r) => r.api === 'PORTAL').length).toBeGreaterThan(200);
  });

  it('has unique, well-formed ids', () => {
    const ids = rules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(RULE_ID_PATTERN);
  });

  it.each(rules.map((r) => [r.id, r] as const))('%s has valid fields', (_id, r) => {
    expect(RULE_KINDS).toContain(r.kind);
    expect(RULE_STANDINGS).toContain(r.standing);
    expect(RULE_DOCS).toContain(r.doc);
    expect(r.title.length).toBeGreaterThan(10);
    expect(r.doc).toBe(r.api === 'REST' ? 'record-rest-api.md' : 'portal-action-api.md');
    expect(r.standing === 'inferred').toBe((r.inferredFrom ?? '').length > 20);
    expect(r.observable).toBe(r.why === undefined);
    expect(r.standing === 'unspecified').toBe(r.id.endsWith('_NOT_SHOWN'));
    if (r.standing === 'unspecified') expect(r.quote).toContain('not shown');
  });
});

describe('rule catalogue: every rule points at its doc', () => {
  it.each(rules.map((r) => [r.id, r] as const))('%s: section exists and holds the quote', (_id, r) => {
    const s = section(r.doc, r.section);
    // the deepest section: the quote is in the section's own text, not only in a subsection
    expect(normaliseDocText(s.own)).toContain(normaliseDocText(r.quote));
  });

  it('names sections by their exact heading text', () => {
    const headings = new Set(RULE_DOCS.flatMap((d) => docSections[d].map((s) => `${d}#${s.heading}`)));
    const wrong = rules.filter((r) => !headings.has(`${r.doc}#${r.section}`)).map((r) => r.id);
    expect(wrong).toEqual([]);
  });
});

describe('rule catalogue: completeness against the docs', () => {
  it.each(RULE_DOCS)('every "not shown" sentence of %s is the quote of an unspecified rule', (doc) => {
    const sentences = notShownSentences(docText[doc]);
    expect(sentences.length).toBeGreaterThanOrEqual(12);
    const quoted = new Set(
      rules.filter((r) => r.doc === doc && r.standing === 'unspecified').map((r) => normaliseDocText(r.quote)),
    );
    expect(sentences.filter((s) => !quoted.has(s))).toEqual([]);
  });

  it.each([
    ['record-rest-api.md', 'Rules', 13],
    ['portal-action-api.md', 'Operation rules', 14],
  ] as const)('every numbered rule of %s "%s" is quoted by a rule', (doc, heading, count) => {
    const items = numberedItems(section(doc, heading).own);
    expect(items.map((i) => i.n)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    const quotes = rulesIn(doc, heading).map((r) => normaliseDocText(r.quote));
    const unquoted = items.filter((item) => !quotes.some((q) => normaliseDocText(item.text).includes(q)));
    expect(unquoted.map((i) => i.n)).toEqual([]);
  });

  // Every row of these tables is the subject of at least one rule quoting it from its first cell.
  const tables: [RuleDoc, string, number][] = [
    ['record-rest-api.md', 'Envelope (JSON)', 4],
    ['record-rest-api.md', 'Registers, keys and main fields', 38],
    ['record-rest-api.md', '3. States and transitions', 1],
    ['record-rest-api.md', '4. Endpoints', 5],
    ['record-rest-api.md', 'Query parameters', 8],
    ['record-rest-api.md', '8. Limits', 5],
    ['portal-action-api.md', 'Global parameters (valid on every action)', 3],
    ['portal-action-api.md', 'Extension hooks', 9],
    ['portal-action-api.md', 'Registers per operation', 16],
    ['portal-action-api.md', 'Result element shapes (XML)', 13],
    ['portal-action-api.md', 'Field-trigger request body (JSON)', 10],
    ['portal-action-api.md', 'Field-trigger response body (JSON)', 6],
    ['portal-action-api.md', 'Active edit fields response', 6],
    ['portal-action-api.md', 'Approval status codes (`approvalstatus`)', 6],
    ['portal-action-api.md', 'Confirmation flag (`OKFlag`: 0 draft, 1 confirmed)', 2],
    ['portal-action-api.md', '4. Endpoints', 50],
    ['portal-action-api.md', '8. Limits', 5],
  ];
  it.each(tables)('every row of %s "%s" (%i rows) has a rule', (doc, heading, count) => {
    const rows = tableRows(section(doc, heading).own);
    expect(rows).toHaveLength(count);
    const quotes = rulesIn(doc, heading).map((r) => normaliseDocText(r.quote));
    const missing = rows
      .map((cells) => rowQuote(cells))
      .filter((row) => !quotes.some((q) => row.includes(q) && q.startsWith(`${row.split(' | ')[0]} |`)));
    expect(missing).toEqual([]);
  });

  it('covers each of the 12 portal actions and every sub-action the portal doc names', () => {
    const endpoints = tableRows(section('portal-action-api.md', '4. Endpoints').own);
    // `register=getfile`, or the list form of the user lists: `register = getportalusers, getadminusers or getallusers`
    const subActions = endpoints.flatMap(([, , params = '']) => {
      const list = /register = ([a-z]+(?:, [a-z]+)* or [a-z]+)/.exec(params);
      if (list) return list[1]!.split(/, | or /);
      const one = /register=([a-z]+)/.exec(params);
      return one ? [one[1]!] : [];
    });
    const rule13 = numberedItems(section('portal-action-api.md', 'Operation rules').own).find((i) => i.n === 13)!;
    const unshown = /Parameters of (.*): not shown/.exec(normaliseDocText(rule13.text))![1]!.split(/, | and /);
    const actions = /Values: ([a-z, ]+)\./.exec(
      normaliseDocText(section('portal-action-api.md', '1. What the service does').own),
    );
    const names = [...actions![1]!.split(', '), ...subActions, ...unshown, 'list'];
    expect([actions![1]!.split(', ').length, new Set(subActions).size, unshown.length]).toEqual([12, 40, 4]);
    const applied = new Set(rules.filter((r) => r.api === 'PORTAL').flatMap((r) => r.appliesTo ?? []));
    expect(names.filter((n) => !applied.has(n))).toEqual([]);
  });

  it('names in appliesTo only operations the portal doc spells (or list)', () => {
    const words = new Set(normaliseDocText(docText['portal-action-api.md']).split(/[^A-Za-z]+/));
    const unknown = rules
      .filter((r) => r.api === 'PORTAL')
      .flatMap((r) => (r.appliesTo ?? []).filter((op) => op !== 'list' && !words.has(op)).map((op) => `${r.id}:${op}`));
    expect(unknown).toEqual([]);
  });
});
