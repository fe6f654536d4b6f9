import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type KnownRegister,
  loadObserved,
  ObservedFileError,
  observed,
  observedFieldsOf,
  parseRegistersFile,
} from './observed.js';
import { registers } from './registers.js';

function fileWith(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'erpcert-observed-'));
  const file = join(dir, 'observed-fields.yaml');
  writeFileSync(file, text);
  return file;
}

describe('specs/observed-fields.yaml', () => {
  it('cites issues 10 and 21 as its evidence', () => {
    expect(observed.evidence).toMatch(/issue 10/);
    expect(observed.evidence).toMatch(/issue 21/);
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

  it('holds the registers of issues 10 and 21, each with its standing as a base register or block', () => {
    expect(observed.registers.map((r) => [r.name, r.block, r.base])).toEqual([
      ['PRVc', false, true],
      ['DepVc', false, true],
      ['VATCodeBlock', true, false],
      ['MainStockBlock', true, false],
      ['SVOVc', false, false],
      ['WSVc', false, false],
      ['SVOSerVc', false, true],
      ['ActTypeVc', false, true],
      ['ActTypeGrVc', false, true],
      ['RLinkVc', false, true],
    ]);
    const wsvc = observed.registers.find((r) => r.name === 'WSVc')!;
    expect(wsvc.filters).toEqual(['SerNr', 'CustCode', 'SVONr', 'EMCode']);
    expect(wsvc.feeds).toEqual([]);
    expect(wsvc.errors.map((e) => [e.field, e.when, e.value, e.code])).toEqual([
      ['WONr', 'empty', '', '1058'],
      ['WONr', 'equals', '0', '1971'],
    ]);
    expect(observed.registers.find((r) => r.name === 'SVOVc')).toMatchObject({
      onDuplicate: 'already-registered',
      printout: false,
      labels: { ItemType: { '1': 'invoiceable', '2': 'warranty', '3': 'contract', '4': 'goodwill' } },
    });
    expect(observed.registers.find((r) => r.name === 'RLinkVc')).toMatchObject({ readOnly: true });
    expect(observedFieldsOf('ActVc', 'header')).toEqual(['CalTimeFlag', 'AccessGroup']);
    expect(observedFieldsOf('UserVc', 'header')).toEqual(['LoginEmailAddr']);
    for (const r of observed.registers) expect(r.evidence, r.name).toMatch(/issue (10|21)/);
  });

  it.each([
    [
      'a main field',
      'evidence: x\nfields:\n  - {register: IVVc, part: header, fields: [SerNr]}\nregisters: []\n',
      /already main/,
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

describe("a team's registers file (erpcert serve --registers), the same format", () => {
  const documented = new Map(registers.map((r) => [r.name, r]));
  const known = new Map<string, KnownRegister>([
    ...documented,
    ['ActVc', { fields: ['SerNr', 'Comment'], rowFields: [] }],
  ]);
  const parse = (text: string) =>
    parseRegistersFile(text, 'team.yaml', { taken: new Set([...known.keys(), 'PRVc']), known });

  it('reads a register with its defaults and fields of existing registers', () => {
    const cat = parse(
      'evidence: staging\nregisters:\n  - name: TicketVc\n    meaning: tickets\n    key: [SerNr]\n' +
        '    fields: [SerNr, Subject]\nfields:\n  - {register: ActVc, part: header, fields: [Room]}\n',
    );
    expect(cat.registers[0]).toMatchObject({
      name: 'TicketVc',
      base: true,
      filters: ['SerNr', 'Subject'],
      feeds: ['updates_after', 'deletes_after'],
      onDuplicate: 'refuse',
      evidence: 'staging',
    });
    expect(cat.fields[0]).toMatchObject({ register: 'ActVc', fields: ['Room'], documented: false });
  });

  it.each([
    [
      'an unknown register in fields',
      'evidence: x\nfields:\n  - {register: NopeVc, part: header, fields: [A]}\n',
      3,
      /unknown register NopeVc/,
    ],
    [
      'a name the server has',
      'evidence: x\nregisters:\n  - name: PRVc\n    meaning: m\n    key: [Code]\n    fields: [Code]\n',
      3,
      /PRVc is already defined/,
    ],
    [
      'a key outside the fields',
      'evidence: x\nregisters:\n  - name: TVc\n    meaning: m\n    key: [SerNr]\n    fields: [Code]\n',
      5,
      /key field SerNr/,
    ],
    [
      'an unknown key',
      'evidence: x\nregisters:\n  - name: TVc\n    meaning: m\n    key: [Code]\n    fields: [Code]\n    colour: red\n',
      7,
      /unknown key "colour" in a register: the keys are name, meaning, key, fields/,
    ],
    [
      'a filter on no field',
      'evidence: x\nregisters:\n  - name: TVc\n    meaning: m\n    key: [Code]\n    fields: [Code]\n    filters: [Code, Name]\n',
      7,
      /filter Name/,
    ],
    [
      'a feed of a non-base register',
      'evidence: x\nregisters:\n  - name: TVc\n    meaning: m\n    base: false\n    key: [Code]\n    fields: [Code]\n    feeds: [updates_after]\n',
      8,
      /not a base register/,
    ],
    [
      'an error with neither empty nor equals',
      'evidence: x\nregisters:\n  - name: TVc\n    meaning: m\n    key: [Code]\n    fields: [Code]\n    errors:\n      - {field: Code, code: 1058}\n',
      8,
      /either empty/,
    ],
    ['broken YAML', 'evidence: x\nregisters: [\n', 3, /not valid YAML/],
    [
      'a base field as a field',
      'evidence: x\nregisters:\n  - name: TVc\n    meaning: m\n    key: [Code]\n    fields: [Code, UUID]\n',
      6,
      /UUID, ServerSequence, SyncFlags, rows and BlockCode are names the server gives every record: leave them out \(got "UUID"\)/,
    ],
    [
      'two records with one key',
      'evidence: x\nregisters:\n  - name: TVc\n    meaning: m\n    key: [Code]\n    fields: [Code]\n    records:\n      - { Code: A }\n      - { Code: A }\n',
      9,
      /key A is given twice/,
    ],
    [
      'a SerNr that is no number',
      'evidence: x\nregisters:\n  - name: TVc\n    meaning: m\n    key: [SerNr]\n    fields: [SerNr]\n    records:\n      - { SerNr: abc }\n',
      8,
      /SerNr must be a whole number/,
    ],
    [
      'a field differing only in case',
      'evidence: x\nfields:\n  - register: ActVc\n    part: header\n    fields: [comment]\n',
      5,
      /ActVc has Comment/,
    ],
  ])('refuses %s, naming the line', (_, text, line, message) => {
    const err = (() => {
      try {
        parse(text);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(ObservedFileError);
    expect((err as ObservedFileError).line).toBe(line);
    expect((err as Error).message).toMatch(new RegExp(`^team\\.yaml:${line}: `));
    expect((err as Error).message).toMatch(message);
  });
});
