import { observed } from '@erpcert/contract';
import type { RegisterInput } from '../schema/register-schema.js';

/**
 * The hidden key of a settings block: one record per company whose key part is empty. It is never served (a
 * block answers only its rows).
 */
export const BLOCK_KEY = 'BlockCode';

/**
 * The registers live servers serve beyond the documented 38 (specs/observed-fields.yaml, issue 10): PRVc and
 * DepVc as base registers like any other, VATCodeBlock as a settings block.
 */
export function observedRegisters(): RegisterInput[] {
  return observed.registers.map((r) =>
    r.block
      ? {
          name: r.name,
          meaning: r.meaning,
          key: [BLOCK_KEY],
          fields: [BLOCK_KEY],
          rowFields: r.rowFields,
          optionalKeyFields: [BLOCK_KEY],
          base: false,
          block: true,
        }
      : { name: r.name, meaning: r.meaning, key: r.key, fields: r.fields, rowFields: r.rowFields },
  );
}
