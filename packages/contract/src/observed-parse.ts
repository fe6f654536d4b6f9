import { LineCounter, parseDocument } from 'yaml';
import type {
  KnownRegister,
  ObservedCatalogue,
  ObservedFieldError,
  ObservedFields,
  ObservedRecord,
  ObservedRegister,
} from './observed-types.js';
import { ObservedFileError } from './observed-types.js';
import { readContractSchema, type YamlPath, yamlLineOf, yamlSchemaCheck } from './yaml-schema.js';

/** What the checks of one file need to know about the server it will extend. */
export interface ObservedParseOptions {
  /** Registers that exist already (the documented 38, the portal's, the observed ones): a file's registers may not reuse a name. */
  readonly taken: ReadonlySet<string>;
  /** Registers `fields` entries may extend; the documented 38 among them. Unset: any name (checked when served). */
  readonly known?: ReadonlyMap<string, KnownRegister>;
  /** The documented 38 with their main fields: an observed field may not be a main field. */
  readonly documented: ReadonlyMap<string, KnownRegister>;
}

/** The shape of the file, as schemas/registers.schema.json holds it (checked before anything here reads it). */
type Value = string | number | boolean | null;
type Values = Record<string, Value>;
type RawRegister = Partial<Omit<ObservedRegister, 'labels' | 'errors' | 'records'>> &
  Pick<ObservedRegister, 'name' | 'meaning'> & {
    readonly labels?: Record<string, Values>;
    readonly errors?: { field: string; equals?: Value; code: string | number; description?: string }[];
    readonly records?: (Values & { rows?: Values[] })[];
  };
type RawFields = Omit<ObservedFields, 'notes' | 'evidence' | 'documented'> & { notes?: Values; evidence?: string };
type RawFile = { evidence: string; fields?: RawFields[] | null; registers?: RawRegister[] | null };

const checkShape = yamlSchemaCheck(readContractSchema('registers.schema.json'));

/** A problem the schema cannot see, at a place of the file (a path of keys and indexes). */
class Problem extends Error {
  constructor(
    readonly path: YamlPath,
    message: string,
  ) {
    super(message);
  }
}

const text = (v: Value | undefined): string => (v === null || v === undefined ? '' : String(v));

/** The schema holds each list to distinct names; a register's names are distinct ignoring case too. */
function onceEach(list: readonly string[], path: YamlPath, what: string): readonly string[] {
  const seen = new Set<string>();
  for (const [i, x] of list.entries()) {
    if (seen.has(x.toLowerCase())) throw new Problem([...path, i], `${what}: ${x} is listed twice (in another case)`);
    seen.add(x.toLowerCase());
  }
  return list;
}

/** Each of `list` must be one of `allowed`. */
function among(list: readonly string[], allowed: ReadonlySet<string>, path: YamlPath, what: (f: string) => string) {
  for (const [i, f] of list.entries()) if (!allowed.has(f)) throw new Problem([...path, i], what(f));
}

function values(v: Values, path: YamlPath, what: string, allowed: ReadonlySet<string>) {
  among(Object.keys(v), allowed, path, (k) => `${what}: ${k} is not a field of the register`);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, text(x)]));
}

function parseErrors(r: RawRegister, path: YamlPath, all: ReadonlySet<string>): ObservedFieldError[] {
  return (r.errors ?? []).map((e, i) => {
    if (!all.has(e.field))
      throw new Problem([...path, i, 'field'], `error field ${e.field} is not a field of the register`);
    const hasEquals = e.equals !== undefined;
    const value = text(e.equals);
    const description = e.description ?? (hasEquals ? `${e.field} ${value} is not accepted` : `${e.field} is required`);
    return { field: e.field, when: hasEquals ? 'equals' : 'empty', value, code: String(e.code), description };
  });
}

function parseRecords(
  r: RawRegister,
  path: YamlPath,
  reg: { fields: readonly string[]; rowFields: readonly string[]; key: readonly string[] },
): ObservedRecord[] {
  const header = new Set(reg.fields);
  const rowSet = new Set(reg.rowFields);
  const keys = new Set<string>();
  return (r.records ?? []).map((rec, i) => {
    const at = [...path, i];
    const { rows, ...fields } = rec;
    const out = values(fields, at, 'record', header);
    for (const k of reg.key) {
      if ((out[k] ?? '') === '') throw new Problem(at, `the record has no key field ${k}`);
      if (k === 'SerNr' && !/^[1-9]\d{0,14}$/.test(out[k]!))
        throw new Problem([...at, k], `SerNr must be a whole number from 1, got ${out[k]}`);
    }
    const key = JSON.stringify(reg.key.map((k) => out[k]));
    if (reg.key.length > 0 && keys.has(key))
      throw new Problem(at, `a record with the key ${reg.key.map((k) => out[k]).join('/')} is given twice`);
    keys.add(key);
    const rowList = (rows ?? []).map((row, j) => values(row, [...at, 'rows', j], 'row', rowSet));
    return { fields: out, rows: rowList };
  });
}

function parseRegister(
  r: RawRegister,
  at: YamlPath,
  opts: ObservedParseOptions,
  fileEvidence: string,
): ObservedRegister {
  const { name } = r;
  if (opts.documented.has(name)) throw new Problem([...at, 'name'], `${name} is a documented register`);
  if (opts.taken.has(name)) throw new Problem([...at, 'name'], `register ${name} is already defined`);
  const block = r.block ?? false;
  const fields = onceEach(r.fields ?? [], [...at, 'fields'], 'fields');
  const rowFields = onceEach(r.rowFields ?? [], [...at, 'rowFields'], 'rowFields');
  const key = onceEach(r.key ?? [], [...at, 'key'], 'key');
  const headerSet = new Set(fields);
  among(key, headerSet, [...at, 'key'], (k) => `${name}: key field ${k} is not among its fields`);
  const base = r.base ?? !block;
  const filters = onceEach(r.filters ?? fields, [...at, 'filters'], 'filters');
  among(filters, headerSet, [...at, 'filters'], (f) => `filter ${f} is not a header field of ${name}`);
  const all = new Set([...fields, ...rowFields]);
  const labels: Record<string, Record<string, string>> = {};
  for (const [f, map] of Object.entries(r.labels ?? {})) {
    if (!all.has(f)) throw new Problem([...at, 'labels', f], `labels: ${f} is not a field of ${name}`);
    labels[f] = values(map, [...at, 'labels', f], `labels of ${f}`, new Set(Object.keys(map)));
  }
  const rawControlChars = onceEach(r.rawControlChars ?? [], [...at, 'rawControlChars'], 'rawControlChars');
  among(rawControlChars, all, [...at, 'rawControlChars'], (f) => `${f} is not a field of ${name}`);
  return {
    name,
    meaning: r.meaning,
    key,
    fields,
    rowFields,
    block,
    base,
    readOnly: r.readOnly ?? block,
    filters,
    feeds: r.feeds ?? (base ? ['updates_after', 'deletes_after'] : []),
    labels,
    errors: parseErrors(r, [...at, 'errors'], all),
    onDuplicate: r.onDuplicate ?? 'refuse',
    printout: r.printout ?? true,
    rawControlChars,
    records: parseRecords(r, [...at, 'records'], { fields, rowFields, key }),
    evidence: r.evidence ?? fileEvidence,
  };
}

function parseFieldsEntry(
  e: RawFields,
  at: YamlPath,
  opts: ObservedParseOptions,
  own: ReadonlySet<string>,
  fileEvidence: string,
): ObservedFields {
  const { register, part } = e;
  if (own.has(register))
    throw new Problem([...at, 'register'], `${register} is a register of this file: list its fields there`);
  const main = opts.documented.get(register) ?? opts.known?.get(register);
  if (!main && opts.known) throw new Problem([...at, 'register'], `fields of unknown register ${register}`);
  const fields = onceEach(e.fields, [...at, 'fields'], `${register} ${part} fields`);
  const mainFields = main ? (part === 'header' ? main.fields : main.rowFields) : [];
  const dup = fields.filter((f) => mainFields.includes(f));
  if (dup.length > 0)
    throw new Problem([...at, 'fields'], `${register} ${part}: already main fields: ${dup.join(', ')}`);
  const have = opts.known?.get(register);
  const all = have ? [...have.fields, ...have.rowFields] : [];
  for (const [i, f] of fields.entries()) {
    const clash = all.find((x) => x !== f && x.toLowerCase() === f.toLowerCase());
    if (clash) throw new Problem([...at, 'fields', i], `${register} has ${clash}: ${f} differs from it only in case`);
  }
  return {
    register,
    part,
    fields,
    notes: values(e.notes ?? {}, [...at, 'notes'], 'notes', new Set(fields)),
    evidence: e.evidence ?? fileEvidence,
    documented: opts.documented.has(register),
  };
}

function check(doc: RawFile, opts: ObservedParseOptions): ObservedCatalogue {
  const taken = new Set(opts.taken);
  const registers = (doc.registers ?? []).map((r, i) => {
    const reg = parseRegister(r, ['registers', i], { ...opts, taken }, doc.evidence);
    taken.add(reg.name);
    return reg;
  });
  const own = new Set(registers.map((r) => r.name));
  const fields = (doc.fields ?? []).map((e, i) => parseFieldsEntry(e, ['fields', i], opts, own, doc.evidence));
  return { evidence: doc.evidence, fields, registers };
}

/**
 * Checks the text of an observed-registers file (`specs/observed-fields.yaml`, or a team's `--registers FILE`)
 * and returns it typed, defaults filled in. Its shape is checked by schemas/registers.schema.json, the rest (names
 * taken, fields of the register, keys of the records) here. Throws an ObservedFileError naming the file and the line.
 */
export function parseObservedText(
  text: string,
  file: string,
  opts: ObservedParseOptions,
  value?: unknown,
): ObservedCatalogue {
  let doc = value;
  if (doc === undefined) {
    const counter = new LineCounter();
    const parsed = parseDocument(text, { lineCounter: counter, uniqueKeys: true });
    if (parsed.errors.length > 0) {
      const e = parsed.errors[0]!;
      throw new ObservedFileError(file, counter.linePos(e.pos[0]).line, `not valid YAML: ${e.message.split('\n')[0]}`);
    }
    doc = parsed.toJS();
  }
  const problem = checkShape(text, doc);
  if (problem) throw new ObservedFileError(file, problem.line, problem.message);
  try {
    return check(doc as RawFile, opts);
  } catch (err) {
    if (err instanceof Problem) throw new ObservedFileError(file, yamlLineOf(text, err.path), err.message);
    throw err;
  }
}
