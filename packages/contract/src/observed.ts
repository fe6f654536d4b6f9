import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { specsDir } from './paths.js';
import { registers as catalogue, type RegisterDef } from './registers.js';
import { parseYamlCached } from './yaml-cache.js';

/** Fields of one register part that live servers have beyond the main fields (specs/observed-fields.yaml). */
export interface ObservedFields {
  readonly register: string;
  readonly part: 'header' | 'rows';
  readonly fields: readonly string[];
  /** Meanings of values where the evidence gives them (`CustType`: "0 customer, 1 vendor, 2 both"). */
  readonly notes: Readonly<Record<string, string>>;
}

/** A register live servers serve beyond the documented 38. */
export interface ObservedRegister {
  readonly name: string;
  readonly meaning: string;
  /** Key fields; empty for a settings block. */
  readonly key: readonly string[];
  readonly fields: readonly string[];
  readonly rowFields: readonly string[];
  /** A settings block: one record whose JSON answer is an object `{rows: [...]}` under the register key. */
  readonly block: boolean;
}

/** Everything of specs/observed-fields.yaml. */
export interface ObservedCatalogue {
  /** Where the facts come from (the issue that reported them). */
  readonly evidence: string;
  readonly fields: readonly ObservedFields[];
  readonly registers: readonly ObservedRegister[];
}

interface RawFile {
  evidence?: string;
  fields?: { register?: string; part?: string; fields?: string[]; notes?: Record<string, string> }[];
  registers?: {
    name?: string;
    meaning?: string;
    key?: string[];
    fields?: string[];
    rowFields?: string[];
    block?: boolean;
  }[];
}

/**
 * Reads and checks specs/observed-fields.yaml: every register of `fields` is documented, no observed field is
 * already a main field, no observed register shadows a documented one. Throws naming the offending entry.
 */
export function loadObserved(
  file = join(specsDir, 'observed-fields.yaml'),
  documented: readonly RegisterDef[] = catalogue,
): ObservedCatalogue {
  const doc = parseYamlCached(readFileSync(file, 'utf8')) as RawFile;
  if (!doc.evidence || !Array.isArray(doc.fields) || !Array.isArray(doc.registers))
    throw new Error(`${file}: needs "evidence", "fields" and "registers"`);
  const byName = new Map(documented.map((r) => [r.name, r]));
  const fields = doc.fields.map((e) => {
    const reg = byName.get(e.register ?? '');
    if (!reg) throw new Error(`${file}: fields of unknown register ${JSON.stringify(e.register)}`);
    if (e.part !== 'header' && e.part !== 'rows') throw new Error(`${file}: ${reg.name} part must be header or rows`);
    if (!Array.isArray(e.fields) || e.fields.length === 0) throw new Error(`${file}: ${reg.name} ${e.part}: no fields`);
    const main = e.part === 'header' ? reg.fields : reg.rowFields;
    const dup = e.fields.filter((f) => main.includes(f));
    if (dup.length > 0) throw new Error(`${file}: ${reg.name} ${e.part}: already main fields: ${dup.join(', ')}`);
    return Object.freeze({
      register: reg.name,
      part: e.part,
      fields: Object.freeze([...e.fields]),
      notes: Object.freeze({ ...(e.notes ?? {}) }),
    });
  });
  const registers = doc.registers.map((r) => {
    if (!r.name || !r.meaning) throw new Error(`${file}: register entry needs name and meaning`);
    if (byName.has(r.name)) throw new Error(`${file}: ${r.name} is a documented register`);
    const block = r.block === true;
    const key = r.key ?? [];
    const own = r.fields ?? [];
    if (!block && (key.length === 0 || key.some((k) => !own.includes(k))))
      throw new Error(`${file}: ${r.name} needs key fields among its fields`);
    if (block && (r.rowFields ?? []).length === 0) throw new Error(`${file}: block ${r.name} needs rowFields`);
    return Object.freeze({
      name: r.name,
      meaning: r.meaning,
      key: Object.freeze([...key]),
      fields: Object.freeze([...own]),
      rowFields: Object.freeze([...(r.rowFields ?? [])]),
      block,
    });
  });
  return Object.freeze({ evidence: doc.evidence, fields: Object.freeze(fields), registers: Object.freeze(registers) });
}

/** The observed fields and registers (specs/observed-fields.yaml). Never contract: nothing may require them. */
export const observed: ObservedCatalogue = loadObserved();

/** The observed fields of one register part (empty when there are none). */
export function observedFieldsOf(register: string, part: 'header' | 'rows'): readonly string[] {
  return observed.fields.filter((e) => e.register === register && e.part === part).flatMap((e) => e.fields);
}
