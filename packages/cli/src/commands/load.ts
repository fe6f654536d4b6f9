import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Command, targetFlags, targetGuardFlag } from '../command.js';
import { openReportPublisher, publishFlags } from '../hub/publisher.js';

/**
 * `erpcert load`: the load scenarios against the documented figures (record-rest-api.md §8), on k6 or
 * autocannon, with a report folder of results.json, summary.md and report.html.
 */
export const load: Command = {
  name: 'load',
  summary: 'measure throughput and latency against the documented figures (exit 0 pass, 1 a threshold failed, 2 error)',
  flags: [
    ...targetFlags,
    targetGuardFlag,
    {
      name: 'scenario',
      type: 'string',
      arg: 'NAME|all',
      default: 'all',
      help: 'invoices, transactions, read-raw, read-fields, sync, portal-mix, or all (comma for several)',
    },
    {
      name: 'engine',
      type: 'string',
      choices: ['k6', 'autocannon'],
      help: 'load engine (default: k6 when tools/bin/k6 is built, else autocannon)',
    },
    {
      name: 'duration',
      type: 'int',
      arg: 'S',
      help: 'seconds of offered load per rate scenario (default 10, at most 3600)',
    },
    {
      name: 'rate',
      type: 'int',
      arg: 'N',
      help: 'offered operations per second (default: the documented maximum: invoices 4, transactions 10; sync 2, portal-mix 5)',
    },
    {
      name: 'seed-size',
      type: 'int',
      arg: 'N',
      help: 'demo data of the embedded server: N journal entries (default 10000, what the documented reads need)',
    },
    {
      name: 'read-pause',
      type: 'int',
      arg: 'MS',
      help: 'pause between read batch requests (default 1000: "about one second", record-rest-api.md §4 rule 12)',
    },
    { name: 'batch', type: 'string', arg: 'N,N', help: 'read batch sizes, 1000 to 5000 records (default 1000,5000)' },
    { name: 'timeout', type: 'int', arg: 'S', help: 'timeout of one request in seconds (default 10)' },
    {
      name: 'saturation',
      type: 'boolean',
      help: 'step the offered rate upwards after each rate scenario, doubling until the target breaks, the generator tops out or --max-rate, then bisecting (default: on for the embedded server, off with --target)',
    },
    {
      name: 'max-rate',
      type: 'int',
      arg: 'N',
      help: 'top of the saturation steps in operations/s (default 100000: the steps stop where the target breaks or the generator tops out first)',
    },
    {
      name: 'saturation-stages',
      type: 'int',
      arg: 'N',
      help: 'most saturation steps, doubling and bisection together (default 20)',
    },
    { name: 'saturation-stage-seconds', type: 'int', arg: 'S', help: 'seconds per saturation step (default 2)' },
    { name: 'dashboard', type: 'boolean', help: 'k6 only: also export the k6 web dashboard (HTML) per scenario' },
    {
      name: 'baseline',
      type: 'string',
      arg: 'DIR',
      help: 'an earlier report folder: print and report the change of every figure',
    },
    { name: 'out', type: 'string', arg: 'DIR', help: 'report folder (default: reports/load/<timestamp>)' },
    ...publishFlags,
  ],
  details: [
    'Without --target, the embedded reference server runs in this process (its own thread) with --seed-size demo',
    'data; with --target, the scenarios create records on that server (invoices are confirmed and cannot be',
    'deleted): point it at a staging system. Progress goes to stderr; the verdict table to stdout.',
    'Exit codes: 0 every threshold held, 1 a scenario failed its documented figure or checks, 2 configuration',
    'error, unreachable target, refused credentials or an interrupted run.',
  ].join('\n'),
  // loaded when run: the load engines' modules (autocannon, k6 glue) cost every other command's start-up
  run: async (values, _positionals, io) => {
    const publisher = openReportPublisher(values, io, 'load');
    if (publisher === 'refused') return 2;
    const { loadSettings } = await import('../load/load-settings.js');
    // the folder is named before the run, so that it can be published after it
    const outDir = loadSettings(values, io.cwd, new Date()).outDir;
    const code = await (await import('../load/run-load.js')).runLoad({ ...values, out: outDir }, io);
    // a run refused before it started (the target guard) leaves no folder to publish
    if (publisher !== undefined && existsSync(join(outDir, 'results.json')) && (await publisher.publish(outDir)) !== 0)
      return 2;
    return code;
  },
};
