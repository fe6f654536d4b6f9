import type { AppModule } from '../app-types.js';
import { observedRegisters } from './observed-registers.js';
import { seedObserved } from './observed-seed.js';

/**
 * What live servers serve beyond the docs' 38 registers (specs/observed-fields.yaml, issue 10) as an AppModule:
 * PRVc and DepVc, and the VATCodeBlock settings block (rest/block-route.ts). README "Observed registers".
 */
export const observedModule: AppModule = {
  name: 'observed',
  registers: observedRegisters(),
  seed(app) {
    seedObserved(app);
  },
};
