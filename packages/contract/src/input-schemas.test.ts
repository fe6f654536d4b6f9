import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type KnownRegister, ObservedFileError, parseRegistersFile } from './observed.js';
import { contractPackageDir, repoRoot } from './paths.js';
import { registers } from './registers.js';
import { readContractSchema, yamlSchemaCheck } from './yaml-schema.js';

const schemaFile = (name: string) => join(contractPackageDir, 'schemas', name);

/** A schema alone, in a plain ajv as an editor or another team's tool would use it (no erpcert code). */
function plainValidator(name: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  return ajv.compile(JSON.parse(readFileSync(schemaFile(name), 'utf8')));
}

/** The ```yaml blocks of a Markdown file that hold a registers file. */
function yamlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((b) => /\nregisters:\n/.test(b));
}

describe.each([
  ['observed-fields.yaml', 'registers.schema.json'],
  ['rules.yaml', 'rules.schema.json'],
])('specs/%s', (spec, schema) => {
  it(`is held by ${schema}, which its first line points editors at`, () => {
    const text = readFileSync(join(repoRoot, 'specs', spec), 'utf8');
    const validate = plainValidator(schema);
    expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
    const first = text.split('\n')[0]!;
    expect(first).toMatch(/^# yaml-language-server: \$schema=\S+$/);
    expect(join(repoRoot, 'specs', first.replace(/^.*\$schema=/, ''))).toBe(schemaFile(schema));
  });
});

describe('schemas/registers.schema.json', () => {
  const validate = plainValidator('registers.schema.json');

  it.each([
    ['README.md', 1],
    ['packages/refserver/README.md', 1],
  ])('holds the registers-file examples of %s, each pointing at the published schema', (doc, count) => {
    const blocks = yamlBlocks(readFileSync(join(repoRoot, doc), 'utf8'));
    expect(blocks).toHaveLength(count);
    for (const block of blocks) {
      expect(block.split('\n')[0]).toBe(
        '# yaml-language-server: $schema=node_modules/@erpcert/contract/schemas/registers.schema.json',
      );
      expect(validate(parse(block)), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it('refuses a misspelt key in a plain validator too (the editor sees what erpcert sees)', () => {
    expect(validate(parse('evidence: x\nregisters:\n  - {name: TVc, meaning: m, kee: [Code], fields: [Code]}\n'))).toBe(
      false,
    );
  });

  it('is exported by the package as @erpcert/contract/schemas/registers.schema.json', () => {
    const manifest = JSON.parse(readFileSync(join(contractPackageDir, 'package.json'), 'utf8'));
    for (const exportsOf of [manifest.exports, manifest.publishConfig.exports])
      expect(exportsOf['./schemas/*']).toBe('./schemas/*');
    expect(manifest.files).toContain('schemas');
    expect(import.meta.resolve('@erpcert/contract/schemas/registers.schema.json')).toBe(
      pathToFileURL(schemaFile('registers.schema.json')).href,
    );
  });
});

describe('a bad registers file names its line and says what to do', () => {
  const known = new Map<string, KnownRegister>(registers.map((r) => [r.name, r]));
  const run = (text: string) => {
    try {
      parseRegistersFile(text, 'team.yaml', { taken: new Set(known.keys()), known });
    } catch (e) {
      if (e instanceof ObservedFileError) return e;
      throw e;
    }
    return undefined;
  };
  const reg = (...lines: string[]) =>
    `evidence: x\nregisters:\n  - name: TVc\n    meaning: m\n${lines.map((l) => `    ${l}\n`).join('')}`;

  it.each<[string, string, number, string]>([
    // unknown keys: the line of the key itself
    [
      'a misspelt register key',
      'registers:\n  - name: TicketVc\n    kee: [SerNr]\n',
      3,
      'unknown key "kee" in a register: the keys are name, meaning, key, fields, rowFields, block, base, readOnly, filters, feeds, labels, errors, onDuplicate, printout, rawControlChars, records, evidence (check the spelling)',
    ],
    [
      'a misspelt top-level key',
      'evidence: x\nregister: []\n',
      2,
      'unknown key "register" in the file: the keys are evidence, fields, registers',
    ],
    [
      'a misspelt key of a fields entry',
      'evidence: x\nfields:\n  - register: CUVc\n    part: header\n    feilds: [Mood]\n',
      5,
      'unknown key "feilds" in a fields entry',
    ],
    [
      'a misspelt key of an error',
      reg('key: [Code]', 'fields: [Code]', 'errors:', '  - {field: Code, empty: true, cod: 1058}'),
      8,
      'unknown key "cod" in an error',
    ],
    // wrong types: the line of the value
    ['registers as a map', 'evidence: x\nregisters:\n  TVc: {}\n', 3, '"registers" must be a list (got a map)'],
    ['fields given as text', reg('key: [Code]', 'fields: Code'), 6, '"fields" must be a list (got "Code")'],
    [
      'a register as text',
      'evidence: x\nregisters:\n  - TVc\n',
      3,
      'a register must be a map (key: value) with the keys name, meaning',
    ],
    ['block as text', reg('block: yes', 'rowFields: [A]'), 5, '"block" must be true or false (got "yes")'],
    [
      'a record value as a list',
      reg('key: [Code]', 'fields: [Code]', 'records:', '  - {Code: [A]}'),
      8,
      'a value must be a text or a number (got a list)',
    ],
    [
      'an error code as a word',
      reg('key: [Code]', 'fields: [Code]', 'errors: [{field: Code, empty: true, code: ten}]'),
      7,
      'the error code is a number (1058) (got "ten")',
    ],
    [
      'a field name with a space',
      reg('key: [Code]', 'fields: [Code, Cust Code]'),
      6,
      'a field name is one word of letters and digits, starting with a letter (CustCode) (got "Cust Code")',
    ],
    [
      'an empty file',
      '',
      1,
      'the file must be a map (key: value) with the keys evidence, fields, registers (got nothing)',
    ],
    [
      'a name left empty',
      'evidence: x\nregisters:\n  - name:\n    meaning: m\n',
      3,
      '"name" must be a text (got nothing)',
    ],
    // missing required keys: the line of the map that lacks them
    ['no evidence', 'registers: []\n', 1, 'the file needs "evidence": where the facts come from'],
    [
      'a register without meaning',
      'evidence: x\nregisters:\n  - name: TVc\n    key: [Code]\n    fields: [Code]\n',
      3,
      'a register needs "meaning": what its records are',
    ],
    ['a register without key', reg('fields: [A]'), 3, 'a register needs "key": the key fields, like [SerNr]'],
    ['a block without rowFields', reg('block: true'), 3, 'a block (block: true) needs "rowFields"'],
    [
      'a fields entry without part',
      'evidence: x\nfields:\n  - {register: CUVc, fields: [Mood]}\n',
      3,
      'a fields entry needs "part": header or rows',
    ],
    // values outside an enumeration
    [
      'a part that is neither header nor rows',
      'evidence: x\nfields:\n  - {register: CUVc, part: head, fields: [Mood]}\n',
      3,
      '"part" must be one of header, rows (got "head")',
    ],
    [
      'an unknown feed',
      reg('key: [Code]', 'fields: [Code]', 'feeds: [updates_after, changes]'),
      7,
      'item 2 of "feeds" must be one of updates_after, deletes_after (got "changes")',
    ],
    [
      'an unknown onDuplicate',
      reg('key: [Code]', 'fields: [Code]', 'onDuplicate: ignore'),
      7,
      '"onDuplicate" must be one of refuse, already-registered (got "ignore")',
    ],
    // the rules of a block and of an error
    [
      'a block with a key',
      reg('block: true', 'key: [Code]', 'rowFields: [A]'),
      6,
      'a block has no key, it is one record: leave key out',
    ],
    [
      'a block with header fields',
      reg('block: true', 'fields: [A]', 'rowFields: [A]'),
      6,
      'a block holds rows only: list its fields as rowFields',
    ],
    [
      'a block as a base register',
      reg('block: true', 'base: true', 'rowFields: [A]'),
      6,
      'a block cannot be a base register',
    ],
    [
      'a block given twice',
      reg('block: true', 'rowFields: [A]', 'records:', '  - {rows: []}', '  - {rows: []}'),
      9,
      'a block is one record: give it once, with its rows',
    ],
    ['an empty key', reg('key: []', 'fields: [A]'), 5, 'a register needs at least one key field'],
    [
      'an error with empty and equals',
      reg('key: [Code]', 'fields: [Code]', 'errors: [{field: Code, empty: true, equals: 0, code: 1}]'),
      7,
      'an error needs either empty: true or equals: <value>, not both',
    ],
    [
      'a field listed twice',
      reg('key: [Code]', 'fields: [Code, Name, Code]'),
      6,
      '"fields" lists "Code" twice: give it once',
    ],
    // checks the schema cannot make, in code
    [
      'a field listed twice in another case',
      reg('key: [Code]', 'fields: [Code, code]'),
      6,
      'fields: code is listed twice (in another case)',
    ],
    [
      'an error on no field of the register',
      reg('key: [Code]', 'fields: [Code]', 'errors:', '  - {field: Name, empty: true, code: 1}'),
      8,
      'error field Name is not a field of the register',
    ],
    [
      'a label of no field',
      reg('key: [Code]', 'fields: [Code]', 'labels:', '  Kind: {1: one}'),
      8,
      'labels: Kind is not a field of TVc',
    ],
    [
      'a record field the register lacks',
      reg('key: [Code]', 'fields: [Code]', 'records:', '  - {Code: A, Name: B}'),
      8,
      'record: Name is not a field of the register',
    ],
  ])('%s', (_what, text, line, message) => {
    const err = run(text);
    expect(err?.message).toContain(`team.yaml:${line}: ${message}`);
    expect(err?.line).toBe(line);
  });
});

describe('yamlSchemaCheck', () => {
  it('remembers a text that held, by the hash of schema and text, and never one that did not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-schema-held-'));
    try {
      const check = yamlSchemaCheck(readContractSchema('registers.schema.json'), { dir, minLength: 0 });
      const good = 'evidence: x\nregisters: []\n';
      expect(check(good, parse(good))).toBeUndefined();
      expect(readdirSync(dir)).toHaveLength(1);
      const bad = 'evidence: x\nregisters: {}\n';
      expect(check(bad, parse(bad))).toMatchObject({ line: 2, message: '"registers" must be a list (got a map)' });
      expect(readdirSync(dir)).toHaveLength(1);
      // a remembered text is not checked again: the value is taken as the one its text parses to
      expect(check(good, parse(bad))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
