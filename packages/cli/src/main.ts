import { erpcertVersion } from '@erpcert/client';
import type { Command, CommandIO } from './command.js';
import { certify } from './commands/certify.js';
import { cleanup } from './commands/cleanup.js';
import { conform } from './commands/conform.js';
import { hub } from './commands/hub.js';
import { keygen } from './commands/keygen.js';
import { load } from './commands/load.js';
import { publish } from './commands/publish.js';
import { report } from './commands/report.js';
import { selfTest } from './commands/self-test.js';
import { serve } from './commands/serve.js';
import { spec } from './commands/spec.js';
import { verifyCommand } from './commands/verify.js';
import {
  formatFlags,
  type ParsedArgs,
  parseArgs,
  positionalsUsage,
  UnknownOptionError,
  UsageError,
} from './options.js';

/** The subcommands of the command-line contract (DESIGN.md), in the order --help lists them. */
export const commands: readonly Command[] = [
  serve,
  spec,
  conform,
  load,
  cleanup,
  report,
  selfTest,
  keygen,
  certify,
  verifyCommand,
  hub,
  publish,
];

function topHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 4;
  return [
    'erpcert: conformance and performance kit for the ERP record REST API and portal action API',
    '',
    'Usage: erpcert <command> [arguments] [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'A command refuses any argument or option it does not take (exit 2); the server to test goes in --target URL.',
    '',
    'Every option can also come from the environment (ERPCERT_<OPTION>, e.g. ERPCERT_PORTAL_PATH)',
    'or from erpcert.config.json in the current folder (--config FILE for another).',
    'Run "erpcert <command> --help" for the options of a command.',
    '',
    'Exit codes: 0 success, 1 a check failed, 2 wrong configuration or target unreachable.',
    '',
  ].join('\n');
}

/** `erpcert verify DIR [options]`: one usage line of a command. */
function usageLine(c: Command, fullName: string): string {
  const args = c.positionals?.length ? ` ${positionalsUsage(c.positionals)}` : '';
  return `erpcert ${fullName}${args}${c.flags.length ? ' [options]' : ''}`;
}

function commandHelp(c: Command, fullName: string): string {
  const subs = (c.subcommands ?? []).map((s) => `${usageLine(s, `${fullName} ${s.name}`)}  (${s.summary})`);
  const args = c.positionals ?? [];
  const width = Math.max(0, ...args.map((a) => a.name.length)) + 4;
  return [
    `erpcert ${fullName}: ${c.summary}`,
    '',
    `Usage: ${usageLine(c, fullName)}`,
    ...subs.map((line) => `       ${line}`),
    '',
    args.length
      ? ['Arguments:', ...args.map((a) => `  ${a.name.padEnd(width)}${a.help}`)].join('\n')
      : `Takes no positional arguments${c.flags.some((f) => f.name === 'target') ? ': the server to test goes in --target URL' : ''}; any other argument is refused.`,
    ...(c.flags.length ? ['', 'Options:', formatFlags(c.flags)] : []),
    ...(c.subcommands?.length
      ? ['', ...c.subcommands.map((s) => `Run "erpcert ${fullName} ${s.name} --help" for the options of ${s.name}.`)]
      : []),
    ...(c.details ? ['', c.details] : []),
    '',
  ].join('\n');
}

/** The command argv names, its sub-command (`report diff`) chosen by the next argument; undefined for none. */
export function findCommand(
  argv: readonly string[],
): { readonly command: Command; readonly name: string; readonly rest: readonly string[] } | undefined {
  const [name, ...rest] = argv;
  const command = commands.find((c) => c.name === name);
  if (!command) return undefined;
  const sub = command.subcommands?.find((s) => s.name === rest[0]);
  return sub
    ? { command: sub, name: `${command.name} ${sub.name}`, rest: rest.slice(1) }
    : { command, name: command.name, rest };
}

/**
 * Parses the arguments of a command found by {@link findCommand}: its flags and its positionals, nothing else
 * (UsageError naming what was not expected). An option of one of its sub-commands says where it belongs.
 */
export function parseCommandLine(
  command: Command,
  name: string,
  rest: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): ParsedArgs {
  try {
    return parseArgs(name, command.flags, rest, env, cwd, command.positionals ?? []);
  } catch (err) {
    if (err instanceof UnknownOptionError) {
      const owner = command.subcommands?.find((s) => s.flags.some((f) => `--${f.name}` === err.option));
      if (owner)
        throw new UsageError(
          `${err.option} is an option of "${usageLine(owner, `${name} ${owner.name}`)}", not of "erpcert ${name}"`,
        );
    }
    throw err;
  }
}

/** Runs the CLI; resolves to the process exit code. */
export async function main(
  argv: readonly string[],
  io: CommandIO = { out: process.stdout, err: process.stderr, env: process.env, cwd: process.cwd() },
): Promise<number> {
  const [name] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out.write(topHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V') {
    io.out.write(`erpcert ${erpcertVersion()}\n`);
    return 0;
  }
  const found = findCommand(argv);
  if (!found) {
    io.err.write(
      `erpcert: unknown command "${name}". Commands: ${commands.map((c) => c.name).join(', ')}. See erpcert --help\n`,
    );
    return 2;
  }
  const { command } = found;
  try {
    const parsed = parseCommandLine(command, found.name, found.rest, io.env, io.cwd);
    if (parsed.help) {
      io.out.write(commandHelp(command, found.name));
      return 0;
    }
    return await command.run(parsed.values, parsed.positionals, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err.write(`erpcert ${found.name}: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}
