import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { docsDir } from '@erpcert/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { testApp } from '../../testing/test-client.js';
import { REGISTERS_PER_OPERATION } from '../operation-registers.js';
import { EFFECTS, SPECIAL_FIELDS, TRIGGER_CATALOGUE } from './trigger-catalogue.js';
import { EFFECT_IMPLEMENTATIONS } from './windowactions.js';

type Parts = { header: string[]; rows: string[]; special: string[] };

/** Field names of a catalogue list: parentheses dropped, "A0 to A4" and "A and B" expanded. */
function fieldNames(list: string): string[] {
  return list
    .replace(/\([^)]*\)/g, '')
    .replace(/`/g, '')
    .replace(/\.\s*$/, '')
    .split(',')
    .flatMap((part) => {
      const p = part.trim();
      const range = /^([A-Za-z]+)(\d+) to \1(\d+)$/.exec(p);
      if (range) {
        const out: string[] = [];
        for (let i = Number(range[2]); i <= Number(range[3]); i++) out.push(`${range[1]}${i}`);
        return out;
      }
      return p.split(' and ').map((x) => x.trim());
    })
    .filter((x) => x !== '');
}

/** portal-action-api.md §2 "Field-trigger catalogue", parsed: register -> header, row and special fields. */
function parseCatalogue(): Map<string, Parts> {
  const doc = readFileSync(join(docsDir, 'portal-action-api.md'), 'utf8');
  const start = doc.indexOf('### Field-trigger catalogue');
  const section = doc.slice(start, doc.indexOf('\n### ', start + 10));
  const out = new Map<string, Parts>();
  let current: Parts | undefined;
  const add = (p: Parts, part: 'header' | 'rows', list: string) => {
    for (const f of fieldNames(list)) (f.startsWith('__') ? p.special : p[part]).push(f);
  };
  for (const line of section.split('\n')) {
    const head = /^\*\*(\w+)\*\*\s*(?:\(([^)]*)\))?:?\s*(.*)$/.exec(line.trim());
    if (head) {
      current = { header: [], rows: [], special: [] };
      out.set(head[1]!, current);
      const note = head[2] ?? '';
      const rest = head[3] ?? '';
      if (/\bH\b/.test(note) && rest) add(current, 'header', rest);
      else if (rest) {
        // "H: a, b. R: c."
        const m = /H:\s*(.*?)\.\s*R:\s*(.*)$/.exec(rest);
        if (!m) throw new Error(`cannot read catalogue line: ${line}`);
        add(current, 'header', m[1]!);
        add(current, 'rows', m[2]!);
      }
      continue;
    }
    const item = /^- ([HR]): (.*)$/.exec(line.trim());
    if (item && current) add(current, item[1] === 'H' ? 'header' : 'rows', item[2]!);
  }
  return out;
}

const doc = parseCatalogue();
const app = testApp();
afterAll(() => app.close());

describe('the field-trigger catalogue module transcribes the doc', () => {
  it('has the same registers as the doc (and the windowactions row of "Registers per operation")', () => {
    expect(Object.keys(TRIGGER_CATALOGUE).sort()).toEqual([...doc.keys()].sort());
    expect(REGISTERS_PER_OPERATION.windowactions.registers.map((r) => r.name).sort()).toEqual([...doc.keys()].sort());
  });

  it.each([...doc.entries()])('%s: every header and row field of the doc, nothing else', (register, parts) => {
    const mine = TRIGGER_CATALOGUE[register]!;
    expect(Object.keys(mine.header).sort()).toEqual([...parts.header].sort());
    expect(Object.keys(mine.rows).sort()).toEqual([...parts.rows].sort());
    for (const s of parts.special) expect(SPECIAL_FIELDS).toContain(s);
  });

  it('the doc names __prepareActivity under ActVc only', () => {
    expect([...doc.entries()].filter(([, p]) => p.special.length > 0).map(([r, p]) => [r, p.special])).toEqual([
      ['ActVc', ['__prepareActivity']],
    ]);
  });

  it.each(Object.entries(TRIGGER_CATALOGUE))('%s: every trigger field is a field of the register', (register, t) => {
    const schema = app.store.schema(register)!;
    expect(schema).toBeDefined();
    expect(Object.keys(t.header).filter((f) => !schema.fields.includes(f))).toEqual([]);
    expect(Object.keys(t.rows).filter((f) => !schema.rowFields.includes(f))).toEqual([]);
  });

  it('every effect is described and implemented', () => {
    const used = new Set(
      Object.values(TRIGGER_CATALOGUE).flatMap((t) => [...Object.values(t.header), ...Object.values(t.rows)]),
    );
    expect([...used].filter((e) => !(e in EFFECTS))).toEqual([]);
    expect(Object.keys(EFFECT_IMPLEMENTATIONS).sort()).toEqual(Object.keys(EFFECTS).sort());
  });

  it('the doc quotes that state an effect map to an effect other than none', () => {
    // spot checks of the doc's parenthesised effects
    const cases: [string, 'header' | 'rows', string, string][] = [
      ['IVVc', 'header', 'CustCode', 'customer'],
      ['IVVc', 'header', 'MachineName', 'drawer'],
      ['IVVc', 'rows', 'Sum', 'rowSumBack'],
      ['ORVc', 'header', 'OrderType', 'reserved'],
      ['ORVc', 'rows', 'Recepy', 'recipe'],
      ['VIVc', 'header', 'PayDeal', 'payDeal'],
      ['CUVc', 'header', 'IBANCode', 'iban'],
      ['ActVc', 'header', 'ActState', 'reserved'],
      ['IPVc', 'header', 'Status', 'reserved'],
      ['INVc', 'header', 'NetWeight', 'netWeight'],
    ];
    for (const [register, part, field, effect] of cases) expect(TRIGGER_CATALOGUE[register]![part][field]).toBe(effect);
  });
});
