import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type ObservedCatalogue, ObservedFileError, parseRegistersFile } from '@erpcert/contract';
import { type AppModule, createObservedModule, registersOfModules } from '@erpcert/refserver';
import { UsageError } from '../options.js';

/** The short example `erpcert serve --help` and the README show. */
export const REGISTERS_EXAMPLE = [
  // editors with yaml-language-server complete and check the file against the published schema
  '# yaml-language-server: $schema=node_modules/@erpcert/contract/schemas/registers.schema.json',
  'evidence: our staging ERP, 2026-03 (what it answered)',
  'registers:',
  '  - name: TicketVc',
  '    meaning: support tickets',
  '    key: [SerNr]',
  '    fields: [SerNr, CustCode, Subject, Status]',
  '    rowFields: [Note]',
  '    filters: [CustCode, Status]',
  '    errors: [{ field: Subject, empty: true, code: 1058 }]',
  'fields:',
  '  - { register: CUVc, part: header, fields: [LoyaltyLevel] }',
];

/**
 * Reads and checks a team's registers file (`--registers FILE` of `erpcert serve` and `erpcert spec`), in the
 * format of specs/observed-fields.yaml (@erpcert/contract/schemas/registers.schema.json), against the registers the
 * server of `modules` already has. A bad file is a UsageError (exit 2) naming the file as given and the line.
 */
export function readRegistersFile(file: string, cwd: string, modules: readonly AppModule[]): ObservedCatalogue {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`--registers: cannot read ${file}${code ? ` (${code})` : ''}`);
  }
  const have = registersOfModules(modules);
  try {
    return parseRegistersFile(text, file, { taken: new Set(have.keys()), known: have });
  } catch (err) {
    if (err instanceof ObservedFileError) throw new UsageError(`--registers: ${err.message}`);
    throw err;
  }
}

/**
 * `erpcert serve --registers FILE`: a team's own registers and fields, checked before the server starts, as the
 * module that serves them.
 */
export function registersFileModule(file: string, cwd: string, modules: readonly AppModule[]): AppModule {
  return createObservedModule(readRegistersFile(file, cwd, modules), 'registers-file');
}
