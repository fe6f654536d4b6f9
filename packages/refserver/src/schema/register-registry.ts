import { registers } from '@erpcert/contract';
import type { FieldAdditionInput } from './field-merge.js';
import { buildSchema, type RegisterInput, type RegisterSchema, schemaFromCatalogue } from './register-schema.js';

/**
 * The registers one server knows: the 38 of the catalogue plus whatever other modules add
 * (the portal's ActVc, EPOrderDocVc, ... ). Names are case-sensitive, as in `/api/1/<name>`.
 */
export class RegisterRegistry {
  readonly #byName = new Map<string, RegisterSchema>();

  constructor(schemas: Iterable<RegisterSchema> = []) {
    for (const s of schemas) this.#byName.set(s.name, s);
  }

  /** The schema of a register, or undefined. */
  get(name: string): RegisterSchema | undefined {
    return this.#byName.get(name);
  }

  /** Every register, in the order they were added. */
  all(): RegisterSchema[] {
    return [...this.#byName.values()];
  }

  /** Adds a register; throws when the name is taken. Use `RecordStore.addRegister` to get its table too. */
  add(input: RegisterInput | RegisterSchema): RegisterSchema {
    if (this.#byName.has(input.name)) throw new Error(`register ${input.name} is already defined`);
    const schema = 'intFields' in input && input.intFields instanceof Set ? input : buildSchema(input as RegisterInput);
    this.#byName.set(schema.name, schema as RegisterSchema);
    return schema as RegisterSchema;
  }
}

/**
 * The catalogue registers (record-rest-api.md §2) with the documented additions; read-only ones get
 * the view that derives them (`viewSqlFor`, from store/derived.ts).
 */
export function catalogueRegistry(
  viewSqlFor: (name: string) => string | undefined,
  extraFields: readonly FieldAdditionInput[] = [],
): RegisterRegistry {
  return new RegisterRegistry(
    registers.map((def) => {
      const schema = schemaFromCatalogue(def, extraFields);
      const viewSql = viewSqlFor(def.name);
      if (schema.readOnly && !viewSql) throw new Error(`read-only register ${def.name} has no derivation`);
      return viewSql ? { ...schema, viewSql } : schema;
    }),
  );
}
