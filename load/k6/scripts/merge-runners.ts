// Judges a distributed run from its runners' outputs and prints the Markdown report (the JSON with --json).
// Usage (from load/k6): node --import tsx scripts/merge-runners.ts [--json] <runner.k6.json | runner.log> ...
import { markdownReport } from '../lib/markdown.ts';
import { documentedFigure } from '../lib/plan.ts';
import { resultOfRunnerFiles } from '../src/runner-outputs.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const paths = args.filter((a) => a !== '--json');
if (paths.length === 0) {
  console.error('usage: node --import tsx scripts/merge-runners.ts [--json] <runner.k6.json | runner.log> ...');
  process.exit(2);
}
const result = await resultOfRunnerFiles(paths);
process.stdout.write(
  json ? `${JSON.stringify(result, null, 2)}\n` : markdownReport(result, documentedFigure(result.scenario)),
);
process.exit(result.verdict === 'fail' ? 1 : 0);
