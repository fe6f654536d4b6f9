import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from '../command.js';
import { UsageError } from '../options.js';
import { listRuns, renderIndexHtml } from '../reports/index-html.js';
import { runReportDiff } from './report-diff.js';

/** `erpcert report diff OLD NEW`: what changed between two runs (report-diff.ts). */
export const reportDiff: Command = {
  name: 'diff',
  summary: 'what changed between two report folders of one kind',
  positionals: [
    { name: 'OLD', help: 'the earlier report folder (erpcert conform or erpcert load)' },
    { name: 'NEW', help: 'the later report folder, of the same kind' },
  ],
  flags: [
    {
      name: 'md',
      type: 'string',
      arg: 'FILE',
      help: 'also write the diff as Markdown to FILE (a pull request comment, a CI job summary)',
    },
    { name: 'format', type: 'string', choices: ['table', 'json'], default: 'table', help: 'what stdout gets' },
    {
      name: 'spread',
      type: 'string',
      arg: 'PCT',
      help: 'load runs: the smallest change, in percent, that counts as moved (default 10)',
    },
  ],
  details: [
    'Compares two report folders of one kind. Conformance: the rules whose verdict changed, the new FAILs (FAIL or',
    'ERROR now, neither before) and the fixed rules (FAIL, ERROR or KNOWN before, PASS now).',
    'Load: the scenarios whose verdict changed and the figures that moved beyond their run-to-run spread (rates:',
    'the counting error of their requests; errors and drops: Poisson; never less than --spread). Exit codes: 0 the',
    'diff was made (whatever it found: erpcert conform is the gate), 2 a folder cannot be read or the kinds differ.',
  ].join('\n'),
  run: (values, positionals, io) => runReportDiff(values, positionals, io),
};

/**
 * `erpcert report [DIR]`: rebuilds DIR/index.html (default `reports/`) over every conformance and load run.
 * `erpcert report diff OLD NEW`: its sub-command {@link reportDiff}.
 */
export const report: Command = {
  name: 'report',
  summary: 'rebuild the HTML index over reports/; "report diff OLD NEW": what changed between two runs',
  positionals: [{ name: 'DIR', optional: true, help: 'the reports folder to index (default: reports/)' }],
  subcommands: [reportDiff],
  flags: [],
  details: [
    'Writes DIR/index.html over every run under DIR/conformance/ and DIR/load/ and prints its path. Each run is',
    'read through its results schema; a folder another erpcert version wrote, or one that does not match the',
    'schema, is listed as such.',
  ].join('\n'),
  async run(_values, positionals, io) {
    if (positionals.length > 1) throw new UsageError(`takes one folder at most, got ${positionals.length}`);
    const dir = resolve(io.cwd, positionals[0] ?? 'reports');
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new UsageError(
        `no reports folder at ${dir}: run erpcert conform or erpcert load first, or name the folder`,
      );
    }
    const runs = listRuns(dir);
    const file = join(dir, 'index.html');
    writeFileSync(file, renderIndexHtml(runs, new Date().toISOString()), 'utf8');
    io.err.write(`erpcert report: ${runs.length} run(s) listed\n`);
    io.out.write(`${file}\n`);
    return 0;
  },
};
