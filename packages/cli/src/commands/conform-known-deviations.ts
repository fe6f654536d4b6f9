/**
 * The known-deviations steps of `erpcert conform` (`--baseline`, `--write-baseline`, `--strict-baseline`):
 * the file is read and checked before anything runs (a wrong file is exit 2, nothing run), and applied to the
 * judged run (known-deviations/apply-known-deviations.ts), after `--write-baseline` has added the run's FAILs.
 */
import { existsSync } from 'node:fs';
import { getRule } from '@erpcert/contract';
import type { ResultsDocument } from '@erpcert/runs';
import { type ApplyOptions, applyKnownDeviations } from '../known-deviations/apply-known-deviations.js';
import {
  type KnownDeviations,
  KnownDeviationsError,
  parseKnownDeviations,
  pruneKnownDeviationsFile,
  readKnownDeviations,
  writeKnownDeviations,
} from '../known-deviations/known-deviations-file.js';
import { UsageError } from '../options.js';
import type { ConformSettings } from './conform-settings.js';

const isRule = (id: string) => getRule(id) !== undefined;

function read(file: { path: string; name: string }, mayBeMissing: boolean): KnownDeviations {
  try {
    if (mayBeMissing && !existsSync(file.path)) return parseKnownDeviations('', file.name, isRule);
    return readKnownDeviations(file.path, file.name, isRule);
  } catch (err) {
    if (err instanceof KnownDeviationsError) throw new UsageError(`${err.message}. Nothing was run.`);
    throw err;
  }
}

/**
 * Reads the run's known-deviations file before the run: `--baseline FILE` must exist; `--write-baseline FILE`
 * may not exist yet. Throws UsageError naming the file and line (exit 2) for a file that cannot be used.
 */
export function readRunDeviations(s: ConformSettings): KnownDeviations | undefined {
  if (s.writeBaseline !== undefined) return read(s.writeBaseline, true);
  if (s.baseline !== undefined) return read(s.baseline, false);
  return undefined;
}

/**
 * Applies the known deviations to the judged run. With `--write-baseline`, first adds the run's FAILs to the
 * file (reasons already written are kept) and judges the run against the file as written. With
 * `--prune-baseline`, then removes from the file the listed rules this run judged PASS and judges the run
 * against what is left (so `--strict-baseline` no longer fails on them). A run that could not be completed
 * (exit 2) writes nothing. ERRORs are not written: an ERROR is no observed deviation (list the rule by hand to
 * accept it).
 */
export function settleKnownDeviations(
  doc: ResultsDocument,
  s: ConformSettings,
  deviations: KnownDeviations | undefined,
  today: string,
  say: (line: string) => void,
): ResultsDocument {
  if (deviations === undefined) return doc;
  const file = s.writeBaseline ?? s.baseline;
  if (doc.run.exitCode === 2) {
    if (s.writeBaseline !== undefined || s.pruneBaseline)
      say(`the run could not be completed: ${file?.name ?? 'the baseline'} was not written`);
    return applyKnownDeviations(doc, deviations, { today, strict: s.strictBaseline });
  }
  let options: ApplyOptions = { today, strict: s.strictBaseline };
  let current = deviations;
  if (s.writeBaseline !== undefined) {
    current = addFailures(doc, s.writeBaseline, deviations, say);
    options = { ...options, added: addedRules(deviations, current) };
  }
  const judged = applyKnownDeviations(doc, current, options);
  if (!s.pruneBaseline || file === undefined) return judged;
  const removed = pruneKnownDeviationsFile(file.path, judged.knownDeviations?.fixed ?? []);
  say(
    removed.length === 0
      ? `${file.name}: no listed rule passes, nothing pruned`
      : `${file.name}: pruned ${removed.length} fixed entr${removed.length === 1 ? 'y' : 'ies'} that pass now: ${removed.join(', ')}`,
  );
  return removed.length === 0 ? judged : applyKnownDeviations(doc, read(file, false), options);
}

/** The rules `after` lists and `before` did not. */
function addedRules(before: KnownDeviations, after: KnownDeviations): readonly string[] {
  const had = new Set(before.entries.map((e) => e.rule));
  return after.entries.map((e) => e.rule).filter((r) => !had.has(r));
}

/** `--write-baseline`: adds the run's FAILs to the file and returns the file as written. */
function addFailures(
  doc: ResultsDocument,
  file: { path: string; name: string },
  deviations: KnownDeviations,
  say: (line: string) => void,
): KnownDeviations {
  // a FAIL that follows from another (causedBy) is accepted with its cause (apply-known-deviations.ts): only causes
  const fails = doc.rules.filter((r) => r.verdict === 'FAIL');
  const failing = fails.filter((r) => !r.causedBy?.length).map((r) => r.id);
  const following = fails.length - failing.length;
  const added = writeKnownDeviations(file.path, failing);
  say(
    `${file.name}: ${added.length} new FAIL(s) added${added.length > 0 ? ' with empty reasons to fill in' : ''}, ${deviations.entries.length} entr${deviations.entries.length === 1 ? 'y' : 'ies'} kept as written${following > 0 ? `; ${following} FAIL(s) that follow from another left out (accepted with their cause)` : ''}`,
  );
  const errored = doc.rules.filter((r) => r.verdict === 'ERROR' && !deviations.entries.some((e) => e.rule === r.id));
  if (errored.length > 0)
    say(
      `${errored.length} ERROR(s) not written (${errored
        .slice(0, 5)
        .map((r) => r.id)
        .join(
          ', ',
        )}${errored.length > 5 ? ', ...' : ''}): an ERROR is no observed deviation; list the rule by hand to accept it`,
    );
  return read(file, false);
}
