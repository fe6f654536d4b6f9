import type { RegisterInput } from './register-schema.js';

/** Fields a module adds to a register another module (or the catalogue) defines (AppModule.fields). */
export interface FieldAdditionInput {
  readonly register: string;
  readonly part: 'header' | 'rows';
  readonly fields: readonly string[];
}

/** A module's register with the fields other modules add to it (after its own; duplicates dropped later). */
export function withFields(input: RegisterInput, additions: readonly FieldAdditionInput[]): RegisterInput {
  const mine = additions.filter((a) => a.register === input.name);
  if (mine.length === 0) return input;
  const header = mine.filter((a) => a.part === 'header').flatMap((a) => a.fields);
  const rows = mine.filter((a) => a.part === 'rows').flatMap((a) => a.fields);
  return { ...input, fields: [...input.fields, ...header], rowFields: [...(input.rowFields ?? []), ...rows] };
}
