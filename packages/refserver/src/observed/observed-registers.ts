import type { ObservedCatalogue, ObservedRegister } from '@erpcert/contract';
import type { FieldAdditionInput } from '../schema/field-merge.js';
import type { RegisterInput } from '../schema/register-schema.js';

/**
 * The hidden key of a settings block: one record per company whose key part is empty. It is never served (a
 * block answers only its rows).
 */
export const BLOCK_KEY = 'BlockCode';

/** One register of an observed-registers file as the store defines it. */
export function registerInputOf(r: ObservedRegister): RegisterInput {
  if (r.block)
    return {
      name: r.name,
      meaning: r.meaning,
      key: [BLOCK_KEY],
      fields: [BLOCK_KEY],
      rowFields: r.rowFields,
      optionalKeyFields: [BLOCK_KEY],
      base: false,
      block: true,
    };
  return {
    name: r.name,
    meaning: r.meaning,
    key: r.key,
    fields: r.fields,
    rowFields: r.rowFields,
    base: r.base,
    readOnly: r.readOnly,
    behaviour: {
      filters: r.filters,
      feeds: r.feeds,
      labels: r.labels,
      errors: r.errors,
      onDuplicate: r.onDuplicate,
      printout: r.printout,
      rawControlChars: r.rawControlChars,
    },
  };
}

/**
 * The registers of an observed-registers file (specs/observed-fields.yaml, or a team's `--registers FILE`): plain
 * registers with the behaviour the file gives them, and settings blocks (rest/block-route.ts).
 */
export function observedRegisters(catalogue: ObservedCatalogue): RegisterInput[] {
  return catalogue.registers.map(registerInputOf);
}

/** The `fields` entries of a file as additions to registers the server has (`only`: which entries). */
export function observedFieldAdditions(
  catalogue: ObservedCatalogue,
  only: (documented: boolean) => boolean = () => true,
): FieldAdditionInput[] {
  return catalogue.fields
    .filter((e) => only(e.documented))
    .map((e) => ({ register: e.register, part: e.part, fields: e.fields }));
}
