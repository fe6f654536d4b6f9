import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsDir } from './paths.js';
import { getRegister, registers } from './registers.js';

/** "Sum0 to Sum4" -> Sum0..Sum4; "d1 to d31" -> d1..d31. */
function expandRanges(list: string): string[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .flatMap((item) => {
      const m = /^(\w*?)(\d+) to \1(\d+)$/.exec(item);
      if (!m) return [item];
      const out: string[] = [];
      for (let i = Number(m[2]); i <= Number(m[3]); i++) out.push(`${m[1]}${i}`);
      return out;
    });
}

/** The register table of record-rest-api.md §2, read straight from the document. */
function docRegisterTable() {
  const doc = readFileSync(join(docsDir, 'record-rest-api.md'), 'utf8');
  const section = doc.split('### Registers, keys and main fields')[1]!.split('\n\n')[1]!;
  return section
    .split('\n')
    .slice(2)
    .map((line) => line.split('|').map((c) => c.trim()))
    .map(([, name, meaning, key, main]) => {
      const [header, rows] = main!.split('; rows: ');
      return {
        name: name!,
        meaning: meaning!,
        key: key!,
        fields: expandRanges(header!),
        rowFields: expandRanges(rows ?? ''),
      };
    });
}

describe('register catalogue (specs/registers.yaml) against the docs table', () => {
  const table = docRegisterTable();

  it('has the 38 registers of the table, in table order', () => {
    expect(table).toHaveLength(38);
    expect(registers.map((r) => r.name)).toEqual(table.map((r) => r.name));
  });

  it.each(table.map((row) => [row.name, row] as const))('%s matches its table row', (name, row) => {
    const reg = getRegister(name)!;
    expect(reg.meaning).toBe(row.meaning);
    expect(reg.fields).toEqual(row.fields);
    expect(reg.rowFields).toEqual(row.rowFields);
    expect(reg.readOnly).toBe(row.meaning.includes('read-only'));
    // every key field named in the Key column, in order ("start date" is Bud1Vc's StartDate)
    const keyWords = row.key.replace('start date', 'StartDate').replace(/\(.*?\)/g, '');
    for (const k of reg.key) expect(keyWords).toContain(k);
    if (!reg.keyNote) expect(keyWords.split('+').map((s) => s.trim())).toEqual([...reg.key]);
  });

  it('returns undefined for a register the docs do not name', () => {
    expect(getRegister('NoSuchVc')).toBeUndefined();
  });
});
