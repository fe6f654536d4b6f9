import { type Command, notYet, targetFlags } from '../command.js';

export const load: Command = notYet(
  'load',
  'measure throughput against the documented figures',
  'the load tester issue (#6)',
  [
    ...targetFlags,
    { name: 'scenario', type: 'string', arg: 'NAME|all', default: 'all', help: 'scenario to run' },
    {
      name: 'engine',
      type: 'string',
      choices: ['k6', 'autocannon'],
      help: 'load engine (default: k6 when built, else autocannon)',
    },
    { name: 'duration', type: 'int', arg: 'S', help: 'seconds per scenario' },
    { name: 'out', type: 'string', arg: 'DIR', help: 'report folder (default: reports/load/<timestamp>)' },
  ],
);
