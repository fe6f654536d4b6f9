import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LOAD_RESULTS_SCHEMA, type LoadRunDocument } from './load-results.js';
import { validateLoadResults } from './load-results-validate.js';

/** A load run folder that cannot be read: missing, not JSON, or not a load results document. */
export class LoadRunReadError extends Error {
  override readonly name = 'LoadRunReadError';
}

/**
 * Checks a parsed `results.json` against load-results.schema.json. Throws {@link LoadRunReadError} whose message
 * says what is wrong without naming a file ("is not a load run (...)", "does not match ..."), so that callers put
 * the file, or the folder as they show it, in front.
 */
export function checkLoadRun(doc: unknown): LoadRunDocument {
  const schema = (doc as { schema?: unknown } | null)?.schema;
  if (schema !== LOAD_RESULTS_SCHEMA)
    throw new LoadRunReadError(`is not a load run (schema ${JSON.stringify(schema)}, want ${LOAD_RESULTS_SCHEMA})`);
  const check = validateLoadResults(doc);
  if (!check.valid)
    throw new LoadRunReadError(`does not match load-results.schema.json: ${check.errors.slice(0, 3).join('; ')}`);
  return doc as LoadRunDocument;
}

/**
 * Reads the `results.json` of a load run folder (`reports/load/<timestamp>/`), checked against
 * load-results.schema.json. Used by `--baseline DIR`, `report diff`, `certify --load-report` and `conform
 * --load-report`; `erpcert report`'s index checks the documents it reads with {@link checkLoadRun}.
 */
export function readLoadRun(dir: string): LoadRunDocument {
  const file = join(resolve(dir), 'results.json');
  if (!existsSync(file))
    throw new LoadRunReadError(`${dir} holds no results.json (is it an erpcert load report folder?)`);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new LoadRunReadError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  try {
    return checkLoadRun(doc);
  } catch (err) {
    if (err instanceof LoadRunReadError) throw new LoadRunReadError(`${file} ${err.message}`);
    throw err;
  }
}
