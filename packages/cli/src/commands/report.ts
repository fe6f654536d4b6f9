import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from '../command.js';
import { UsageError } from '../options.js';
import { listRuns, renderIndexHtml } from '../reports/index-html.js';
import { runReportDiff } from './report-diff.js';

/**
 * `erpcert report [DIR]`: rebuilds DIR/index.html (default `reports/`) over every conformance and load run.
 * `erpcert report diff OLD NEW`: what changed between two runs (report-diff.ts).
 */
export const report: Command = {
  name: 'report',
  summary: 'rebuild the HTML index over reports/; "report diff OLD NEW": what changed between two runs',
  positionals: '[DIR] | diff OLD NEW',
  flags: [
    {
      name: 'md',
      type: 'string',
      arg: 'FILE',
      help: 'diff: also write the diff as Markdown to FILE (a pull request comment, a CI job summary)',
    },
    { name: 'format', type: 'string', choices: ['table', 'json'], default: 'table', help: 'diff: what stdout gets' },
    {
      name: 'spread',
      type: 'string',
      arg: 'PCT',
      help: 'diff of load runs: the smallest change, in percent, that counts as moved (default 10)',
    },
  ],
  details: [
    'DIR defaults to reports/ in the current folder; writes DIR/index.html and prints its path.',
    '',
    'report diff OLD NEW compares two report folders of one kind. Conformance: the rules whose verdict changed,',
    'the new FAILs (FAIL or ERROR now, neither before) and the fixed rules (FAIL, ERROR or KNOWN before, PASS now).',
    'Load: the scenarios whose verdict changed and the figures that moved beyond their run-to-run spread (rates:',
    'the counting error of their requests; errors and drops: Poisson; never less than --spread). Exit codes: 0 the',
    'diff was made (whatever it found: erpcert conform is the gate), 2 a folder cannot be read or the kinds differ.',
  ].join('\n'),
  async run(values, positionals, io) {
    if (positionals[0] === 'diff') return runReportDiff(values, positionals.slice(1), io);
    for (const f of ['md', 'spread'])
      if (values[f] !== undefined) throw new UsageError(`--${f} belongs to "erpcert report diff OLD NEW"`);
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
