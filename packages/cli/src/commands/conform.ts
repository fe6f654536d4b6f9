import { type Command, notYet, targetFlags } from '../command.js';

export const conform: Command = notYet(
  'conform',
  'run the conformance suite against a target',
  'the conformance suite issue (#5)',
  [
    ...targetFlags,
    {
      name: 'profile',
      type: 'string',
      choices: ['readonly', 'full', 'strict'],
      default: 'full',
      help: 'what the run may do',
    },
    { name: 'runs', type: 'int', arg: 'N', help: 'fast-check runs per property' },
    { name: 'seed', type: 'int', arg: 'S', help: 'fast-check seed, to replay a run' },
    { name: 'only', type: 'string', arg: 'GLOB', help: 'run only rules whose id matches, e.g. PORTAL.LOOKUP.*' },
    { name: 'out', type: 'string', arg: 'DIR', help: 'report folder (default: reports/conformance/<timestamp>)' },
  ],
);
