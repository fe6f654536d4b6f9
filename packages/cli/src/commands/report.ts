import { type Command, notYet } from '../command.js';

export const report: Command = {
  ...notYet('report', 'rebuild the HTML index over reports/', 'the conformance suite issue (#5)', []),
  positionals: '[DIR]',
};
