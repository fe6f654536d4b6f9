import type { ObservedRegister, RegisterDef } from '@erpcert/contract';
import { fieldAdditions } from './field-additions.js';

/** Fields added to one part of a register (field-additions.ts, AppModule.fields). */
interface FieldAddition {
  readonly register: string;
  readonly part: 'header' | 'rows';
  readonly fields: readonly string[];
}

/** The three fields every base register carries (record-rest-api.md §2 "Record"). */
export const BASE_FIELDS = ['UUID', 'ServerSequence', 'SyncFlags'] as const;

/** How a register's serial number is assigned when a write leaves it out (issue 3: "New serial numbers"). */
export interface SerialRule {
  /** The key field that gets the next number. */
  readonly field: string;
  /** Key fields the numbering restarts for (TRVc numbers run per IntYc). */
  readonly scope: readonly string[];
  /** The first number of an empty register. */
  readonly start: number;
}

/**
 * What a register of specs/observed-fields.yaml (or a team's `--registers FILE`) says beyond its fields: the
 * filters and feeds it answers, the values it refuses, labels, duplicates, printouts, raw control characters.
 */
export type RegisterBehaviour = Pick<
  ObservedRegister,
  'filters' | 'feeds' | 'labels' | 'errors' | 'onDuplicate' | 'printout' | 'rawControlChars'
>;

/** Everything the store and the routes know about one register. */
export interface RegisterSchema {
  readonly name: string;
  readonly meaning: string;
  /** Key fields in `@url` order. */
  readonly key: readonly string[];
  /** Header fields: the catalogue's main fields plus the documented additions (not the base fields). */
  readonly fields: readonly string[];
  /** Row fields; empty when the register has no lines. */
  readonly rowFields: readonly string[];
  /** Writes are refused (ItemStatusVc, SerBalVc, ARPayVc). */
  readonly readOnly: boolean;
  /** Carries UUID, ServerSequence and SyncFlags and answers `updates_after`/`deletes_after`. */
  readonly base: boolean;
  /** Fields stored as SQLite INTEGER (serial numbers): sorted and compared as numbers. */
  readonly intFields: ReadonlySet<string>;
  /** Key fields that may be empty (Bud1Vc Objects). */
  readonly optionalKeyFields: ReadonlySet<string>;
  readonly serial?: SerialRule;
  /** SQL `SELECT` for a read-only register computed from other data (see store/derived.ts). */
  readonly viewSql?: string;
  /** Served under `/api/1/<name>`. Extra registers of other modules may opt out. */
  readonly rest: boolean;
  /**
   * A settings block (VATCodeBlock): one record per company, key parts empty, answered as an object holding
   * `rows` under the register key (README "Observed registers").
   */
  readonly block: boolean;
  /** The observed behaviour of a register described as data (README "Observed registers"). */
  readonly behaviour?: RegisterBehaviour;
}

/** What another module passes to add a register (the portal's ActVc, EPOrderDocVc, ...). */
export interface RegisterInput {
  readonly name: string;
  readonly meaning?: string;
  readonly key: readonly string[];
  readonly fields: readonly string[];
  readonly rowFields?: readonly string[];
  readonly readOnly?: boolean;
  /** Default true for writable registers. */
  readonly base?: boolean;
  readonly intFields?: readonly string[];
  readonly optionalKeyFields?: readonly string[];
  readonly serial?: SerialRule;
  readonly viewSql?: string;
  /** Default true. */
  readonly rest?: boolean;
  /** Default false. */
  readonly block?: boolean;
  readonly behaviour?: RegisterBehaviour;
}

/** SerNr is the serial number of every register whose key is the single field SerNr. */
const SERNR_START = 10000001;

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}

/** Builds a schema from an input and checks it: key among the fields, no two columns differing only in case. */
export function buildSchema(input: RegisterInput): RegisterSchema {
  const fields = unique(input.fields);
  const missing = input.key.filter((k) => !fields.includes(k));
  if (missing.length > 0) throw new Error(`register ${input.name}: key fields not among its fields: ${missing}`);
  const seen = new Map<string, string>();
  for (const f of [...fields, ...BASE_FIELDS]) {
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(f)) throw new Error(`register ${input.name}: field name ${f} is not a word`);
    const prev = seen.get(f.toLowerCase());
    if (prev && prev !== f) throw new Error(`register ${input.name}: fields ${prev} and ${f} differ only in case`);
    seen.set(f.toLowerCase(), f);
  }
  const readOnly = input.readOnly === true;
  const serialDefault: SerialRule | undefined =
    input.key.length === 1 && input.key[0] === 'SerNr' ? { field: 'SerNr', scope: [], start: SERNR_START } : undefined;
  const serial = input.serial ?? serialDefault;
  const ints = new Set(input.intFields ?? []);
  if (serial) ints.add(serial.field);
  return {
    name: input.name,
    meaning: input.meaning ?? input.name,
    key: [...input.key],
    fields,
    rowFields: unique(input.rowFields ?? []),
    readOnly,
    base: input.base ?? !readOnly,
    intFields: ints,
    optionalKeyFields: new Set(input.optionalKeyFields ?? []),
    ...(serial && !readOnly ? { serial } : {}),
    ...(input.viewSql ? { viewSql: input.viewSql } : {}),
    rest: input.rest ?? true,
    block: input.block === true,
    ...(input.behaviour ? { behaviour: input.behaviour } : {}),
  };
}

/** Register-specific rules the catalogue cannot say (README "Decisions"). */
const catalogueOverrides: Record<string, Partial<RegisterInput>> = {
  // TRVc: key IntYc (year code) + Number; Number runs per IntYc from 1.
  TRVc: { serial: { field: 'Number', scope: ['IntYc'], start: 1 } },
  // Bud1Vc: a budget without an object has an empty Objects key part.
  Bud1Vc: { optionalKeyFields: ['Objects'] },
};

/** The schema of one catalogue register (record-rest-api.md §2) with the documented additions. */
export function schemaFromCatalogue(def: RegisterDef, extra: readonly FieldAddition[] = []): RegisterSchema {
  const header = [...def.fields];
  const rows = [...def.rowFields];
  for (const a of [...fieldAdditions, ...extra]) {
    if (a.register !== def.name) continue;
    (a.part === 'header' ? header : rows).push(...a.fields);
  }
  return buildSchema({
    name: def.name,
    meaning: def.meaning,
    key: def.key,
    fields: header,
    rowFields: rows,
    readOnly: def.readOnly,
    ...catalogueOverrides[def.name],
  });
}

/** Header fields including the base fields, in output order. */
export function outputFields(schema: RegisterSchema): readonly string[] {
  return schema.base ? [...schema.fields, ...BASE_FIELDS] : schema.fields;
}
