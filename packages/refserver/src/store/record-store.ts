import { randomUUID } from 'node:crypto';
import { type FieldAdditionInput, withFields } from '../schema/field-merge.js';
import { catalogueRegistry, type RegisterRegistry } from '../schema/register-registry.js';
import type { RegisterInput, RegisterSchema } from '../schema/register-schema.js';
import { type Db, openDatabase, type SyncMode } from './database.js';
import { derivedViews, Ledgers } from './derived.js';
import { type RecordData, RecordTable, type StoredRecord } from './record-table.js';

/** Options of `RecordStore.open`. */
export interface StoreOptions {
  /** SQLite file; without it the data lives in memory. */
  readonly file?: string;
  /** @defaultValue `'normal'` (see database.ts). */
  readonly sync?: SyncMode;
  /** Extra registers to define before the tables are made (other modules' registers). */
  readonly registers?: readonly RegisterInput[];
  /** Fields added to the catalogue's or those registers (AppModule.fields); an unknown register throws. */
  readonly fields?: readonly FieldAdditionInput[];
}

/** A deleted record as `deletes_after` reports it. */
export interface Tombstone {
  readonly register: string;
  readonly company: number;
  readonly keyParts: readonly string[];
  readonly seq: number;
}

/** One committed change of a record, as `onCommit` listeners get it. */
export interface RecordChange {
  readonly kind: 'insert' | 'update' | 'delete';
  readonly register: string;
  readonly company: number;
  readonly keyParts: readonly string[];
  /** The sequence number the change took. */
  readonly seq: number;
}

/**
 * The one store both APIs share: one table per register, a sequence counter per database shared
 * by every write of every register and company (record-rest-api.md §6 "Sequence numbers serve as
 * change feed"), tombstones for `deletes_after`, the ledgers of the derived registers.
 * better-sqlite3 is synchronous, so a write transaction is never interleaved with another request.
 */
export class RecordStore {
  readonly db: Db;
  readonly registry: RegisterRegistry;
  readonly #tables = new Map<string, RecordTable>();
  readonly #ledgers: Ledgers;
  #sequence: number;
  #pending: number;
  #depth = 0;
  /** Changes of the open transaction, handed to the listeners when the outermost one commits. */
  readonly #changes: RecordChange[] = [];
  readonly #listeners = new Set<(changes: readonly RecordChange[]) => void>();
  readonly #stmts;
  readonly #run: ReturnType<Db['transaction']>;
  /** Header lookups (auto-fill reads the same contacts and items again and again), per register version. */
  readonly #lookups = new Map<string, { version: number; value: Readonly<Record<string, string>> | undefined }>();
  readonly #versions = new Map<string, number>();
  /** Registers written in the open transaction: their cached lookups go stale if it rolls back. */
  readonly #touched = new Set<string>();

  private constructor(db: Db, registry: RegisterRegistry) {
    this.db = db;
    this.registry = registry;
    this.#ledgers = new Ledgers(db);
    this.#run = db.transaction((fn: () => unknown) => fn());
    for (const schema of registry.all()) this.#ensureTable(schema);
    this.#stmts = {
      nextSeq: db.prepare("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'sequence' RETURNING value"),
      getSeq: db.prepare("SELECT value FROM meta WHERE key = 'sequence'").pluck(),
      tomb: db.prepare('INSERT INTO tombstones (register, _company, _seq, k0, k1, k2) VALUES (?, ?, ?, ?, ?, ?)'),
      company: db.prepare('SELECT code FROM companies WHERE code = ?').pluck(),
      addCompany: db.prepare('INSERT OR IGNORE INTO companies (code, name) VALUES (?, ?)'),
      companies: db.prepare('SELECT code, name FROM companies ORDER BY code'),
      getMeta: db.prepare('SELECT value FROM meta WHERE key = ?').pluck(),
      setMeta: db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
    };
    this.#sequence = Number(this.#stmts.getSeq.get());
    this.#pending = this.#sequence;
  }

  /** Opens (and creates) the database with the catalogue registers plus `options.registers`. */
  static open(options: StoreOptions = {}): RecordStore {
    return new RecordStore(openDatabase(options.file, options.sync), RecordStore.registryFor(options));
  }

  /** The registers a store opened with these options has, without opening a database. */
  static registryFor(options: Pick<StoreOptions, 'registers' | 'fields'>): RegisterRegistry {
    const fields = options.fields ?? [];
    const registry = catalogueRegistry((name) => derivedViews[name], fields);
    for (const r of options.registers ?? []) registry.add(withFields(r, fields));
    const known = new Set(registry.all().map((s) => s.name));
    const unknown = fields.find((f) => !known.has(f.register));
    if (unknown) throw new Error(`fields of unknown register ${unknown.register}: ${unknown.fields.join(', ')}`);
    return registry;
  }

  /** Closes the database (a WAL checkpoint happens on close). */
  close(): void {
    if (this.db.open) this.db.close();
  }

  #ensureTable(schema: RegisterSchema): RecordTable {
    const t = new RecordTable(this.db, schema);
    t.ensure();
    this.#tables.set(schema.name, t);
    return t;
  }

  /** Defines another register (the portal's ActVc, ...) and creates its table. */
  addRegister(input: RegisterInput): RegisterSchema {
    const schema = this.registry.add(input);
    this.#ensureTable(schema);
    return schema;
  }

  /** The schema of a register, or undefined. */
  schema(register: string): RegisterSchema | undefined {
    return this.registry.get(register);
  }

  /** The table of a register; throws for an unknown register (a programming error). */
  table(register: string): RecordTable {
    const t = this.#tables.get(register);
    if (!t) throw new Error(`unknown register ${register}`);
    return t;
  }

  /** The current sequence number: the sequence of the last committed write. */
  get sequence(): number {
    return this.#sequence;
  }

  /**
   * Runs `fn` in an immediate write transaction (nested calls become savepoints). The sequence numbers
   * it allocated become current only when the outermost transaction commits.
   */
  write<T>(fn: () => T): T {
    this.#depth++;
    const mark = this.#changes.length;
    let committed: RecordChange[] | undefined;
    try {
      const result = this.#run.immediate(fn) as T;
      // a rolled-back savepoint may have taken a number the database no longer has: read it back
      if (this.#depth === 1 && this.#pending !== this.#sequence) this.#sequence = Number(this.#stmts.getSeq.get());
      if (this.#depth === 1 && this.#changes.length > 0) committed = this.#changes.splice(0);
      return result;
    } catch (err) {
      this.#changes.length = mark;
      for (const r of this.#touched) this.#bump(r);
      throw err;
    } finally {
      if (this.#depth === 1) {
        this.#pending = this.#sequence;
        this.#touched.clear();
      }
      this.#depth--;
      if (committed) this.#notify(committed);
    }
  }

  /**
   * Calls `listener` with the record changes of every committed write transaction, after the commit
   * (the portal's `registerapi` callbacks hear about writes of both APIs this way). A listener must not
   * throw or block; one that throws is logged to stderr and skipped. Returns a function that removes it.
   */
  onCommit(listener: (changes: readonly RecordChange[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(changes: readonly RecordChange[]): void {
    for (const l of this.#listeners) {
      try {
        l(changes);
      } catch (err) {
        process.stderr.write(`erpcert refserver: a commit listener failed: ${(err as Error)?.stack ?? String(err)}\n`);
      }
    }
  }

  /** Takes the next sequence number; only inside `write`. */
  allocateSequence(): number {
    if (this.#depth === 0) throw new Error('allocateSequence outside a write transaction');
    const row = this.#stmts.nextSeq.get() as { value: string | number };
    this.#pending = Number(row.value);
    return this.#pending;
  }

  /** The record with these key parts, or undefined. */
  get(register: string, company: number, keyParts: readonly string[]): StoredRecord | undefined {
    return this.table(register).get(company, keyParts);
  }

  /** Inserts a record with a new sequence (and a UUID on base registers when it has none). */
  insert(register: string, company: number, data: RecordData): StoredRecord {
    return this.write(() => {
      const t = this.table(register);
      const seq = this.allocateSequence();
      const fields = { ...data.fields };
      if (t.schema.base && !fields.UUID) fields.UUID = randomUUID();
      if (t.schema.base && !fields.SyncFlags) fields.SyncFlags = '0';
      const rec = { fields, rows: data.rows };
      const id = t.insert(company, seq, rec);
      this.#bump(register);
      this.#ledgers.apply(register, company, id, rec, seq, true);
      this.#record('insert', t, company, fields, seq);
      return this.#stored(t, id, company, seq, rec);
    });
  }

  /** Rewrites an existing record with a new sequence. */
  update(register: string, existing: StoredRecord, data: RecordData): StoredRecord {
    return this.write(() => {
      const t = this.table(register);
      const seq = this.allocateSequence();
      const fields: Record<string, string> = { ...data.fields };
      if (t.schema.base) fields.UUID = existing.fields.UUID ?? '';
      const rec = { fields, rows: data.rows };
      t.update(existing.id, seq, rec);
      this.#bump(register);
      this.#ledgers.apply(register, existing.company, existing.id, rec, seq);
      this.#record('update', t, existing.company, existing.fields, seq);
      return this.#stored(t, existing.id, existing.company, seq, rec);
    });
  }

  /** Deletes a record and leaves a tombstone for `deletes_after`; undefined when there was none. */
  delete(register: string, company: number, keyParts: readonly string[]): Tombstone | undefined {
    return this.write(() => {
      const t = this.table(register);
      const existing = t.get(company, keyParts);
      if (!existing) return undefined;
      const seq = this.allocateSequence();
      t.delete(existing.id);
      this.#bump(register);
      this.#ledgers.apply(register, company, existing.id, undefined, seq);
      const parts = t.schema.key.map((k) => existing.fields[k] ?? '');
      this.#stmts.tomb.run(register, company, seq, parts[0] ?? '', parts[1] ?? '', parts[2] ?? '');
      this.#record('delete', t, company, existing.fields, seq);
      return { register, company, keyParts: parts, seq };
    });
  }

  #record(kind: RecordChange['kind'], t: RecordTable, company: number, f: Record<string, string>, seq: number): void {
    if (this.#listeners.size === 0) return;
    const keyParts = t.schema.key.map((k) => f[k] ?? '');
    this.#changes.push({ kind, register: t.schema.name, company, keyParts, seq });
  }

  #stored(t: RecordTable, id: number, company: number, seq: number, rec: RecordData): StoredRecord {
    const fields: Record<string, string> = {};
    for (const c of t.columns) fields[c] = rec.fields[c] ?? '';
    if (t.schema.base) fields.ServerSequence = String(seq);
    const rows = rec.rows.map((r) => {
      const full: Record<string, string> = {};
      for (const f of t.schema.rowFields) full[f] = r[f] ?? '';
      return full;
    });
    return { id, company, seq, fields, rows };
  }

  #bump(register: string): void {
    this.#versions.set(register, (this.#versions.get(register) ?? 0) + 1);
    if (this.#depth > 0) this.#touched.add(register);
  }

  /**
   * The header fields of a record (frozen, shared), or undefined: a cached read for auto-fill and
   * checks. The cache of a register is dropped by every write through this store; a module that
   * changes a register's table with its own SQL must call `invalidate(register)`.
   */
  lookup(register: string, company: number, keyParts: readonly string[]): Readonly<Record<string, string>> | undefined {
    const key = `${register} ${company} ${JSON.stringify(keyParts)}`;
    const version = this.#versions.get(register) ?? 0;
    const hit = this.#lookups.get(key);
    if (hit && hit.version === version) return hit.value;
    const value = this.table(register).getHeader(company, keyParts);
    if (value) Object.freeze(value);
    if (this.#lookups.size >= 20_000) this.#lookups.clear();
    this.#lookups.set(key, { version, value });
    return value;
  }

  /** A number that changes with every write to the register (caches key on it). */
  version(register: string): number {
    return this.#versions.get(register) ?? 0;
  }

  /** Drops cached lookups of a register (all registers without an argument). */
  invalidate(register?: string): void {
    if (register === undefined) this.#lookups.clear();
    else this.#bump(register);
  }

  /** The next free serial number (SerNr, or TRVc Number within its IntYc). */
  nextSerial(register: string, company: number, scopeValues: Record<string, string> = {}): number {
    const t = this.table(register);
    const rule = t.schema.serial;
    if (!rule) throw new Error(`register ${register} has no serial number`);
    const max = t.maxSerial(
      company,
      rule.field,
      rule.scope.map((f) => [f, scopeValues[f] ?? ''] as [string, string]),
    );
    return max === undefined ? rule.start : Math.max(max + 1, rule.start);
  }

  /** True when the company exists. */
  hasCompany(code: number): boolean {
    return this.#stmts.company.get(code) !== undefined;
  }

  /** Adds a company (no-op when it exists). */
  addCompany(code: number, name: string): void {
    this.#stmts.addCompany.run(code, name);
  }

  /** Every company. */
  companies(): { code: number; name: string }[] {
    return this.#stmts.companies.all() as { code: number; name: string }[];
  }

  /** A value of the `meta` table (e.g. whether demo data was seeded). */
  getMeta(key: string): string | undefined {
    return this.#stmts.getMeta.get(key) as string | undefined;
  }

  /** Sets a value of the `meta` table. */
  setMeta(key: string, value: string): void {
    this.#stmts.setMeta.run(key, value);
  }
}
