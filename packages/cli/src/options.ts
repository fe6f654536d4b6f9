import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

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

export interface ParsedArgs {
  readonly values: OptionValues;
  readonly positionals: string[];
  readonly help: boolean;
}

/**
 * Parses argv for one command. Precedence: flag > `ERPCERT_<FLAG>` > `erpcert.config.json` > default.
 * Unknown flags and bad values throw UsageError.
 */
export function parseArgs(
  command: string,
  defs: readonly FlagDef[],
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): ParsedArgs {
  const byName = new Map(defs.map((d) => [d.name, d]));
  const fromFlags: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  let help = false;
  let configFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    let name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    let value: string | boolean | undefined = eq >= 0 ? arg.slice(eq + 1) : undefined;
    if (name === 'config') {
      configFile = value ?? argv[++i];
      if (!configFile) throw new UsageError('--config needs a file name');
      continue;
    }
    let def = byName.get(name);
    if (!def && name.startsWith('no-') && byName.get(name.slice(3))?.type === 'boolean') {
      name = name.slice(3);
      def = byName.get(name);
      value = false;
    }
    if (!def) throw new UsageError(`unknown option --${name} for "erpcert ${command}"; see erpcert ${command} --help`);
    if (value === undefined) {
      if (def.type === 'boolean') value = true;
      else {
        const next = argv[i + 1];
        if (next === undefined || (next.startsWith('--') && next.length > 2)) {
          throw new UsageError(`--${name} needs a value${def.arg ? ` (${def.arg})` : ''}`);
        }
        value = next;
        i++;
      }
    }
    fromFlags[name] = value;
  }
  const config = readConfigFile(command, configFile ?? env.ERPCERT_CONFIG, cwd);
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
  return { values, positionals, help };
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
