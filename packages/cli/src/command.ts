import type { FlagDef, OptionValues, PositionalDef } from './options.js';

/** Where a command writes: stdout for results, stderr for progress and errors. */
export interface CommandIO {
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** One subcommand of `erpcert`. `run` resolves to the exit code. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  /**
   * The positional arguments it takes, in order (optional ones last); none when absent. main() refuses any
   * other, and a command's `run` gets only these.
   */
  readonly positionals?: readonly PositionalDef[];
  /** Its sub-commands, chosen by the first argument (`erpcert report diff OLD NEW`), each parsed on its own. */
  readonly subcommands?: readonly Command[];
  readonly flags: readonly FlagDef[];
  /** Extra paragraphs for --help. */
  readonly details?: string;
  run(values: OptionValues, positionals: string[], io: CommandIO): Promise<number>;
}

/** Flags shared by every command that talks to a target ERP. */
/**
 * `--target-guard`: the hub's SSRF allow-list, handed to the runs it starts (`@erpcert/contract` target-guard). With
 * it, conform checks every address it connects to when the connection is made; load resolves the host once, checks
 * every address and pins the whole run to the checked one (load/target-pin.ts).
 */
export const targetGuardFlag: FlagDef = {
  name: 'target-guard',
  type: 'string',
  arg: 'CIDR,...|none',
  help: 'with --target: refuse to connect to link-local, multicast and reserved addresses, and to loopback and private ones outside these CIDR blocks (none: no exception). erpcert hub sets it for its live runs (its --allow-targets)',
};

export const targetFlags: readonly FlagDef[] = [
  {
    name: 'target',
    type: 'string',
    arg: 'URL',
    help: 'base URL of the ERP, e.g. https://erp.example.com; without it the embedded reference server is started',
  },
  { name: 'user', type: 'string', arg: 'U', help: 'user for HTTP Basic authentication' },
  { name: 'password', type: 'string', arg: 'P', secret: true, help: 'password (read, never printed)' },
  { name: 'compcode', type: 'int', arg: 'N', help: 'company code' },
  { name: 'usercode', type: 'string', arg: 'U', help: 'user code for user-specific portal operations' },
  { name: 'portalcc', type: 'string', choices: ['est', 'lat'], help: 'portal country code' },
  {
    name: 'portal-path',
    type: 'string',
    arg: 'PATH',
    default: '/WebErpAPI.hal',
    help: 'path of the portal action API',
  },
  {
    name: 'company-in',
    type: 'string',
    choices: ['query', 'path'],
    default: 'query',
    help: 'where the company code goes: ?compcode=N or /api/N/',
  },
];

/** A command whose implementation lands with a later issue: says so and exits 2. */
export function notYet(name: string, summary: string, arrivesWith: string, flags: readonly FlagDef[]): Command {
  return {
    name,
    summary: `${summary} [not built yet: ${arrivesWith}]`,
    flags,
    async run(_values, _positionals, io) {
      io.err.write(`erpcert ${name}: not built yet; it arrives with ${arrivesWith}.\n`);
      return 2;
    },
  };
}
