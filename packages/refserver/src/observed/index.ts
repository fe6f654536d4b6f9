import { type ObservedCatalogue, observed } from '@erpcert/contract';
import type { AppModule } from '../app-types.js';
import { observedFieldAdditions, observedRegisters } from './observed-registers.js';
import { seedObserved, seedObservedRecords } from './observed-seed.js';

/**
 * The registers and fields of an observed-registers file as an AppModule: each register with the behaviour the
 * file describes, its demo records seeded into every demo company, its `fields` added to the registers they name.
 * `erpcert serve --registers FILE` mounts a team's own file this way (README "Observed registers").
 */
export function createObservedModule(catalogue: ObservedCatalogue, name = 'registers-file'): AppModule {
  return {
    name,
    registers: observedRegisters(catalogue),
    fields: observedFieldAdditions(catalogue),
    seed(app) {
      seedObservedRecords(app, catalogue);
    },
  };
}

/**
 * What live servers serve beyond the docs' 38 registers (specs/observed-fields.yaml, issues 10 and 21): PRVc,
 * DepVc, the settings blocks, the service registers, the activity types, the record links; and the observed
 * fields of portal registers (ActVc). The observed fields of the documented 38 come in through
 * schema/field-additions.ts. README "Observed registers".
 */
export const observedModule: AppModule = {
  name: 'observed',
  registers: observedRegisters(observed),
  fields: observedFieldAdditions(observed, (documented) => !documented),
  seed(app) {
    seedObserved(app);
    seedObservedRecords(app, observed);
  },
};
