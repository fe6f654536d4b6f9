import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ObservedParseOptions, parseObservedText } from './observed-parse.js';
import type { KnownRegister, ObservedCatalogue } from './observed-types.js';
import { specsDir } from './paths.js';
import { registers as catalogue, type RegisterDef } from './registers.js';
import { parseYamlCached } from './yaml-cache.js';

export type {
  KnownRegister,
  ObservedCatalogue,
  ObservedFeed,
  ObservedFieldError,
  ObservedFields,
  ObservedRecord,
  ObservedRegister,
} from './observed-types.js';
export { ObservedFileError } from './observed-types.js';

/** The documented registers by name, with their main fields. */
function documentedMap(documented: readonly RegisterDef[]): Map<string, KnownRegister> {
  return new Map(documented.map((r) => [r.name, r]));
}

/**
 * Reads and checks specs/observed-fields.yaml: every register of `fields` exists where it can be checked, no
 * observed field is already a main field, no observed register shadows a documented one. Throws an
 * ObservedFileError naming the file, the line and the offending entry.
 */
export function loadObserved(
  file = join(specsDir, 'observed-fields.yaml'),
  documented: readonly RegisterDef[] = catalogue,
): ObservedCatalogue {
  const text = readFileSync(file, 'utf8');
  const docs = documentedMap(documented);
  return parseObservedText(text, file, { taken: new Set(), documented: docs }, parseYamlCached(text));
}

/**
 * Checks a team's own registers file (`erpcert serve --registers FILE`, the format of specs/observed-fields.yaml):
 * its registers may not reuse a name the server has (`taken`), its `fields` entries must name a register of
 * `known`. Throws an ObservedFileError naming `shownAs` and the line.
 */
export function parseRegistersFile(
  text: string,
  shownAs: string,
  options: Pick<ObservedParseOptions, 'taken' | 'known'>,
  documented: readonly RegisterDef[] = catalogue,
): ObservedCatalogue {
  return parseObservedText(text, shownAs, { ...options, documented: documentedMap(documented) });
}

/** The observed fields and registers (specs/observed-fields.yaml). Never contract: nothing may require them. */
export const observed: ObservedCatalogue = loadObserved();

/** The observed fields of one register part (empty when there are none). */
export function observedFieldsOf(register: string, part: 'header' | 'rows'): readonly string[] {
  return observed.fields.filter((e) => e.register === register && e.part === part).flatMap((e) => e.fields);
}
