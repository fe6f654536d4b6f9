/**
 * `erpcert report diff OLD NEW`: what changed between two report folders of the same kind (conformance: the
 * rules whose verdict changed, new FAILs and fixed ones; load: scenario verdicts and the figures that moved
 * beyond their run-to-run spread). Prints a table (or `--format json`), writes Markdown with `--md FILE`.
 * Exits 0 when the diff was made (a new FAIL is `erpcert conform`'s to gate on), 2 for folders it cannot read.
 */
import { writeFileSync } from 'node:fs';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import {
  DEFAULT_SPREAD,
  diffConformance,
  diffLoad,
  ReportFolderError,
  type ReportRun,
  readReportFolder,
} from '@erpcert/runs';
import type { CommandIO } from '../command.js';
import { type OptionValues, UsageError } from '../options.js';
import { type ReportDiff, renderDiffMd, renderDiffText } from '../report-diff/render-diff.js';
import { str } from '../settings-common.js';

/** Version of the `--format json` document. */
export const REPORT_DIFF_SCHEMA = 'erpcert-report-diff/1';

/** A folder as reports may show it: relative to the working folder, else its last name (no path of this machine). */
function shownName(cwd: string, given: string): string {
  const rel = relative(cwd, resolve(cwd, given)).split(sep).join('/');
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? basename(resolve(cwd, given)) : rel;
}

/** Runs `report diff` on its two folders. */
export async function runReportDiff(values: OptionValues, folders: readonly string[], io: CommandIO): Promise<number> {
  if (folders.length !== 2)
    throw new UsageError(
      `diff takes two report folders, OLD and NEW, got ${folders.length}: erpcert report diff OLD NEW`,
    );
  const format = str(values.format) ?? 'table';
  const spreadText = str(values.spread);
  const spread = spreadText === undefined ? DEFAULT_SPREAD * 100 : Number(spreadText);
  if (!Number.isFinite(spread) || spread < 0 || spread >= 1000)
    throw new UsageError(`--spread must be a percentage such as 10, got ${JSON.stringify(spreadText)}`);
  const [oldName, newName] = folders.map((f) => shownName(io.cwd, f)) as [string, string];
  let runs: [ReportRun, ReportRun];
  try {
    runs = [
      readReportFolder(resolve(io.cwd, folders[0]!), oldName),
      readReportFolder(resolve(io.cwd, folders[1]!), newName),
    ];
  } catch (err) {
    if (err instanceof ReportFolderError) throw new UsageError(err.message);
    throw err;
  }
  const [a, b] = runs;
  if (a.kind !== b.kind)
    throw new UsageError(
      `${oldName} is a ${a.kind} run and ${newName} a ${b.kind} run: diff compares runs of one kind`,
    );
  const folderNames = { old: oldName, new: newName };
  const diff: ReportDiff =
    a.kind === 'conformance' && b.kind === 'conformance'
      ? { ...diffConformance(a, b), folders: folderNames }
      : a.kind === 'load' && b.kind === 'load'
        ? { ...diffLoad(a.doc, b.doc, spread / 100), folders: folderNames }
        : (undefined as never);
  const md = str(values.md);
  if (md !== undefined) writeFileSync(resolve(io.cwd, md), renderDiffMd(diff), 'utf8');
  io.out.write(
    format === 'json' ? `${JSON.stringify({ schema: REPORT_DIFF_SCHEMA, ...diff }, null, 2)}\n` : renderDiffText(diff),
  );
  return 0;
}
