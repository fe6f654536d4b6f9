/** The two generated families of the self-test (issue 18), built once per process: they keep no state. */
import { catalogueMutants } from './catalogue-mutants.js';
import type { GeneratedMutant } from './generated-mutant.js';
import { specMutants } from './spec-mutants.js';

let cache: readonly GeneratedMutant[] | undefined;

/** Every generated mutant: the spec family, then the catalogue family, in a stable order. */
export function generatedMutants(): readonly GeneratedMutant[] {
  cache ??= Object.freeze([...specMutants(), ...catalogueMutants()]);
  return cache;
}
