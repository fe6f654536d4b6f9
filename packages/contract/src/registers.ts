import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { specsDir } from './paths.js';
import { parseYamlCached } from './yaml-cache.js';

/** One row of the register table (record-rest-api.md §2 "Registers, keys and main fields"). */
export interface RegisterDef {
  /** Register code, as in `/api/1/<name>`. */
  readonly name: string;
  /** The "Meaning" column. */
  readonly meaning: string;
  /** Key fields in `@url` order; composite keys are joined by `/` (record-rest-api.md §4 rule 11). */
  readonly key: readonly string[];
  /** The "Key" column where it says more than field names. */
  readonly keyNote?: string;
  /** Header main fields. */
  readonly fields: readonly string[];
  /** Row main fields; empty when the register has no lines. */
  readonly rowFields: readonly string[];
  /** The table marks the register read-only. */
  readonly readOnly: boolean;
}

interface RawRegister {
  name: string;
  meaning: string;
  key: string[];
  keyNote?: string;
  fields: string[];
  rowFields?: string[];
  readOnly?: boolean;
}

/** Reads and checks `specs/registers.yaml`. Throws with the offending entry when a row is malformed. */
export function loadRegisters(file = join(specsDir, 'registers.yaml')): readonly RegisterDef[] {
  const doc = parseYamlCached(readFileSync(file, 'utf8')) as { registers?: RawRegister[] };
  if (!Array.isArray(doc.registers)) throw new Error(`${file}: no "registers" list`);
  return doc.registers.map((r) => {
    if (!r.name || !Array.isArray(r.key) || !Array.isArray(r.fields)) {
      throw new Error(`${file}: register entry needs name, key and fields: ${JSON.stringify(r)}`);
    }
    const missing = r.key.filter((k) => !r.fields.includes(k));
    if (missing.length > 0)
      throw new Error(`${file}: ${r.name} key fields not among its fields: ${missing.join(', ')}`);
    return Object.freeze({
      name: r.name,
      meaning: r.meaning,
      key: Object.freeze([...r.key]),
      ...(r.keyNote ? { keyNote: r.keyNote } : {}),
      fields: Object.freeze([...r.fields]),
      rowFields: Object.freeze([...(r.rowFields ?? [])]),
      readOnly: r.readOnly === true,
    });
  });
}

/** The 38 registers of the record REST API, in table order. */
export const registers: readonly RegisterDef[] = loadRegisters();

const byName = new Map(registers.map((r) => [r.name, r]));

/** The register definition by code, or undefined for a register the docs do not name. */
export function getRegister(name: string): RegisterDef | undefined {
  return byName.get(name);
}
