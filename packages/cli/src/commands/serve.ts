import { type Command, notYet } from '../command.js';

export const serve: Command = notYet(
  'serve',
  'start the reference ERP server (both APIs on one port)',
  'the reference server issue (#3)',
  [
    { name: 'host', type: 'string', arg: 'HOST', default: '127.0.0.1', help: 'address to listen on' },
    { name: 'port', type: 'int', arg: 'PORT', default: 8080, help: 'port to listen on (0 picks a free one)' },
    { name: 'db', type: 'string', arg: 'FILE', help: 'SQLite file; without it data lives in memory' },
    { name: 'seed-size', type: 'int', arg: 'N', help: 'fill a deterministic demo data set scaled by N' },
    { name: 'user', type: 'string', arg: 'U', default: 'erpcert', help: 'user for HTTP Basic authentication' },
    { name: 'password', type: 'string', arg: 'P', secret: true, help: 'password (default: erpcert)' },
  ],
);
