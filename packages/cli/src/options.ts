import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from 'node:util';

/** A command-line flag of the contract in DESIGN.md "Command-line contract". */
export interface FlagDef {
  /** Long name without dashes, e.g. `portal-path`. */
  readonly name: string;
  readonly type: 'string' | 'int' | 'boolean';
  /** Allowed values for an enumerated string flag. */
  readonly choices?: readonly string[];
  readonly default?: string | number | boolean;
  /** Placeholder shown in --help, e.g. `URL`. */
  readonly arg?: string;
  readonly help: string;
  /** A secret: never echoed in errors or logs. */
  readonly secret?: boolean;
}

export type OptionValues = Record<string, string | number | boolean | undefined>;

/** A configuration error: the CLI prints the message and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** `portal-path` -> `ERPCERT_PORTAL_PATH`. */
export function envName(flag: string): string {
  return `ERPCERT_${flag.toUpperCase().replace(/-/g, '_')}`;
}

function coerce(def: FlagDef, raw: string | boolean, source: string): string | number | boolean {
  const shown = def.secret ? '(hidden)' : JSON.stringify(raw);
  if (def.type === 'boolean') {
    if (typeof raw === 'boolean') return raw;
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off|)$/i.test(raw)) return false;
    throw new UsageError(`--${def.name} from ${source} must be true or false, got ${shown}`);
  }
  const text = String(raw);
  if (def.type === 'int') {
    if (!/^-?\d+$/.test(text))
      throw new UsageError(`--${def.name} from ${source} must be a whole number, got ${shown}`);
    return Number.parseInt(text, 10);
  }
  if (def.choices && !def.choices.includes(text)) {
    throw new UsageError(`--${def.name} from ${source} must be one of ${def.choices.join(', ')}, got ${shown}`);
  }
  return text;
}

/** Reads `erpcert.config.json`: flat `{ "<flag>": value }`, optionally with per-command sections `{ "conform": {...} }`. */
function readConfigFile(command: string, file: string | undefined, cwd: string): Record<string, unknown> {
  const path = resolve(cwd, file ?? 'erpcert.config.json');
  if (!existsSync(path)) {
    if (file) throw new UsageError(`config file ${path} does not exist`);
    return {};
  }
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`config file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new UsageError(`config file ${path} must hold a JSON object`);
  }
  const flat: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) if (typeof v !== 'object' || v === null) flat[k] = v;
  const section = (doc as Record<string, unknown>)[command];
  if (section && typeof section === 'object') Object.assign(flat, section);
  return flat;
}

/** A positional argument of a command, e.g. the `DIR` of `erpcert verify DIR`. */
export interface PositionalDef {
  /** Shown in usage and messages, e.g. `DIR`. */
  readonly name: string;
  /** What it is, for --help. */
  readonly help: string;
  /** May be left out (shown `[DIR]`); optional ones come last. */
  readonly optional?: boolean;
  /** The last positional may be given several times (shown `DIR...`). */
  readonly repeats?: boolean;
}

export interface ParsedArgs {
  readonly values: OptionValues;
  readonly positionals: string[];
  readonly help: boolean;
}

/** An option the command does not take; `option` is as typed (`-x`, `--nope`). */
export class UnknownOptionError extends UsageError {
  constructor(
    readonly option: string,
    command: string,
  ) {
    super(`unknown option ${option} for "erpcert ${command}"; see erpcert ${command} --help`);
  }
}

/** `DIR`, `[DIR]`, `OLD NEW`: the positionals as usage shows them. */
export function positionalsUsage(defs: readonly PositionalDef[]): string {
  return defs.map((d) => `${d.optional ? `[${d.name}]` : d.name}${d.repeats ? '...' : ''}`).join(' ');
}

/** What the command takes, for messages: `takes DIR` or `takes no positional arguments`. */
function takes(defs: readonly PositionalDef[]): string {
  return defs.length === 0 ? 'takes no positional arguments' : `takes ${positionalsUsage(defs)}`;
}

/** A URL typed where a positional goes (`erpcert conform http://erp:8080`). */
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** A URL as a message may show it: a password in its user-info masked. */
function shownUrl(text: string): string {
  try {
    const u = new URL(text);
    if (u.password === '') return text;
    u.password = '***';
    return u.href;
  } catch {
    return text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, '$1:***@');
  }
}

/** Refuses positionals the command does not take, too few of them, and a URL meant for --target. */
function checkPositionals(
  command: string,
  defs: readonly FlagDef[],
  wanted: readonly PositionalDef[],
  given: readonly string[],
): void {
  const usage = `erpcert ${command}${wanted.length ? ` ${positionalsUsage(wanted)}` : ''}`;
  if (defs.some((d) => d.name === 'target')) {
    const url = given.find((p) => URL_LIKE.test(p));
    if (url !== undefined) {
      const shown = shownUrl(url);
      throw new UsageError(
        `unexpected argument "${shown}": to run against that server, use --target ${shown} ` +
          `(erpcert ${command} ${takes(wanted)}). Nothing was run.`,
      );
    }
  }
  if (given.length > wanted.length && !wanted.at(-1)?.repeats) {
    const extra = given.slice(wanted.length);
    throw new UsageError(
      `unexpected argument${extra.length > 1 ? 's' : ''} ${extra.map((p) => JSON.stringify(p)).join(' ')}: ` +
        `erpcert ${command} ${takes(wanted)} (usage: ${usage} [options])`,
    );
  }
  const missing = wanted.slice(given.length).filter((d) => !d.optional);
  if (missing.length > 0)
    throw new UsageError(
      `missing ${missing.map((d) => d.name).join(' ')}: usage: ${usage} [options] (${missing.map((d) => `${d.name}: ${d.help}`).join('; ')})`,
    );
}

/** A negative number after an option that takes a value is its value (`--seed -7`), not an option. */
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;
const TRUE_WORDS = /^(1|true|yes|on)$/i;
const FALSE_WORDS = /^(0|false|no|off|)$/i;

/**
 * Readies argv for the strict tokenizer while keeping what the CLI has always accepted: `--seed -7` (a negative
 * number as a value) and `--bool=true|false`.
 */
function normalize(defs: ReadonlyMap<string, FlagDef>, argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const eq = arg.indexOf('=');
    const def = arg.startsWith('--') ? defs.get(eq >= 0 ? arg.slice(2, eq) : arg.slice(2)) : undefined;
    if (def?.type === 'boolean' && eq >= 0) {
      const raw = arg.slice(eq + 1);
      if (TRUE_WORDS.test(raw)) out.push(`--${def.name}`);
      else if (FALSE_WORDS.test(raw)) out.push(`--no-${def.name}`);
      else
        throw new UsageError(`--${def.name} from the command line must be true or false, got ${JSON.stringify(raw)}`);
      continue;
    }
    const next = argv[i + 1];
    if (def && def.type !== 'boolean' && eq < 0 && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`--${def.name}=${next}`);
      i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** The option a node:util parseArgs error names, as typed (`-x`, `--port`). */
function optionOf(err: Error): string | undefined {
  return /(?:Unknown option|Option) '(--?[^' ]+)/.exec(err.message)?.[1];
}

/** Tokenizes argv with node:util parseArgs in strict mode; its errors become UsageErrors in the CLI's words. */
function tokenize(
  command: string,
  defs: readonly FlagDef[],
  argv: readonly string[],
): { flags: Record<string, string | boolean>; positionals: string[]; help: boolean; configFile?: string } {
  const byName = new Map(defs.map((d) => [d.name, d]));
  const options: ParseArgsConfig['options'] = {
    help: { type: 'boolean', short: 'h' },
    config: { type: 'string' },
  };
  for (const d of defs) options[d.name] = { type: d.type === 'boolean' ? 'boolean' : 'string' };
  let parsed: ReturnType<typeof nodeParseArgs>;
  try {
    parsed = nodeParseArgs({
      args: normalize(byName, argv),
      options,
      strict: true,
      allowPositionals: true,
      allowNegative: true,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const option = optionOf(err as Error);
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UnknownOptionError(option ?? '(unknown)', command);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option !== undefined) {
      const name = option.replace(/^--(no-)?/, '');
      const def = byName.get(name);
      if (/does not take an argument/.test((err as Error).message)) throw new UsageError(`${option} takes no value`);
      const arg = name === 'config' ? ' (FILE)' : def?.arg ? ` (${def.arg})` : '';
      if (/ambiguous/.test((err as Error).message))
        throw new UsageError(
          `${option} needs a value${arg}, and the next argument is an option; a value that starts with "-" goes as ${option}=VALUE`,
        );
      throw new UsageError(`${option} needs a value${arg}`);
    }
    throw new UsageError((err as Error).message);
  }
  const { help, config, ...flags } = parsed.values as Record<string, string | boolean | undefined>;
  if (config === '') throw new UsageError('--config needs a file name');
  return {
    flags: flags as Record<string, string | boolean>,
    positionals: parsed.positionals,
    help: help === true,
    ...(typeof config === 'string' ? { configFile: config } : {}),
  };
}

/**
 * Parses argv for one command, strictly: an option the command does not take, a positional beyond `positionals`
 * (none by default) and a missing required one throw UsageError naming it. `command` names the command in
 * messages (`report diff`); its first word picks the section of erpcert.config.json. Precedence: flag >
 * `ERPCERT_<FLAG>` > `erpcert.config.json` (its section of the command over its flat keys) > default. With
 * --help, positionals are not checked.
 */
export function parseArgs(
  command: string,
  defs: readonly FlagDef[],
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
  positionals: readonly PositionalDef[] = [],
): ParsedArgs {
  const { flags: fromFlags, positionals: given, help, configFile } = tokenize(command, defs, argv);
  if (!help) checkPositionals(command, defs, positionals, given);
  const config = readConfigFile(command.split(' ')[0]!, configFile ?? env.ERPCERT_CONFIG, cwd);
  const values: OptionValues = {};
  for (const def of defs) {
    const envValue = env[envName(def.name)];
    if (def.name in fromFlags) values[def.name] = coerce(def, fromFlags[def.name]!, 'the command line');
    else if (envValue !== undefined && envValue !== '') values[def.name] = coerce(def, envValue, envName(def.name));
    else if (def.name in config) {
      const v = config[def.name];
      values[def.name] = coerce(def, typeof v === 'boolean' ? v : String(v), 'erpcert.config.json');
    } else values[def.name] = def.default;
  }
  return { values, positionals: given, help };
}

/** Renders the flag table of a command's --help. */
export function formatFlags(defs: readonly FlagDef[]): string {
  const rows = defs.map((d) => {
    const left = `  --${d.name}${d.type === 'boolean' ? '' : ` ${d.arg ?? (d.choices ? d.choices.join('|') : d.type === 'int' ? 'N' : 'VALUE')}`}`;
    const dflt = d.default !== undefined && d.default !== false ? ` (default: ${d.default})` : '';
    return [left, `${d.help}${dflt}`] as const;
  });
  const width = Math.max(...rows.map(([l]) => l.length)) + 2;
  return rows.map(([l, r]) => l.padEnd(width) + r).join('\n');
}
