import {
  builtinModules,
  createObservedModule,
  DEFAULT_MAX_WEB_POST_SIZE,
  parseAllowList,
  type RunningServer,
  startServer,
  withPortalOptions,
} from '@erpcert/refserver';
import type { Command } from '../command.js';
import { UsageError } from '../options.js';
import { listenForStop } from '../stop-signals.js';
import { REGISTERS_EXAMPLE, readRegistersFile } from './serve-registers.js';
import { SPEC_PATH } from './spec.js';
import { specRouteModule } from './spec-route.js';

/**
 * `erpcert serve`: the reference ERP (packages/refserver). Prints the base URL on one line once it
 * accepts requests; logs go to stderr; SIGTERM and SIGINT stop it cleanly (DESIGN.md "Command-line contract").
 */
export const serve: Command = {
  name: 'serve',
  summary: 'start the reference ERP server (both APIs on one port)',
  flags: [
    { name: 'host', type: 'string', arg: 'HOST', default: '127.0.0.1', help: 'address to listen on' },
    { name: 'port', type: 'int', arg: 'PORT', default: 8080, help: 'port to listen on (0 picks a free one)' },
    { name: 'db', type: 'string', arg: 'FILE', help: 'SQLite file; without it data lives in memory' },
    {
      name: 'seed-size',
      type: 'int',
      arg: 'N',
      default: 100,
      help: 'fill a new database with a deterministic demo data set: N journal entries, N/10 invoices, ...',
    },
    {
      name: 'user',
      type: 'string',
      arg: 'U',
      default: 'erpcert',
      help: 'user for HTTP Basic authentication; also a person of UserVc with every right in every company (usercode=U)',
    },
    { name: 'password', type: 'string', arg: 'P', secret: true, help: 'password (default: erpcert)' },
    {
      name: 'session-ttl',
      type: 'int',
      arg: 'SECONDS',
      default: 1800,
      help: 'idle lifetime of an HSESSION session',
    },
    { name: 'token-ttl', type: 'int', arg: 'SECONDS', default: 3600, help: 'lifetime of an OAuth 2.0 bearer token' },
    {
      name: 'oauth-client-id',
      type: 'string',
      arg: 'ID',
      default: 'erpcert-client',
      help: 'client id of the local OAuth 2.0 server (/oauth-authorize, /oauth-token)',
    },
    {
      name: 'oauth-client-secret',
      type: 'string',
      arg: 'SECRET',
      secret: true,
      help: 'client secret of the local OAuth 2.0 server (default: erpcert-secret)',
    },
    {
      name: 'allow',
      type: 'string',
      arg: 'LIST',
      help: 'client allow-list: addresses, CIDR blocks (a/n) and ranges (a-b), comma-separated; others get 403',
    },
    {
      name: 'quirks',
      type: 'boolean',
      help:
        'rough wire of live servers: status line without reason, Content-Length with chunked, Latin-1 without ' +
        'charset=UTF-8, + kept as a plus in form bodies, malformed JSON PATCH answers, nested PATCH errors',
    },
    {
      name: 'registers',
      type: 'string',
      arg: 'FILE',
      help:
        'your own registers and fields, in the format of specs/observed-fields.yaml (checked at start-up: a bad file ' +
        'exits 2 naming the line); served and seeded like the observed ones',
    },
    { name: 'max-body', type: 'int', arg: 'BYTES', default: 16_777_216, help: 'largest request body (413 above)' },
    {
      name: 'max-web-post-size',
      type: 'int',
      arg: 'BYTES',
      default: DEFAULT_MAX_WEB_POST_SIZE,
      help: 'portal "Max Web Post Size": largest doupload body (refused with an errstr above)',
    },
    {
      name: 'db-sync',
      type: 'string',
      choices: ['normal', 'full'],
      default: 'normal',
      help: 'with --db: normal survives a killed server, full also a power cut (slower writes)',
    },
  ],
  details: [
    'Default credentials: user erpcert, password erpcert. Data: company 1 and 2 (compcode or /api/N/).',
    'The --user login is a person of the user register (UserVc, group APIUSER) with every right in every company, so',
    'portal calls with usercode=<login> work; the demo users (ERPCERT, ADMIN, JD, MK, REP, ACC) keep their rights.',
    'Beyond the documented 38 registers it serves what live servers do (observed, specs/observed-fields.yaml): PRVc,',
    'DepVc, VATCodeBlock, MainStockBlock, SVOVc, WSVc, SVOSerVc, ActTypeVc, ActTypeGrVc, RLinkVc, and more fields.',
    'Add your own with --registers FILE (same format), for example:',
    '',
    ...REGISTERS_EXAMPLE.map((l) => `    ${l}`),
    '',
    'erpcert spec --registers FILE [--out FILE] writes the record REST OpenAPI document with them, marked observed;',
    `the running server answers the same document (with its --registers) at GET ${SPEC_PATH}.`,
    '',
    'See packages/refserver/README.md for every decision where the API documents are silent.',
  ].join('\n'),
  async run(values, _positionals, io) {
    const int = (name: string, min: number) => {
      const v = values[name] as number;
      if (v < min) throw new UsageError(`--${name} must be at least ${min}, got ${v}`);
      return v;
    };
    const allow = values.allow as string | undefined;
    if (allow !== undefined) {
      try {
        parseAllowList(allow);
      } catch (err) {
        throw new UsageError(`--allow: ${(err as Error).message}`);
      }
    }
    const portalModules = withPortalOptions(builtinModules, { maxWebPostSize: int('max-web-post-size', 1) });
    const registersFile = values.registers as string | undefined;
    const team = registersFile === undefined ? undefined : readRegistersFile(registersFile, io.cwd, portalModules);
    const modules = [
      ...portalModules,
      ...(team ? [createObservedModule(team, 'registers-file')] : []),
      specRouteModule(team, registersFile),
    ];
    const port = int('port', 0);
    if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
    // listen for SIGTERM/SIGINT from the start: a stop during start-up still closes cleanly
    const signals = listenForStop();
    let server: RunningServer;
    try {
      server = await startServer({
        host: values.host as string,
        port,
        ...(values.db ? { db: values.db as string } : {}),
        sync: values['db-sync'] as 'normal' | 'full',
        seed: int('seed-size', 0),
        user: values.user as string,
        password: (values.password as string | undefined) ?? 'erpcert',
        sessionTtl: int('session-ttl', 1),
        tokenTtl: int('token-ttl', 1),
        oauthClientId: values['oauth-client-id'] as string,
        oauthClientSecret: (values['oauth-client-secret'] as string | undefined) ?? 'erpcert-secret',
        ...(allow !== undefined ? { allow } : {}),
        quirks: values.quirks === true,
        maxBody: int('max-body', 1),
        modules,
        log: (line) => io.err.write(`${line}\n`),
      });
    } catch (err) {
      signals.detach();
      io.err.write(`erpcert serve: cannot start: ${(err as Error).message}\n`);
      return 2;
    }
    io.out.write(`${server.url}\n`);
    io.err.write(
      `erpcert serve: listening on ${server.url} (${values.db ? `database ${values.db}` : 'in memory'}; ` +
        `user ${values.user as string}; Ctrl-C stops)\n`,
    );
    io.err.write(`erpcert serve: its record REST OpenAPI document: ${server.url}${SPEC_PATH}\n`);
    const stopSignal = await signals.stopped();
    signals.detach();
    io.err.write(`erpcert serve: ${stopSignal}, stopping\n`);
    await server.close();
    return 0;
  },
};
