import { ErpError, ErrorCode, validationError } from '../errors.js';
import type { RegisterSchema } from '../schema/register-schema.js';
import type { Draft } from './draft.js';

/**
 * The write rules a register described as data carries (specs/observed-fields.yaml, issue 21; README "Observed
 * registers"): labels, refused values, and the "Already registered" answer to a duplicate key.
 */

/** A create whose key exists on a register with `onDuplicate: already-registered`: nothing is stored. */
export class AlreadyRegistered extends ErpError {
  readonly register: string;

  constructor(register: string) {
    super(200, ErrorCode.duplicateKey, 'Already registered');
    this.register = register;
  }
}

/** Writes a label field's code as its label; a label is kept; anything else is refused naming the codes. */
export function applyLabels(schema: RegisterSchema, d: Draft): void {
  const labels = schema.behaviour?.labels;
  if (!labels) return;
  const convert = (field: string, value: string | undefined, row?: number): string | undefined => {
    const map = labels[field];
    if (!map || value === undefined || value === '') return value;
    if (map[value] !== undefined) return map[value];
    if (Object.values(map).includes(value)) return value;
    const codes = Object.entries(map)
      .map(([c, l]) => `${c} (${l})`)
      .join(', ');
    throw validationError(
      ErrorCode.invalidValue,
      `${row === undefined ? '' : `row ${row} `}${field} must be one of ${codes}, got "${value}"`,
      field,
      row,
    );
  };
  for (const f of Object.keys(labels)) if (f in d.fields) d.fields[f] = convert(f, d.fields[f]) ?? '';
  d.rows.forEach((r, i) => {
    for (const f of Object.keys(labels)) if (f in r) r[f] = convert(f, r[f], i) ?? '';
  });
}

/** The refused values of the register (`errors`): the first one that matches answers its code and field. */
export function checkFieldErrors(schema: RegisterSchema, d: Draft): void {
  for (const e of schema.behaviour?.errors ?? []) {
    const header = schema.fields.includes(e.field);
    const values: [string, number | undefined][] = header
      ? [[d.fields[e.field] ?? '', undefined]]
      : d.rows.map((r, i) => [r[e.field] ?? '', i]);
    for (const [v, row] of values)
      if (e.when === 'empty' ? v === '' : v === e.value) throw validationError(e.code, e.description, e.field, row);
  }
}
