import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { docsDir } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import { allowedRegisters, checkOperationRegister, REGISTERS_PER_OPERATION } from './operation-registers.js';

/** The rows of portal-action-api.md §2 "Registers per operation", parsed from the doc itself. */
function docTable(): Map<string, string[]> {
  const doc = readFileSync(join(docsDir, 'portal-action-api.md'), 'utf8');
  const start = doc.indexOf('### Registers per operation');
  const section = doc.slice(start, doc.indexOf('\n### ', start + 1));
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || cells[1] === 'Operation' || /^-+$/.test(cells[1]!)) continue;
    // "IVVc only" names one register; "EmplVc (est)" keeps its country
    const regs = cells[2]!
      .replace(/ only$/, '')
      .split(',')
      .map((r) => r.trim());
    rows.set(cells[1]!, regs);
  }
  return rows;
}

describe('REGISTERS_PER_OPERATION', () => {
  it('transcribes every row of the doc table exactly', () => {
    const doc = docTable();
    expect(doc.size).toBe(16);
    const ours = new Map(
      Object.values(REGISTERS_PER_OPERATION).map((row) => [
        row.docLabel,
        row.registers.map((r) => ('country' in r && r.country ? `${r.name} (${r.country})` : r.name)),
      ]),
    );
    expect(ours).toEqual(doc);
  });

  it('leaves out the other country registers with portalcc, and refuses them without it', () => {
    expect(allowedRegisters('windowactions', 'lat').map((r) => r.name)).not.toContain('EmplVc');
    expect(allowedRegisters('windowactions', 'lat').map((r) => r.name)).toContain('EPEmpVc');
    expect(() => checkOperationRegister('windowactions', 'EmplVc', undefined)).toThrow(
      'register "EmplVc" is served for windowactions only with portalcc=est',
    );
    expect(() => checkOperationRegister('windowactions', 'EmplVc', 'est')).not.toThrow();
    expect(() => checkOperationRegister('copyrecord', 'ORVc', undefined, 'regname')).toThrow(
      'regname "ORVc" is not allowed for copyrecord; allowed: IVVc',
    );
  });
});
