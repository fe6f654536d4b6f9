import type { Statement } from 'better-sqlite3';
import type { RegisterSchema } from '../schema/register-schema.js';
import { type Db, quoteIdent } from './database.js';

/** Field values of a header and its rows. All values are strings (record-rest-api.md §2 "Record"). */
export interface RecordData {
  readonly fields: Record<string, string>;
  readonly rows: readonly Record<string, string>[];
}

/** A record as stored: its data plus row id, company and the sequence of its last write. */
export interface StoredRecord extends RecordData {
  readonly id: number;
  readonly company: number;
  readonly seq: number;
}

/** Name of the table (or view) that holds a register. */
export function tableName(register: string): string {
  return `reg_${register}`;
}

/**
 * The stored columns of a register's header: its fields plus UUID and SyncFlags for base registers.
 * ServerSequence is not a column: it is `_seq`, the sequence of the record's last write.
 */
export function storedColumns(schema: RegisterSchema): string[] {
  return schema.base ? [...schema.fields, 'UUID', 'SyncFlags'] : [...schema.fields];
}

/** Encodes rows for the `_rows` column: JSON objects holding only the non-empty values. */
export function encodeRows(rows: readonly Record<string, string>[]): string {
  if (rows.length === 0) return '[]';
  return JSON.stringify(
    rows.map((r) => {
      const o: Record<string, string> = {};
      for (const k in r) if (r[k] !== '' && r[k] !== undefined) o[k] = r[k]!;
      return o;
    }),
  );
}

/** One register's table: DDL and the prepared statements for key access and writes. */
export class RecordTable {
  readonly schema: RegisterSchema;
  readonly name: string;
  readonly columns: readonly string[];
  readonly #db: Db;
  #insert?: Statement;
  #update?: Statement;
  #getByKey?: Statement;
  #delete?: Statement;
  readonly #serial = new Map<string, Statement>();

  constructor(db: Db, schema: RegisterSchema) {
    this.#db = db;
    this.schema = schema;
    this.name = tableName(schema.name);
    this.columns = schema.viewSql ? schema.fields : storedColumns(schema);
  }

  /** Creates the table, its indexes and any column a newer field list added (or the view). */
  ensure(): void {
    const t = quoteIdent(this.name);
    if (this.schema.viewSql) {
      this.#db.exec(`DROP VIEW IF EXISTS ${t}; CREATE VIEW ${t} AS ${this.schema.viewSql}`);
      return;
    }
    const colDef = (c: string) =>
      this.schema.intFields.has(c)
        ? `${quoteIdent(c)} INTEGER NOT NULL DEFAULT ''`
        : `${quoteIdent(c)} TEXT NOT NULL DEFAULT ''`;
    this.#db.exec(
      `CREATE TABLE IF NOT EXISTS ${t} (_id INTEGER PRIMARY KEY, _company INTEGER NOT NULL, _seq INTEGER NOT NULL, ` +
        `${this.columns.map(colDef).join(', ')}, _rows TEXT NOT NULL DEFAULT '[]')`,
    );
    const existing = new Set(
      (this.#db.prepare(`PRAGMA table_info(${t})`).all() as { name: string }[]).map((c) => c.name),
    );
    for (const c of this.columns) if (!existing.has(c)) this.#db.exec(`ALTER TABLE ${t} ADD COLUMN ${colDef(c)}`);
    const keyCols = this.schema.key.map(quoteIdent).join(', ');
    this.#db.exec(
      `CREATE UNIQUE INDEX IF NOT EXISTS ${quoteIdent(`${this.name}_key`)} ON ${t} (_company, ${keyCols});` +
        `CREATE INDEX IF NOT EXISTS ${quoteIdent(`${this.name}_seq`)} ON ${t} (_company, _seq)`,
    );
  }

  #keyWhere(): string {
    return this.schema.key.map((k) => `${quoteIdent(k)} = ?`).join(' AND ');
  }

  /** Binds a value for a column: integer columns get numbers when the text is a whole number. */
  bindValue(column: string, value: string): string | number {
    if (this.schema.intFields.has(column) && /^-?\d{1,15}$/.test(value)) return Number(value);
    return value;
  }

  /** The record with these key parts in a company, or undefined. */
  get(company: number, keyParts: readonly string[]): StoredRecord | undefined {
    if (keyParts.length !== this.schema.key.length) return undefined;
    this.#getByKey ??= this.#db.prepare(
      `SELECT * FROM ${quoteIdent(this.name)} WHERE _company = ? AND ${this.#keyWhere()}`,
    );
    const row = this.#getByKey.get(company, ...keyParts.map((v, i) => this.bindValue(this.schema.key[i]!, v))) as
      | Record<string, unknown>
      | undefined;
    return row ? this.fromRow(row) : undefined;
  }

  /** Only the header fields of a record (cheaper than `get`: no rows, no copies); for lookups. */
  getHeader(company: number, keyParts: readonly string[]): Record<string, string> | undefined {
    if (keyParts.length !== this.schema.key.length) return undefined;
    this.#getByKey ??= this.#db.prepare(
      `SELECT * FROM ${quoteIdent(this.name)} WHERE _company = ? AND ${this.#keyWhere()}`,
    );
    const row = this.#getByKey.get(company, ...keyParts.map((v, i) => this.bindValue(this.schema.key[i]!, v))) as
      | Record<string, string | number>
      | undefined;
    if (!row) return undefined;
    for (const f of this.schema.intFields) if (typeof row[f] === 'number') row[f] = String(row[f]);
    return row as Record<string, string>;
  }

  /** Turns a `SELECT *` row into a StoredRecord. */
  fromRow(row: Record<string, unknown>): StoredRecord {
    const fields: Record<string, string> = {};
    for (const c of this.columns) fields[c] = row[c] === undefined || row[c] === null ? '' : String(row[c]);
    if (this.schema.base) fields.ServerSequence = String(row._seq);
    const rows = typeof row._rows === 'string' ? (JSON.parse(row._rows) as Record<string, string>[]) : [];
    return {
      id: Number(row._id ?? 0),
      company: Number(row._company),
      seq: Number(row._seq),
      fields,
      rows: rows.map((r) => {
        const full: Record<string, string> = {};
        for (const f of this.schema.rowFields) full[f] = r[f] ?? '';
        return full;
      }),
    };
  }

  #values(data: RecordData): (string | number)[] {
    return this.columns.map((c) => this.bindValue(c, data.fields[c] ?? ''));
  }

  /** Inserts a record; returns its row id. */
  insert(company: number, seq: number, data: RecordData): number {
    this.#insert ??= this.#db.prepare(
      `INSERT INTO ${quoteIdent(this.name)} (_company, _seq, ${this.columns.map(quoteIdent).join(', ')}, _rows) ` +
        `VALUES (?, ?, ${this.columns.map(() => '?').join(', ')}, ?)`,
    );
    return Number(this.#insert.run(company, seq, ...this.#values(data), encodeRows(data.rows)).lastInsertRowid);
  }

  /** Rewrites a record in place with a new sequence. */
  update(id: number, seq: number, data: RecordData): void {
    this.#update ??= this.#db.prepare(
      `UPDATE ${quoteIdent(this.name)} SET _seq = ?, ${this.columns.map((c) => `${quoteIdent(c)} = ?`).join(', ')}, ` +
        '_rows = ? WHERE _id = ?',
    );
    this.#update.run(seq, ...this.#values(data), encodeRows(data.rows), id);
  }

  /** Deletes a record by row id. */
  delete(id: number): void {
    this.#delete ??= this.#db.prepare(`DELETE FROM ${quoteIdent(this.name)} WHERE _id = ?`);
    this.#delete.run(id);
  }

  /** The highest serial number in use within a company (and scope), or undefined. */
  maxSerial(company: number, field: string, scope: readonly [string, string][]): number | undefined {
    const sig = `${field}|${scope.map(([f]) => f).join(',')}`;
    let stmt = this.#serial.get(sig);
    if (!stmt) {
      const where = scope.map(([f]) => ` AND ${quoteIdent(f)} = ?`).join('');
      stmt = this.#db
        .prepare(
          `SELECT ${quoteIdent(field)} FROM ${quoteIdent(this.name)} WHERE _company = ?${where} ` +
            `AND typeof(${quoteIdent(field)}) = 'integer' ORDER BY ${quoteIdent(field)} DESC LIMIT 1`,
        )
        .pluck();
      this.#serial.set(sig, stmt);
    }
    const v = stmt.get(company, ...scope.map(([f, v]) => this.bindValue(f, v)));
    return v === undefined ? undefined : Number(v);
  }
}
