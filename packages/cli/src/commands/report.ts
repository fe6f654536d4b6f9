import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from '../command.js';
import { UsageError } from '../options.js';
import { listRuns, renderIndexHtml } from '../reports/index-html.js';

/** `erpcert report [DIR]`: rebuilds DIR/index.html (default `reports/`) over every conformance and load run. */
export const report: Command = {
  name: 'report',
  summary: 'rebuild the HTML index over reports/ (every conformance and load run, newest first)',
  positionals: '[DIR]',
  flags: [],
  details: 'DIR defaults to reports/ in the current folder; writes DIR/index.html and prints its path.',
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
