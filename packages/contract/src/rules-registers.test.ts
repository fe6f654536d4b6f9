import { describe, expect, it } from 'vitest';
import { registers } from './registers.js';
import { getRule, rules } from './rules.js';
import { findDocSection, normaliseDocText, parseDocSections, readDoc, rowQuote, tableRows } from './rules-markdown.js';

const portalDoc = readDoc('portal-action-api.md');
const portalSections = parseDocSections(portalDoc);

function portalSection(heading: string) {
  const s = findDocSection(portalSections, heading);
  if (!s) throw new Error(`portal-action-api.md has no heading "${heading}"`);
  return s;
}

/** "InvAddr0 to InvAddr4" -> InvAddr0..InvAddr4. */
function expandRange(item: string): string[] {
  const m = /^(\w*?)(\d+) to \1(\d+)$/.exec(item);
  if (!m) return [item];
  return Array.from({ length: Number(m[3]) - Number(m[2]) + 1 }, (_, i) => `${m[1]}${Number(m[2]) + i}`);
}

/** A catalogue field list: parentheticals dropped, "A and B" split, ranges expanded. */
function fieldList(text: string): string[] {
  return normaliseDocText(text)
    .replace(/\([^()]*\)/g, '')
    .replace(/\.$/, '')
    .split(/,| and /)
    .map((s) => s.trim())
    .filter(Boolean)
    .flatMap(expandRange);
}

/** The field-trigger catalogue, read straight from the document: register -> header and row fields. */
function triggerCatalogue() {
  const out = new Map<string, { header: string[]; rows: string[]; portalcc?: string }>();
  let current: string | undefined;
  for (const line of portalSection('Field-trigger catalogue').own.split('\n')) {
    const head = /^\*\*(\w+)\*\*\s*(?:\(([^)]*)\):?\s*(.*))?$/.exec(line.trim());
    if (head) {
      current = head[1]!;
      const tags = (head[2] ?? '').split(',').map((t) => t.trim());
      const portalcc = tags.find((t) => t === 'est' || t === 'lat');
      const body = head[3] ?? '';
      const both = /^H: (.*?)\. R: (.*)$/.exec(body);
      out.set(current, {
        header: both ? fieldList(both[1]!) : body ? fieldList(body) : [],
        rows: both ? fieldList(both[2]!) : [],
        ...(portalcc ? { portalcc } : {}),
      });
      continue;
    }
    const list = /^- ([HR]): (.*)$/.exec(line.trim());
    if (list && current) out.get(current)![list[1] === 'H' ? 'header' : 'rows'] = fieldList(list[2]!);
  }
  return out;
}

describe('rule catalogue against the register catalogue (specs/registers.yaml)', () => {
  it.each(registers.map((r) => [r.name, r] as const))('%s has its register rule', (name, reg) => {
    const rule = getRule(`REST.REGISTER.${name.toUpperCase()}`);
    expect(rule?.registers).toEqual([name]);
    expect(rule?.quote.startsWith(`${name} | ${reg.meaning} |`)).toBe(true);
    const readOnly = getRule(`REST.REGISTER.${name.toUpperCase()}_READ_ONLY`);
    expect(readOnly !== undefined).toBe(reg.readOnly);
    if (readOnly) expect(readOnly.registers).toEqual([name]);
  });

  it.each([
    ['REST.RECORD.URL_COMPOSITE_KEY', registers.filter((r) => r.key.length > 1)],
    ['REST.STATE.OKFLAG_CONFIRM_ON_POST', registers.filter((r) => r.fields.includes('OKFlag'))],
    ['REST.STATE.OKFLAG_VALUES', registers.filter((r) => r.fields.includes('OKFlag'))],
    ['REST.RECORD.ROWS_ARRAY', registers.filter((r) => r.rowFields.length > 0)],
    ['REST.RECORD.ROWS_EMPTY_WITHOUT_LINES', registers.filter((r) => r.rowFields.length === 0)],
    ['REST.RECORD.ROW_TYPES', registers.filter((r) => r.rowFields.includes('stp'))],
  ])('%s applies to exactly the registers the register table implies', (id, want) => {
    expect(getRule(id)?.registers).toEqual(want.map((r) => r.name));
  });

  it('names in REST rules only registers of the register table', () => {
    const known = new Set(registers.map((r) => r.name));
    const unknown = rules
      .filter((r) => r.api === 'REST')
      .flatMap((r) => (r.registers ?? []).filter((n) => !known.has(n)).map((n) => `${r.id}:${n}`));
    expect(unknown).toEqual([]);
  });

  it('names in portal rules only registers the portal document names', () => {
    const words = new Set(normaliseDocText(portalDoc).split(/[^A-Za-z0-9]+/));
    const unknown = rules
      .filter((r) => r.api === 'PORTAL')
      .flatMap((r) => (r.registers ?? []).filter((n) => !words.has(n)).map((n) => `${r.id}:${n}`));
    expect(unknown).toEqual([]);
  });
});

describe('rule catalogue against the portal tables', () => {
  const perOperation = tableRows(portalSection('Registers per operation').own);
  const sectionRules = rules.filter((r) => r.section === 'Registers per operation');

  it.each(perOperation.map((cells) => [cells[0]!, cells] as const))(
    'operation row "%s" has a rule naming exactly its registers',
    (_op, cells) => {
      const rule = sectionRules.find((r) => normaliseDocText(r.quote) === rowQuote(cells));
      const cell = cells[1]!;
      const want =
        cell === 'IVVc only' ? ['IVVc'] : cell.split(',').map((s) => s.trim().replace(/ \((est|lat)\)$/, ''));
      expect(rule?.registers).toEqual(want);
      for (const cc of ['est', 'lat']) {
        const tagged = cell
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s.endsWith(`(${cc})`))
          .map((s) => s.split(' ')[0]);
        if (tagged.length > 0) expect(rule?.params?.[cc]).toEqual(tagged);
      }
    },
  );

  const catalogue = triggerCatalogue();
  it('reads all 16 registers of the field-trigger catalogue', () => {
    expect(catalogue.size).toBe(16);
  });

  it.each([...catalogue].map(([reg, fields]) => [reg, fields] as const))(
    'trigger catalogue entry %s is a rule with its exact field lists',
    (reg, fields) => {
      const rule = getRule(`PORTAL.TRIGGER.FIELDS_${reg.toUpperCase()}`);
      expect(rule?.registers).toEqual([reg]);
      expect(rule?.params?.header).toEqual(fields.header);
      expect(rule?.params?.rows ?? []).toEqual(fields.rows);
      expect(rule?.params?.portalcc).toBe(fields.portalcc);
    },
  );

  it('has the six approval codes 0-5 with the meanings of the table', () => {
    const table = tableRows(portalSection('Approval status codes (`approvalstatus`)').own);
    const coded = rules.filter((r) => r.id.startsWith('PORTAL.APPROVAL.STATUS_') && r.params?.code !== undefined);
    expect(coded.map((r) => [String(r.params?.code), r.params?.meaning])).toEqual(table.map(([c, m]) => [c, m]));
  });

  it('quotes every "(reserved, no effect)" trigger field in a rule', () => {
    const reserved = [...portalSection('Field-trigger catalogue').own.matchAll(/(\w+) \(reserved, no effect\)/g)].map(
      (m) => `${m[1]} (reserved, no effect)`,
    );
    expect(reserved).toHaveLength(3);
    for (const q of reserved) expect(rules.some((r) => r.quote === q)).toBe(true);
  });

  it('quotes every field computation of the trigger catalogue in a documented rule', () => {
    // every "Field (effect)" of the catalogue other than "(special)" is a stated computation or effect
    const effects = [...normaliseDocText(portalSection('Field-trigger catalogue').own).matchAll(/(\w+) \(([^()]*)\)/g)]
      .filter((m) => !['special', 'all H', 'est, H', 'lat, H', 'est', 'lat', 'H', 'R'].includes(m[2]!))
      .map((m) => m[0]);
    expect(effects).toHaveLength(25);
    const documented = rules.filter((r) => r.standing === 'documented' && r.section === 'Field-trigger catalogue');
    expect(effects.filter((e) => !documented.some((r) => r.quote.includes(e)))).toEqual([]);
  });
});
