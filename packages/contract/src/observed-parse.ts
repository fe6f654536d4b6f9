import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type {
  KnownRegister,
  ObservedCatalogue,
  ObservedFeed,
  ObservedFieldError,
  ObservedFields,
  ObservedRecord,
  ObservedRegister,
} from './observed-types.js';
import { ObservedFileError } from './observed-types.js';

/** What the checks of one file need to know about the server it will extend. */
export interface ObservedParseOptions {
  /** Registers that exist already (the documented 38, the portal's, the observed ones): a file's registers may not reuse a name. */
  readonly taken: ReadonlySet<string>;
  /** Registers `fields` entries may extend; the documented 38 among them. Unset: any name (checked when served). */
  readonly known?: ReadonlyMap<string, KnownRegister>;
  /** The documented 38 with their main fields: an observed field may not be a main field. */
  readonly documented: ReadonlyMap<string, KnownRegister>;
}

type Path = readonly (string | number)[];

/** A problem found at a place of the file (a path of keys and indexes). */
class Problem extends Error {
  constructor(
    readonly path: Path,
    message: string,
  ) {
    super(message);
  }
}

const WORD = /^[A-Za-z][A-Za-z0-9]*$/;
/** Names every record has already (record-rest-api.md §2 "Record"): no register may list them as its own fields. */
const RESERVED = new Set(['uuid', 'serversequence', 'syncflags', 'rows', 'blockcode']);
const FEEDS: readonly ObservedFeed[] = ['updates_after', 'deletes_after'];
const REGISTER_KEYS = new Set([
  'name',
  'meaning',
  'key',
  'fields',
  'rowFields',
  'block',
  'base',
  'readOnly',
  'filters',
  'feeds',
  'labels',
  'errors',
  'onDuplicate',
  'printout',
  'rawControlChars',
  'records',
  'evidence',
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const scalarText = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

function text(v: unknown, path: Path, what: string): string {
  const s = scalarText(v);
  if (s === undefined || s === '') throw new Problem(path, `${what} must be a non-empty text`);
  return s;
}

function words(v: unknown, path: Path, what: string, { empty = false } = {}): string[] {
  if (v === undefined && empty) return [];
  if (!Array.isArray(v)) throw new Problem(path, `${what} must be a list of field names, like [Code, Comment]`);
  if (v.length === 0 && !empty) throw new Problem(path, `${what} is empty`);
  const seen = new Set<string>();
  return v.map((x, i) => {
    if (typeof x !== 'string' || !WORD.test(x))
      throw new Problem([...path, i], `${what}: ${JSON.stringify(x)} is not a field name (letters and digits)`);
    if (RESERVED.has(x.toLowerCase()))
      throw new Problem(
        [...path, i],
        `${what}: ${x} is a name the server gives every record (UUID, ServerSequence, SyncFlags, rows)`,
      );
    if (seen.has(x.toLowerCase())) throw new Problem([...path, i], `${what}: ${x} is listed twice`);
    seen.add(x.toLowerCase());
    return x;
  });
}

function flag(v: unknown, path: Path, what: string, dflt: boolean): boolean {
  if (v === undefined) return dflt;
  if (typeof v !== 'boolean') throw new Problem(path, `${what} must be true or false`);
  return v;
}

function values(v: unknown, path: Path, what: string, allowed: ReadonlySet<string>): Record<string, string> {
  if (!isObject(v)) throw new Problem(path, `${what} must be a map of field: value`);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (!allowed.has(k)) throw new Problem([...path, k], `${what}: ${k} is not a field of the register`);
    const s = x === null ? '' : scalarText(x);
    if (s === undefined) throw new Problem([...path, k], `${what}: ${k} must be a text or a number`);
    out[k] = s;
  }
  return out;
}

function parseErrors(v: unknown, path: Path, all: ReadonlySet<string>): ObservedFieldError[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new Problem(path, 'errors must be a list of {field, empty: true | equals, code}');
  return v.map((e, i) => {
    const at = [...path, i];
    if (!isObject(e)) throw new Problem(at, 'an error must be a map {field, empty: true | equals, code}');
    const field = text(e.field, [...at, 'field'], 'error field');
    if (!all.has(field)) throw new Problem([...at, 'field'], `error field ${field} is not a field of the register`);
    const code = text(e.code, [...at, 'code'], 'error code');
    if (!/^\d+$/.test(code)) throw new Problem([...at, 'code'], `error code must be a number, got ${code}`);
    const hasEquals = e.equals !== undefined;
    if ((e.empty === true) === hasEquals)
      throw new Problem(at, `error on ${field}: give either empty: true or equals: <value>`);
    const value = hasEquals ? (scalarText(e.equals) ?? '') : '';
    const description =
      e.description === undefined
        ? hasEquals
          ? `${field} ${value} is not accepted`
          : `${field} is required`
        : text(e.description, [...at, 'description'], 'error description');
    return { field, when: hasEquals ? 'equals' : 'empty', value, code, description };
  });
}

function parseRecords(
  v: unknown,
  path: Path,
  reg: { fields: string[]; rowFields: string[]; key: string[]; block: boolean },
): ObservedRecord[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new Problem(path, 'records must be a list of maps field: value');
  if (reg.block && v.length > 1) throw new Problem([...path, 1], 'a block is one record: give it once, with its rows');
  const header = new Set(reg.fields);
  const rowSet = new Set(reg.rowFields);
  const keys = new Set<string>();
  return v.map((r, i) => {
    const at = [...path, i];
    if (!isObject(r)) throw new Problem(at, 'a record must be a map field: value');
    const { rows, ...fields } = r;
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
    if (rows !== undefined && !Array.isArray(rows)) throw new Problem([...at, 'rows'], 'rows must be a list');
    const rowList = ((rows as unknown[]) ?? []).map((row, j) => values(row, [...at, 'rows', j], 'row', rowSet));
    return { fields: out, rows: rowList };
  });
}

function parseRegister(r: unknown, at: Path, opts: ObservedParseOptions, fileEvidence: string): ObservedRegister {
  if (!isObject(r)) throw new Problem(at, 'a register must be a map with name, meaning, key, fields');
  for (const k of Object.keys(r))
    if (!REGISTER_KEYS.has(k))
      throw new Problem([...at, k], `unknown key ${k} (allowed: ${[...REGISTER_KEYS].join(', ')})`);
  const name = text(r.name, [...at, 'name'], 'name');
  if (!WORD.test(name)) throw new Problem([...at, 'name'], `register name ${name} is not a word`);
  if (opts.documented.has(name)) throw new Problem([...at, 'name'], `${name} is a documented register`);
  if (opts.taken.has(name)) throw new Problem([...at, 'name'], `register ${name} is already defined`);
  const meaning = text(r.meaning, [...at, 'meaning'], 'meaning');
  const block = flag(r.block, [...at, 'block'], 'block', false);
  const fields = words(r.fields, [...at, 'fields'], 'fields', { empty: block });
  const rowFields = words(r.rowFields, [...at, 'rowFields'], 'rowFields', { empty: true });
  const key = words(r.key, [...at, 'key'], 'key', { empty: block });
  if (block && key.length > 0) throw new Problem([...at, 'key'], `block ${name} has no key: it is one record`);
  if (block && fields.length > 0)
    throw new Problem([...at, 'fields'], `block ${name} holds rows only: list its fields as rowFields`);
  if (block && rowFields.length === 0) throw new Problem(at, `block ${name} needs rowFields`);
  if (!block && key.length === 0) throw new Problem([...at, 'key'], `${name} needs key fields`);
  const missing = key.filter((k) => !fields.includes(k));
  if (missing.length > 0)
    throw new Problem([...at, 'key'], `${name}: key field ${missing.join(', ')} is not among its fields`);
  const base = flag(r.base, [...at, 'base'], 'base', !block);
  if (block && base) throw new Problem([...at, 'base'], `block ${name} cannot be a base register`);
  const readOnly = flag(r.readOnly, [...at, 'readOnly'], 'readOnly', block);
  const headerSet = new Set(fields);
  const filters = r.filters === undefined ? fields : words(r.filters, [...at, 'filters'], 'filters', { empty: true });
  for (const [i, f] of filters.entries())
    if (!headerSet.has(f)) throw new Problem([...at, 'filters', i], `filter ${f} is not a header field of ${name}`);
  let feeds: ObservedFeed[] = base ? [...FEEDS] : [];
  if (r.feeds !== undefined) {
    if (!Array.isArray(r.feeds))
      throw new Problem([...at, 'feeds'], 'feeds must be a list: [updates_after, deletes_after]');
    feeds = r.feeds.map((f, i) => {
      if (!FEEDS.includes(f as ObservedFeed))
        throw new Problem([...at, 'feeds', i], `feed ${JSON.stringify(f)} is not updates_after or deletes_after`);
      if (!base) throw new Problem([...at, 'feeds', i], `${name} is not a base register: it has no feed`);
      return f as ObservedFeed;
    });
  }
  const all = new Set([...fields, ...rowFields]);
  const labels: Record<string, Record<string, string>> = {};
  if (r.labels !== undefined) {
    if (!isObject(r.labels)) throw new Problem([...at, 'labels'], 'labels must be a map field: {code: label}');
    for (const [f, map] of Object.entries(r.labels)) {
      if (!all.has(f)) throw new Problem([...at, 'labels', f], `labels: ${f} is not a field of ${name}`);
      labels[f] = values(map, [...at, 'labels', f], `labels of ${f}`, new Set(Object.keys(isObject(map) ? map : {})));
    }
  }
  const onDuplicate = r.onDuplicate ?? 'refuse';
  if (onDuplicate !== 'refuse' && onDuplicate !== 'already-registered')
    throw new Problem([...at, 'onDuplicate'], 'onDuplicate must be refuse or already-registered');
  const rawControlChars = words(r.rawControlChars, [...at, 'rawControlChars'], 'rawControlChars', { empty: true });
  for (const [i, f] of rawControlChars.entries())
    if (!all.has(f)) throw new Problem([...at, 'rawControlChars', i], `${f} is not a field of ${name}`);
  return {
    name,
    meaning,
    key,
    fields,
    rowFields,
    block,
    base,
    readOnly,
    filters,
    feeds,
    labels,
    errors: parseErrors(r.errors, [...at, 'errors'], all),
    onDuplicate,
    printout: flag(r.printout, [...at, 'printout'], 'printout', true),
    rawControlChars,
    records: parseRecords(r.records, [...at, 'records'], { fields, rowFields, key, block }),
    evidence: r.evidence === undefined ? fileEvidence : text(r.evidence, [...at, 'evidence'], 'evidence'),
  };
}

function parseFieldsEntry(
  e: unknown,
  at: Path,
  opts: ObservedParseOptions,
  own: ReadonlySet<string>,
  fileEvidence: string,
): ObservedFields {
  if (!isObject(e)) throw new Problem(at, 'a fields entry must be a map {register, part, fields}');
  const register = text(e.register, [...at, 'register'], 'register');
  if (own.has(register))
    throw new Problem([...at, 'register'], `${register} is a register of this file: list its fields there`);
  const main = opts.documented.get(register) ?? opts.known?.get(register);
  if (!main && opts.known) throw new Problem([...at, 'register'], `fields of unknown register ${register}`);
  if (e.part !== 'header' && e.part !== 'rows')
    throw new Problem([...at, 'part'], `${register} part must be header or rows`);
  const fields = words(e.fields, [...at, 'fields'], `${register} ${e.part} fields`);
  const mainFields = main ? (e.part === 'header' ? main.fields : main.rowFields) : [];
  const dup = fields.filter((f) => mainFields.includes(f));
  if (dup.length > 0)
    throw new Problem([...at, 'fields'], `${register} ${e.part}: already main fields: ${dup.join(', ')}`);
  const have = opts.known?.get(register);
  const all = have ? [...have.fields, ...have.rowFields] : [];
  for (const [i, f] of fields.entries()) {
    const clash = all.find((x) => x !== f && x.toLowerCase() === f.toLowerCase());
    if (clash) throw new Problem([...at, 'fields', i], `${register} has ${clash}: ${f} differs from it only in case`);
  }
  const notes: Record<string, string> = {};
  if (e.notes !== undefined) Object.assign(notes, values(e.notes, [...at, 'notes'], 'notes', new Set(fields)));
  return {
    register,
    part: e.part,
    fields,
    notes,
    evidence: e.evidence === undefined ? fileEvidence : text(e.evidence, [...at, 'evidence'], 'evidence'),
    documented: opts.documented.has(register),
  };
}

function check(doc: unknown, opts: ObservedParseOptions): ObservedCatalogue {
  if (!isObject(doc)) throw new Problem([], 'the file must be a map with evidence, fields and registers');
  for (const k of Object.keys(doc))
    if (!['evidence', 'fields', 'registers'].includes(k))
      throw new Problem([k], `unknown key ${k} (allowed: evidence, fields, registers)`);
  if (doc.evidence === undefined) throw new Problem([], 'needs "evidence": where the facts come from');
  const evidence = text(doc.evidence, ['evidence'], 'evidence');
  const rawRegs = doc.registers ?? [];
  const rawFields = doc.fields ?? [];
  if (!Array.isArray(rawRegs)) throw new Problem(['registers'], 'registers must be a list');
  if (!Array.isArray(rawFields)) throw new Problem(['fields'], 'fields must be a list');
  const taken = new Set(opts.taken);
  const registers = rawRegs.map((r, i) => {
    const reg = parseRegister(r, ['registers', i], { ...opts, taken }, evidence);
    taken.add(reg.name);
    return reg;
  });
  const own = new Set(registers.map((r) => r.name));
  const fields = rawFields.map((e, i) => parseFieldsEntry(e, ['fields', i], opts, own, evidence));
  return { evidence, fields, registers };
}

/** The line (1-based) of the node at `path`, or of its nearest parent that exists. */
function lineOf(text: string, path: Path): number | undefined {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  for (let n = path.length; n >= 0; n--) {
    const node = (n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true)) as Node | null | undefined;
    if (node && (isMap(node) || isSeq(node) || isScalar(node)) && node.range)
      return counter.linePos(node.range[0]).line;
  }
  return undefined;
}

/**
 * Checks the text of an observed-registers file (`specs/observed-fields.yaml`, or a team's `--registers FILE`)
 * and returns it typed, defaults filled in. Throws an ObservedFileError naming the file and the line.
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
  try {
    return check(doc, opts);
  } catch (err) {
    if (err instanceof Problem) throw new ObservedFileError(file, lineOf(text, err.path), err.message);
    throw err;
  }
}
