import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadObserved, observed, observedFieldsOf } from './observed.js';

function fileWith(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'erpcert-observed-'));
  const file = join(dir, 'observed-fields.yaml');
  writeFileSync(file, text);
  return file;
}

describe('specs/observed-fields.yaml', () => {
  it('cites issue 10 as its evidence', () => {
    expect(observed.evidence).toMatch(/issue 10/);
  });

  it('holds the fields the issue lists', () => {
    expect(observedFieldsOf('IVVc', 'header')).toEqual(
      expect.arrayContaining(['InvComment', 'RefStr', 'CredInv', 'CredMark', 'BKEInvSentDate', 'ExportFlag']),
    );
    expect(observedFieldsOf('IPVc', 'rows')).toEqual(['stp', 'CustName', 'RecCurncy', 'Objects', 'Comment']);
    expect(observedFieldsOf('CUVc', 'header')).toContain('CustType');
    expect(observedFieldsOf('INVc', 'header')).toEqual(['SalesAcc']);
    expect(observedFieldsOf('VIVc', 'header')).toEqual(['Comment']);
  });

  it('holds PRVc, DepVc and the VATCodeBlock settings block', () => {
    expect(observed.registers.map((r) => [r.name, r.block])).toEqual([
      ['PRVc', false],
      ['DepVc', false],
      ['VATCodeBlock', true],
    ]);
  });

  it.each([
    [
      'a main field',
      'evidence: x\nfields:\n  - {register: IVVc, part: header, fields: [SerNr]}\nregisters: []\n',
      /already main/,
    ],
    [
      'an unknown register',
      'evidence: x\nfields:\n  - {register: NOPE, part: header, fields: [A]}\nregisters: []\n',
      /unknown register/,
    ],
    [
      'a documented register',
      'evidence: x\nfields: []\nregisters:\n  - {name: IVVc, meaning: m, key: [SerNr], fields: [SerNr]}\n',
      /documented/,
    ],
    [
      'a register without key',
      'evidence: x\nfields: []\nregisters:\n  - {name: XVc, meaning: m, fields: [A]}\n',
      /key/,
    ],
    ['no evidence', 'fields: []\nregisters: []\n', /evidence/],
  ])('refuses %s', (_, text, message) => {
    expect(() => loadObserved(fileWith(text))).toThrow(message);
  });
});
