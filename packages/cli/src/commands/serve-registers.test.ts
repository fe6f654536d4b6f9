import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinModules, createApp } from '@erpcert/refserver';
import { afterAll, describe, expect, it } from 'vitest';
import { erpcert } from '../testing/run-cli.js';
import { REGISTERS_EXAMPLE, registersFileModule } from './serve-registers.js';

const dir = mkdtempSync(join(tmpdir(), 'erpcert-registers-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('erpcert serve --registers', () => {
  it('shows the example in --help, and the example is a valid registers file', async () => {
    const help = await erpcert(['serve', '--help'], dir);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--registers FILE');
    for (const line of REGISTERS_EXAMPLE) expect(help.stdout).toContain(line);
    // where the team's OpenAPI document comes from
    expect(help.stdout).toContain('erpcert spec --registers FILE [--out FILE]');
    writeFileSync(join(dir, 'example.yaml'), `${REGISTERS_EXAMPLE.join('\n')}\n`);
    const module = registersFileModule('example.yaml', dir, builtinModules);
    expect(module.registers?.map((r) => r.name)).toEqual(['TicketVc']);
    // the app it makes serves the register and the added field
    const app = createApp({ seed: false, modules: [...builtinModules, module], log: () => {} });
    try {
      expect(app.store.schema('TicketVc')?.rowFields).toEqual(['Note']);
      expect(app.store.schema('CUVc')?.fields).toContain('LoyaltyLevel');
    } finally {
      app.close();
    }
  });

  it.each([
    ['a missing file', 'nope.yaml', undefined, /--registers: cannot read nope\.yaml \(ENOENT\)/],
    [
      'a register named like a portal register',
      'portal.yaml',
      'evidence: x\nregisters:\n  - name: ActVc\n    meaning: m\n    key: [SerNr]\n    fields: [SerNr]\n',
      /--registers: portal\.yaml:3: register ActVc is already defined/,
    ],
    [
      'a field the register has as a main field',
      'main.yaml',
      'evidence: x\nfields:\n  - register: CUVc\n    part: header\n    fields: [Name]\n',
      /--registers: main\.yaml:5: CUVc header: already main fields: Name/,
    ],
    // the shape, checked by @erpcert/contract/schemas/registers.schema.json: the line of the key or value at fault
    [
      'a misspelt key',
      'kee.yaml',
      'evidence: x\nregisters:\n  - name: TicketVc\n    meaning: tickets\n    kee: [SerNr]\n    fields: [SerNr]\n',
      /erpcert serve: --registers: kee\.yaml:5: unknown key "kee" in a register: the keys are name, meaning, key, fields, /,
    ],
    [
      'a value of the wrong type',
      'type.yaml',
      'evidence: x\nregisters:\n  - name: TicketVc\n    meaning: tickets\n    key: SerNr\n    fields: [SerNr]\n',
      /erpcert serve: --registers: type\.yaml:5: "key" must be a list \(got "SerNr"\)/,
    ],
    [
      'a missing key',
      'meaning.yaml',
      'evidence: x\nregisters:\n  - name: TicketVc\n    key: [SerNr]\n    fields: [SerNr]\n',
      /erpcert serve: --registers: meaning\.yaml:3: a register needs "meaning": what its records are, in a few words/,
    ],
    [
      'a value outside its list',
      'part.yaml',
      'evidence: x\nfields:\n  - register: CUVc\n    part: head\n    fields: [Mood]\n',
      /erpcert serve: --registers: part\.yaml:4: "part" must be one of header, rows \(got "head"\)/,
    ],
  ])('refuses %s with exit 2, naming the file (and the line), before listening', async (_name, file, text, message) => {
    if (text !== undefined) writeFileSync(join(dir, file), text);
    const res = await erpcert(['serve', '--port', '0', '--registers', file], dir);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
    expect(res.stdout).toBe('');
  });
});
