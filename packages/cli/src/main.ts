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
import { formatFlags, parseArgs, UsageError } from './options.js';

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
    'Usage: erpcert <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Every option can also come from the environment (ERPCERT_<OPTION>, e.g. ERPCERT_PORTAL_PATH)',
    'or from erpcert.config.json in the current folder (--config FILE for another).',
    'Run "erpcert <command> --help" for the options of a command.',
    '',
    'Exit codes: 0 success, 1 a check failed, 2 wrong configuration or target unreachable.',
    '',
  ].join('\n');
}

function commandHelp(c: Command): string {
  return [
    `erpcert ${c.name}: ${c.summary}`,
    '',
    `Usage: erpcert ${c.name}${c.positionals ? ` ${c.positionals}` : ''}${c.flags.length ? ' [options]' : ''}`,
    ...(c.flags.length ? ['', 'Options:', formatFlags(c.flags)] : []),
    ...(c.details ? ['', c.details] : []),
    '',
  ].join('\n');
}

/** Runs the CLI; resolves to the process exit code. */
export async function main(
  argv: readonly string[],
  io: CommandIO = { out: process.stdout, err: process.stderr, env: process.env, cwd: process.cwd() },
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out.write(topHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V') {
    io.out.write('erpcert 0.1.0\n');
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err.write(
      `erpcert: unknown command "${name}". Commands: ${commands.map((c) => c.name).join(', ')}. See erpcert --help\n`,
    );
    return 2;
  }
  try {
    const parsed = parseArgs(command.name, command.flags, rest, io.env, io.cwd);
    if (parsed.help) {
      io.out.write(commandHelp(command));
      return 0;
    }
    return await command.run(parsed.values, parsed.positionals, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err.write(`erpcert ${command.name}: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}
