/**
 * The shape of specs/observed-fields.yaml and of a team's own `erpcert serve --registers FILE` (the same format):
 * registers and fields a live deployment serves beyond the docs. None of it is contract.
 */

/** Fields of one register part that a live server has beyond the main fields. */
export interface ObservedFields {
  readonly register: string;
  readonly part: 'header' | 'rows';
  readonly fields: readonly string[];
  /** Meanings of values where the evidence gives them (`CustType`: "0 customer, 1 vendor, 2 both"). */
  readonly notes: Readonly<Record<string, string>>;
  /** Where the facts come from (the entry's own `evidence`, else the file's). */
  readonly evidence: string;
  /** The register is one of the documented 38 (false: a portal register such as ActVc, or a team's). */
  readonly documented: boolean;
}

/** A write the register refuses: an empty value, or one given value, of one field. */
export interface ObservedFieldError {
  readonly field: string;
  /** `empty`: the field is blank; `equals`: the field holds `value`. */
  readonly when: 'empty' | 'equals';
  readonly value: string;
  /** The error code of the answer (`{"error": {"@code", "@field"}}`, HTTP 200). */
  readonly code: string;
  readonly description: string;
}

/** A demo record of an observed register, seeded into every demo company. */
export interface ObservedRecord {
  readonly fields: Readonly<Record<string, string>>;
  readonly rows: readonly Readonly<Record<string, string>>[];
}

/** The feeds of record-rest-api.md §4 a register may answer. */
export type ObservedFeed = 'updates_after' | 'deletes_after';

/** A register live servers serve beyond the documented 38. */
export interface ObservedRegister {
  readonly name: string;
  readonly meaning: string;
  /** Key fields; empty for a settings block. */
  readonly key: readonly string[];
  readonly fields: readonly string[];
  readonly rowFields: readonly string[];
  /** A settings block: one record holding rows only, answered as an object `{rows: [...]}` under the register key. */
  readonly block: boolean;
  /** A base register: its records carry UUID, ServerSequence and SyncFlags. @defaultValue true (false for a block) */
  readonly base: boolean;
  /** Writes are refused (served for reading only). @defaultValue false */
  readonly readOnly: boolean;
  /** Header fields `filter.<F>` works on. @defaultValue every header field */
  readonly filters: readonly string[];
  /** Feeds it answers; the others answer 404 in plain text. @defaultValue both on a base register, none otherwise */
  readonly feeds: readonly ObservedFeed[];
  /** Fields written as a code and read back as its label (`ItemType`: `1` -> `invoiceable`). */
  readonly labels: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Values a write is refused for. */
  readonly errors: readonly ObservedFieldError[];
  /** A create whose key exists: `refuse` (an error) or `already-registered` (HTTP 200, a message, nothing stored). */
  readonly onDuplicate: 'refuse' | 'already-registered';
  /** Portal `document` makes a PDF (true), or answers an empty `<file><name/><base64/></file>` (false). */
  readonly printout: boolean;
  /** Fields whose control characters `--quirks` sends raw in JSON (RLinkVc FromRecidStr). */
  readonly rawControlChars: readonly string[];
  /** Demo records, seeded into every demo company. */
  readonly records: readonly ObservedRecord[];
  /** Where the facts come from. */
  readonly evidence: string;
}

/** Everything of one file. */
export interface ObservedCatalogue {
  /** Where the facts come from (the issue or the team's own note). */
  readonly evidence: string;
  readonly fields: readonly ObservedFields[];
  readonly registers: readonly ObservedRegister[];
}

/** What a register the server already knows has, for the checks of `fields` entries. */
export interface KnownRegister {
  readonly fields: readonly string[];
  readonly rowFields: readonly string[];
}

/** A file that does not hold a valid catalogue: the message names the file and the line. */
export class ObservedFileError extends Error {
  readonly file: string;
  readonly line: number | undefined;

  constructor(file: string, line: number | undefined, message: string) {
    super(`${file}${line !== undefined ? `:${line}` : ''}: ${message}`);
    this.name = 'ObservedFileError';
    this.file = file;
    this.line = line;
  }
}
